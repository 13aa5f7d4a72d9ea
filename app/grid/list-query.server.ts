// Reads page, sort, sort_dir, queryValue and one parameter per filterable
// column from a list request. Blank, empty-list and null filters are ignored;
// an unknown sort key, a bad direction or a bad page is a ValidationError (422).
import { message, type CodedMessage } from "~/i18n/messages";
import { z } from "zod";
import { ValidationError, type FieldProblems } from "~/lib/validation.server";
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

export const isBlank = (value: string) => value.trim() === "" || value === "null" || value === "undefined";

/** Every value of `key`, `key[]` and `key[n]` as sent (JSON lists split), blanks included. */
export function rawValuesOf(params: URLSearchParams, key: string): string[] {
  const values: string[] = [];
  const indexed = new RegExp(`^${key}\\[\\d+\\]$`);
  for (const [name, value] of params) {
    if (name === key || name === `${key}[]` || indexed.test(name)) {
      values.push(...(value.startsWith("[") ? safeJsonList(value) : [value]));
    }
  }
  return values;
}

/** All values of `key`, `key[]` and `key[n]`, trimmed, blanks dropped. */
export function valuesOf(params: URLSearchParams, key: string): string[] {
  return rawValuesOf(params, key)
    .filter((value) => !isBlank(value))
    .map((value) => value.trim());
}

function safeJsonList(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [value];
  } catch {
    return [value];
  }
}

export interface Paging {
  page: number;
  perPage: number;
  sort: string;
  sortDir: SortDir;
}

/** A whole number within bounds; blank (or absent) gives the fallback. */
const wholeNumber = (fallback: number, accepts: (value: number) => boolean) =>
  z
    .string()
    .nullish()
    .transform((raw, context) => {
      if (raw === null || raw === undefined || isBlank(raw)) return fallback;
      const value = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      if (Number.isSafeInteger(value) && accepts(value)) return value;
      context.addIssue({ code: "custom", message: "out of range" });
      return z.NEVER;
    });

const textOr = (fallback: string) =>
  z
    .string()
    .nullish()
    .transform((raw) => (raw === null || raw === undefined || isBlank(raw) ? fallback : raw.trim()));

interface PagingOptions {
  sortable: readonly string[];
  defaultSort: { key: string; dir: SortDir };
}

function buildPagingSchema({ sortable, defaultSort }: PagingOptions) {
  return z
    .object({
      page: wholeNumber(1, (value) => value >= 1),
      per_page: wholeNumber(DEFAULT_PER_PAGE, (value) => value >= 1 && value <= MAX_PER_PAGE),
      sort: textOr(defaultSort.key).pipe(z.string().refine((value) => sortable.includes(value))),
      sort_dir: textOr(defaultSort.dir)
        .transform((value) => value.toLowerCase())
        .pipe(z.enum(["asc", "desc"])),
    })
    .transform(({ page, per_page, sort, sort_dir }): Paging => ({ page, perPage: per_page, sort, sortDir: sort_dir }));
}

// Built once per grid: a zod schema costs far more to build than to run.
const pagingSchemas = new Map<string, ReturnType<typeof buildPagingSchema>>();

/**
 * page, per_page, sort and sort_dir of a list request. Blank values take the
 * defaults; an unknown sort key, a bad direction, a bad page or page size are
 * per-field errors.
 */
export function pagingSchema(options: PagingOptions) {
  const key = `${options.sortable.join(",")}|${options.defaultSort.key}|${options.defaultSort.dir}`;
  let schema = pagingSchemas.get(key);
  if (!schema) pagingSchemas.set(key, (schema = buildPagingSchema(options)));
  return schema;
}

function pagingMessage(field: string, raw: Record<string, string | null>, options: PagingOptions): CodedMessage {
  switch (field) {
    case "page":
      return message("errors.validation.page");
    case "per_page":
      return message("errors.validation.per_page", { max: MAX_PER_PAGE });
    case "sort":
      return message("errors.validation.sort", { value: raw.sort?.trim() ?? "", allowed: options.sortable.join(", ") });
    default:
      return message("errors.validation.sort_dir");
  }
}

/** Reads the paging part of a list request; problems go into `errors`. */
export function parsePaging(params: URLSearchParams, options: PagingOptions, errors: FieldProblems): Paging {
  const raw = { page: params.get("page"), per_page: params.get("per_page"), sort: params.get("sort"), sort_dir: params.get("sort_dir") };
  const parsed = pagingSchema(options).safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    errors[field] = [pagingMessage(field, raw, options)];
  }
  return { page: 1, perPage: DEFAULT_PER_PAGE, sort: options.defaultSort.key, sortDir: options.defaultSort.dir };
}

/** The global search: queryValue, query_value or globalFilter, whichever is not blank. */
export function searchValueOf(params: URLSearchParams): string | undefined {
  return ["queryValue", "query_value", "globalFilter"]
    .map((name) => params.get(name))
    .find((value): value is string => value !== null && !isBlank(value))
    ?.trim();
}

export function parseListQuery(params: URLSearchParams, grid: GridDefinition): ListQuery {
  const errors: FieldProblems = {};

  const sortable = grid.columns.filter((column) => column.sortable).map((column) => column.key);
  const { page, perPage, sort, sortDir } = parsePaging(params, { sortable, defaultSort: grid.defaultSort }, errors);
  const queryValue = searchValueOf(params);

  const filters: Record<string, string[]> = {};
  for (const column of grid.columns) {
    if (column.filter === "none") continue;
    const values = valuesOf(params, column.key);
    if (column.filter === "date_range") {
      // Also as two parameters, <key>_from and <key>_to (D266).
      const from = valuesOf(params, `${column.key}_from`)[0] ?? "";
      const to = valuesOf(params, `${column.key}_to`)[0] ?? "";
      if (from || to) values.push(`${from}..${to}`);
    }
    if (values.length === 0) continue;
    for (const value of values) {
      const problem = column.checkFilterValue(value);
      if (problem) (errors[column.key] ??= []).push(problem);
    }
    filters[column.key] = values;
  }

  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { page, perPage, sort, sortDir, queryValue, filters };
}
