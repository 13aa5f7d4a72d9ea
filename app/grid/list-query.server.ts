// Reads page, sort, sort_dir, queryValue and one parameter per filterable
// column from a list request. Blank, empty-list and null filters are ignored;
// an unknown sort key, a bad direction or a bad page is a ValidationError (422).
import type { Translate } from "~/i18n/i18n.server";
import { ValidationError, type FieldErrors } from "~/lib/validation.server";
import type { SortDir } from "./types";
import type { GridDefinition } from "./grid.server";

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 200;

export interface ListQuery {
  page: number;
  perPage: number;
  sort: string;
  sortDir: SortDir;
  queryValue?: string;
  /** Column key → the values asked for (one or more). */
  filters: Record<string, string[]>;
}

const isBlank = (value: string) => value.trim() === "" || value === "null" || value === "undefined";

/** All values of `key`, `key[]` and `key[n]`, blanks dropped. */
function valuesOf(params: URLSearchParams, key: string): string[] {
  const values: string[] = [];
  for (const [name, value] of params) {
    if (name === key || name === `${key}[]` || new RegExp(`^${key}\\[\\d+\\]$`).test(name)) {
      for (const part of value.startsWith("[") ? safeJsonList(value) : [value]) {
        if (!isBlank(part)) values.push(part.trim());
      }
    }
  }
  return values;
}

function safeJsonList(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [value];
  } catch {
    return [value];
  }
}

function wholeNumber(raw: string | null): number | null {
  if (raw === null || isBlank(raw)) return null;
  return /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
}

export function parseListQuery(params: URLSearchParams, grid: GridDefinition, t: Translate): ListQuery {
  const errors: FieldErrors = {};

  const page = wholeNumber(params.get("page")) ?? 1;
  if (!Number.isSafeInteger(page) || page < 1) errors.page = [t("errors.validation.page")];

  const perPage = wholeNumber(params.get("per_page")) ?? DEFAULT_PER_PAGE;
  if (!Number.isSafeInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) {
    errors.per_page = [t("errors.validation.per_page", { max: MAX_PER_PAGE })];
  }

  const sortable = grid.columns.filter((column) => column.sortable).map((column) => column.key);
  const sortRaw = params.get("sort");
  const sort = sortRaw && !isBlank(sortRaw) ? sortRaw.trim() : grid.defaultSort.key;
  if (!sortable.includes(sort)) {
    errors.sort = [t("errors.validation.sort", { value: sort, allowed: sortable.join(", ") })];
  }

  const dirRaw = params.get("sort_dir")?.trim().toLowerCase();
  const sortDir = (dirRaw && !isBlank(dirRaw) ? dirRaw : grid.defaultSort.dir) as SortDir;
  if (sortDir !== "asc" && sortDir !== "desc") errors.sort_dir = [t("errors.validation.sort_dir")];

  const queryValue = ["queryValue", "query_value", "globalFilter"]
    .map((name) => params.get(name))
    .find((value): value is string => value !== null && !isBlank(value))
    ?.trim();

  const filters: Record<string, string[]> = {};
  for (const column of grid.columns) {
    if (column.filter === "none") continue;
    const values = valuesOf(params, column.key);
    if (values.length === 0) continue;
    for (const value of values) {
      const problem = column.checkFilterValue(value, t);
      if (problem) (errors[column.key] ??= []).push(problem);
    }
    filters[column.key] = values;
  }

  if (Object.keys(errors).length > 0) throw new ValidationError(errors, t("errors.unprocessable"));
  return { page, perPage, sort, sortDir, queryValue, filters };
}
