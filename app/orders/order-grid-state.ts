// The Advanced Order Summary's list state in the browser: read from and
// written to the page URL, sent to GET /api/advancedordergrid, kept in saved
// views. Blank filters are never sent; Houser (the empty marketplace source)
// is a value, not a blank.
import type { SortDir } from "~/grid/types";
import {
  ORDER_DEFAULT_SORT,
  ORDER_FILTER_KEYS,
  ORDER_OPTION_FILTERS,
  ORDER_SORT_KEYS,
  type OrderFilterKey,
  type OrderFilters,
  type OrderOptionFilter,
} from "./order-grid";

export interface OrderGridState {
  page: number;
  sort: string;
  sort_dir: SortDir;
  queryValue: string;
  filters: OrderFilters;
  /** The saved view whose tab is selected; null for All. */
  view: number | null;
}

export const isOptionFilter = (key: string): key is OrderOptionFilter => key in ORDER_OPTION_FILTERS;

/** A filter's values, cleaned: trimmed, blanks dropped (but Houser kept), options split on commas, no repeats. */
export function cleanValues(key: OrderFilterKey, values: readonly string[]): string[] {
  const split = isOptionFilter(key) ? values.flatMap((value) => value.split(",")) : values;
  const kept = split.map((value) => value.trim()).filter((value) => value !== "" || key === "marketplaceSource");
  const unique = [...new Set(kept)];
  // Text and range filters take one value.
  return isOptionFilter(key) ? unique : unique.slice(0, 1);
}

function withFilters(filters: OrderFilters): OrderFilters {
  const out: OrderFilters = {};
  for (const key of ORDER_FILTER_KEYS) {
    const values = cleanValues(key, filters[key] ?? []);
    if (values.length) out[key] = values;
  }
  return out;
}

export const defaultOrderState = (): OrderGridState => ({
  page: 1,
  sort: ORDER_DEFAULT_SORT.key,
  sort_dir: ORDER_DEFAULT_SORT.dir,
  queryValue: "",
  filters: {},
  view: null,
});

export function orderStateFromSearch(search: URLSearchParams): OrderGridState {
  const page = Number(search.get("page"));
  const sort = search.get("sort") ?? "";
  const dir = search.get("sort_dir");
  const view = Number(search.get("view"));
  const filters: OrderFilters = {};
  for (const key of ORDER_FILTER_KEYS) filters[key] = search.getAll(key);
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    sort: (ORDER_SORT_KEYS as readonly string[]).includes(sort) ? sort : ORDER_DEFAULT_SORT.key,
    sort_dir: dir === "asc" || dir === "desc" ? dir : ORDER_DEFAULT_SORT.dir,
    queryValue: (search.get("queryValue") ?? search.get("globalFilter") ?? "").trim(),
    filters: withFilters(filters),
    view: Number.isInteger(view) && view > 0 ? view : null,
  };
}

function appendFilters(target: URLSearchParams, filters: OrderFilters) {
  for (const key of ORDER_FILTER_KEYS) for (const value of cleanValues(key, filters[key] ?? [])) target.append(key, value);
}

const LIST_KEYS = ["page", "sort", "sort_dir", "queryValue", "globalFilter", "view", ...ORDER_FILTER_KEYS];

/** The page URL's search for `state`, keeping unrelated parameters (locale, host, shop…); defaults are left out. */
export function searchForOrderState(state: OrderGridState, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of LIST_KEYS) next.delete(key);
  if (state.view !== null) next.set("view", String(state.view));
  if (state.page > 1) next.set("page", String(state.page));
  if (state.sort !== ORDER_DEFAULT_SORT.key || state.sort_dir !== ORDER_DEFAULT_SORT.dir) {
    next.set("sort", state.sort);
    next.set("sort_dir", state.sort_dir);
  }
  if (state.queryValue.trim()) next.set("queryValue", state.queryValue.trim());
  appendFilters(next, state.filters);
  return next;
}

/** The query of GET /api/advancedordergrid for `state` (with `status=any`, as spec 000 §7 lists it). */
export function apiQueryForOrderState(state: OrderGridState, locale: string): URLSearchParams {
  const query = new URLSearchParams({ page: String(state.page), sort: state.sort, sort_dir: state.sort_dir, status: "any" });
  if (state.queryValue.trim()) query.set("queryValue", state.queryValue.trim());
  appendFilters(query, state.filters);
  query.set("locale", locale);
  return query;
}

/** What a saved view keeps of a state. */
export function viewFiltersFromState(state: OrderGridState): Record<string, string | string[]> {
  const saved: Record<string, string | string[]> = { ...withFilters(state.filters) };
  if (state.queryValue.trim()) saved.queryValue = state.queryValue.trim();
  if (state.sort !== ORDER_DEFAULT_SORT.key || state.sort_dir !== ORDER_DEFAULT_SORT.dir) {
    saved.sort = state.sort;
    saved.sort_dir = state.sort_dir;
  }
  return saved;
}

/** The state a saved view (or All, with `null`) shows: its filters, search and sort, page 1. */
export function stateForView(view: { id: number; filters: Record<string, string | string[]> } | null): OrderGridState {
  if (!view) return defaultOrderState();
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(view.filters)) for (const item of Array.isArray(value) ? value : [value]) search.append(key, item);
  return { ...orderStateFromSearch(search), page: 1, view: view.id };
}

/** Whether two states show the same rows (filters, search and sort; not the page). */
export function sameSelection(a: OrderGridState, b: OrderGridState): boolean {
  return JSON.stringify(viewFiltersFromState(a)) === JSON.stringify(viewFiltersFromState(b));
}
