// The browser half of each staff member's columns (D268): the columns a grid
// hides, as the layout loader read them with the first page, and as the column
// chooser saves them (POST _method PUT /api/grid_preferences/{grid}). What this
// tab saved since is kept here, so a screen opened again shows it at once.
import { useRouteLoaderData } from "@remix-run/react";
import { useCallback, useState } from "react";

const savedHere = new Map<string, string[]>();

/** The columns `gridId` hides for this staff member, and how to change them (saved at once; false when saving failed). */
export function useHiddenColumns(gridId: string, locale: string): [string[], (hidden: string[]) => Promise<boolean>] {
  const layout = useRouteLoaderData<{ gridPreferences?: Record<string, string[]> }>("routes/_app");
  const [hidden, setHidden] = useState<string[]>(() => savedHere.get(gridId) ?? layout?.gridPreferences?.[gridId] ?? []);
  const change = useCallback(
    async (next: string[]) => {
      setHidden(next);
      savedHere.set(gridId, next);
      try {
        const response = await fetch(`/api/grid_preferences/${encodeURIComponent(gridId)}?locale=${encodeURIComponent(locale)}`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ _method: "PUT", hidden_columns: next }),
        });
        return response.ok;
      } catch {
        return false;
      }
    },
    [gridId, locale],
  );
  return [hidden, change];
}
