// Grid screens whose rows change by a button (import, delete): the loader runs
// again and the grid starts afresh from its answer, keeping the URL's state.
import { useRevalidator } from "@remix-run/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { gridShouldRevalidate } from "~/grid/DataGrid";

/** As gridShouldRevalidate, but an explicit revalidation (same URL) runs the loader. */
export const reloadableGridShouldRevalidate: ShouldRevalidateFunction = (args) =>
  args.currentUrl.href === args.nextUrl.href && !args.formMethod ? true : gridShouldRevalidate(args);

/** `key` for the DataGrid: changes when the loader's answer (`initial`) is new after `reload()`. */
export function useGridReload(initial: unknown) {
  const revalidator = useRevalidator();
  const [generation, setGeneration] = useState(0);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setGeneration((value) => value + 1);
  }, [initial]);
  return { key: generation, reload: () => revalidator.revalidate() };
}
