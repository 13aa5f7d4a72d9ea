// Grid screens whose rows change by a button (import, delete): the loader runs
// again and the grid starts afresh from its answer, keeping the URL's state.
// The list writes its state into the address bar without the router (D247), so
// a reload is a navigation to the address bar's URL, which runs the loader.
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useNavigateToListUrl } from "~/grid/list-url";

/** The loader runs for every navigation to the screen, the reload's included (the grid's own changes are not navigations). */
export const reloadableGridShouldRevalidate: ShouldRevalidateFunction = ({ defaultShouldRevalidate }) => defaultShouldRevalidate;

/** `key` for the DataGrid: changes when the loader's answer (`initial`) is new after `reload()`. */
export function useGridReload(initial: unknown) {
  const navigateToListUrl = useNavigateToListUrl();
  const [generation, setGeneration] = useState(0);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setGeneration((value) => value + 1);
  }, [initial]);
  return { key: generation, reload: navigateToListUrl };
}
