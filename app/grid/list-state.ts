// A grid's list state lives in the page URL (so reload and links keep it) and
// becomes the query of its /api twin. Blank filters are never sent.
import type { GridColumn, ListState, SortDir } from "./types";

const LIST_KEYS = ["page", "sort", "sort_dir", "queryValue"];

export function listStateFromSearch(
  search: URLSearchParams,
  columns: Pick<GridColumn, "key" | "filter">[],
  defaultSort: { key: string; dir: SortDir },
): ListState {
  const page = Number(search.get("page"));
  const filters: Record<string, string> = {};
  for (const column of columns) {
    const value = search.get(column.key);
    if (column.filter !== "none" && value !== null && value.trim() !== "") filters[column.key] = value;
  }
  const dir = search.get("sort_dir");
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    sort: search.get("sort") || defaultSort.key,
    sort_dir: dir === "asc" || dir === "desc" ? dir : defaultSort.dir,
    queryValue: search.get("queryValue") ?? "",
    filters,
  };
}

/** The URL search for `state`, keeping unrelated parameters (locale, host, shop…). */
export function searchForListState(state: ListState, current: URLSearchParams, columns: Pick<GridColumn, "key">[]): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of [...LIST_KEYS, ...columns.map((column) => column.key)]) next.delete(key);
  if (state.page > 1) next.set("page", String(state.page));
  next.set("sort", state.sort);
  next.set("sort_dir", state.sort_dir);
  if (state.queryValue.trim()) next.set("queryValue", state.queryValue.trim());
  for (const [key, value] of Object.entries(state.filters)) if (value.trim()) next.set(key, value.trim());
  return next;
}

/** The query of the /api call for `state`. */
export function apiQueryForListState(state: ListState, locale: string): URLSearchParams {
  const query = new URLSearchParams({ page: String(state.page), sort: state.sort, sort_dir: state.sort_dir });
  if (state.queryValue.trim()) query.set("queryValue", state.queryValue.trim());
  for (const [key, value] of Object.entries(state.filters)) if (value.trim()) query.set(key, value.trim());
  query.set("locale", locale);
  return query;
}
