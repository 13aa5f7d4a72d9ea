// One server-defined grid per resource: its columns (what the browser shows and
// may filter or sort) and where its rows come from. `runGrid` answers a list
// request for any of them; each area declares its grids in one file
// (e.g. app/dropship/grids.server.ts). The answer's words (column titles,
// option and link labels, stored row messages) are ReaderTexts, rendered in
// the reader's language at the edge (`renderForReader`, D136).
import { message, readerKey, storedForReader, type CodedMessage, type ReaderText } from "~/i18n/messages";
import { env } from "~/env.server";
import { dayStartIn, shiftDay } from "~/lib/app-time";
import { pathFields } from "./cell-link";
import { parseListQuery, type ListQuery } from "./list-query.server";
import { rowLinkFields, type RowLink } from "./row-link";
import type { GridAnswer, GridColumn, GridDataType, GridFilterKind, GridLink, GridRow, SortDir, StatusTone } from "./types";

export interface ColumnSpec {
  key: string;
  /** Translation key of the heading. */
  label: string;
  dataType: GridDataType;
  /** Database field; defaults to `key`. `null` for a computed value (no sort, filter or search). */
  field?: string | null;
  /** Defaults: text columns filter by text, select columns by option, others not at all. */
  filter?: GridFilterKind;
  valueType?: "string" | "int";
  /** Value → translation key of its label. */
  options?: Record<string, string>;
  /** A status column: value → its Badge's tone (null: a Badge without tone). */
  tones?: Record<string, StatusTone | null>;
  sortable?: boolean;
  /** Part of the global search (queryValue); defaults to true for text columns. */
  searchable?: boolean;
  links?: GridLink[];
  /** The value opens this path, filled from the row: "/order/{order_increment_id}" (cell-link.ts). */
  cellLink?: string;
  /**
   * A jsonb field holding this column's message as {code, params} (D114): shown
   * in the reader's language when set, else the text of `field`. Filters and
   * search still match `field`, the English text.
   */
  codeField?: string;
  /** A filter of the column's own: the where of the values chosen (an age given as "older than"), instead of matching them. */
  filterWhere?: (values: string[]) => Where;
  /**
   * A date_range filter's column: "datetime" (an instant; days are the app's time zone's, D266) or
   * "date" (a calendar day stored as its midnight in UTC). Defaults to the column's dataType.
   */
  dateKind?: "date" | "datetime";
}

export interface ResolvedColumn {
  key: string;
  label: string;
  dataType: GridDataType;
  field: string | null;
  filter: GridFilterKind;
  valueType: "string" | "int";
  options?: Record<string, string>;
  tones?: Record<string, StatusTone | null>;
  sortable: boolean;
  searchable: boolean;
  links?: GridLink[];
  cellLink?: string;
  codeField?: string;
  filterWhere?: (values: string[]) => Where;
  dateKind: "date" | "datetime";
  /** A message when `value` cannot filter this column. */
  checkFilterValue(value: string): CodedMessage | null;
}

type Where = Record<string, unknown>;

/** The part of a Prisma model delegate a grid needs. */
export interface GridSource {
  findMany(args: { where: Where; orderBy?: Where[]; skip?: number; take?: number; cursor?: Where; select: Record<string, true> }): Promise<GridRow[]>;
  count(args: { where: Where }): Promise<number>;
}

/**
 * What gridSourceFrom reads of a Prisma model delegate: any model's findMany
 * and count. The arguments are `never` on purpose: a grid builds its where,
 * orderBy and select from column names at run time, which Prisma's per-model
 * types cannot check (defineGrid checks the default sort against the columns).
 */
interface ModelDelegate {
  findMany(args: never): PromiseLike<object[]>;
  count(args: never): PromiseLike<number>;
}

/** The grid source of a Prisma model: `source: () => gridSourceFrom(prisma.vendor)`. */
export function gridSourceFrom(model: ModelDelegate): GridSource {
  return {
    findMany: async (args) => (await model.findMany(args as never)) as GridRow[],
    count: async (args) => model.count(args as never),
  };
}

/**
 * Up to this many matches, a filtered page is read in two steps: the keys of
 * all matches (PostgreSQL combines the filter's indexes), then the page among
 * them. In one step, `ORDER BY … LIMIT 20` tempts the planner to walk the sort
 * index through the whole table looking for rare matches (1.3 s instead of
 * 0.1 s on a million rows: docs/performance.md).
 */
export const SELECTIVE_FILTER_ROWS = 5000;

export interface GridDefinition {
  /** Also its /api twin's path: /api/<id> (gridScreenData). */
  id: string;
  rowKey: string;
  defaultSort: { key: string; dir: SortDir };
  columns: ResolvedColumn[];
  source: () => GridSource;
  /** Conditions every row of this grid meets (e.g. not archived). */
  baseWhere?: Where;
  /** See SELECTIVE_FILTER_ROWS. */
  selectiveFilterRows?: number;
  /** Each row's own page, opened by a click on the row (./row-link.ts, D273); its {keys} are column keys, the row key or link fields. */
  rowLink?: RowLink;
}

const isInt = (value: string) => /^-?\d{1,15}$/.test(value);

/** A date range filter's value: "from..to", either side may be empty (D266). */
export const DATE_RANGE_SEPARATOR = "..";

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/** The days of a date range value ("2026-11-01..2026-11-29", "2026-11-01..", "..2026-11-29"; one day alone is that day). */
export function dateRangeOf(value: string): { from?: string; to?: string } {
  if (!value.includes(DATE_RANGE_SEPARATOR)) return { from: value.trim(), to: value.trim() };
  const [from, to] = value.split(DATE_RANGE_SEPARATOR, 2).map((part) => part.trim());
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

function checkDateRange(value: string): CodedMessage | null {
  const { from, to } = dateRangeOf(value);
  for (const day of [from, to]) if (day !== undefined && !isDay(day)) return message("grid.errors.date", { value: day });
  if (from && to && from > to) return message("grid.errors.date_order", { from, to });
  return null;
}

/** The where of a date range on `field`: days in the app's time zone for instants, to inclusive. */
export function dateRangeWhere(field: string, kind: "date" | "datetime", value: string, timeZone: string): Where {
  const { from, to } = dateRangeOf(value);
  const bound: Record<string, Date> = {};
  if (kind === "date") {
    if (from) bound.gte = new Date(`${from}T00:00:00.000Z`);
    if (to) bound.lte = new Date(`${to}T00:00:00.000Z`);
  } else {
    if (from) bound.gte = dayStartIn(from, timeZone);
    if (to) bound.lt = dayStartIn(shiftDay(to, 1), timeZone);
  }
  return { [field]: bound };
}

/** The app's time zone, read when a date filter needs it. */
const appTimeZone = () => env().APP_TIMEZONE;

function resolveColumn(spec: ColumnSpec): ResolvedColumn {
  const field = spec.field === undefined ? spec.key : spec.field;
  const valueType = spec.valueType ?? "string";
  const defaultFilter: GridFilterKind = spec.dataType === "select" ? "select" : spec.dataType === "text" ? "text" : "none";
  const filter = field === null ? "none" : (spec.filter ?? defaultFilter);
  return {
    key: spec.key,
    label: spec.label,
    dataType: spec.dataType,
    field,
    filter,
    valueType,
    options: spec.options,
    tones: spec.tones,
    sortable: field !== null && (spec.sortable ?? true),
    searchable: field !== null && (spec.searchable ?? (spec.dataType === "text" && filter === "text")),
    links: spec.links,
    cellLink: spec.cellLink,
    codeField: spec.codeField,
    filterWhere: spec.filterWhere,
    dateKind: spec.dateKind ?? (spec.dataType === "datetime" ? "datetime" : "date"),
    checkFilterValue(value) {
      if (filter === "date_range") return checkDateRange(value);
      if (filter === "select" && spec.options && !(value in spec.options)) {
        return message("errors.validation.option", { value, allowed: Object.keys(spec.options).join(", ") });
      }
      if (valueType === "int" && !isInt(value)) return message("errors.validation.number", { value });
      return null;
    },
  };
}

/** Options of a select column: each value labelled by the translation key `<prefix>.<value>`. */
export const optionsFrom = (values: readonly string[], prefix: string) => Object.fromEntries(values.map((value) => [value, `${prefix}.${value}`]));

/** A grid as an area declares it: its columns as specs, resolved by defineGrid. */
type GridSpec = Omit<GridDefinition, "columns" | "selectiveFilterRows"> & { columns: ColumnSpec[] };

export function defineGrid(definition: GridSpec): GridDefinition {
  const columns = definition.columns.map(resolveColumn);
  const sortColumn = columns.find((column) => column.key === definition.defaultSort.key);
  if (!sortColumn?.sortable) throw new Error(`Grid ${definition.id}: default sort ${definition.defaultSort.key} is not sortable`);
  if (definition.rowLink) {
    const known = new Set([
      definition.rowKey,
      ...columns.map((column) => column.key),
      ...columns.flatMap((column) => (column.links ?? []).map((link) => link.field)),
    ]);
    const unknown = rowLinkFields(definition.rowLink).filter((field) => !known.has(field));
    if (unknown.length) throw new Error(`Grid ${definition.id}: its row link reads ${unknown.join(", ")}, which its rows do not carry`);
  }
  return { ...definition, columns };
}

function coerce(column: ResolvedColumn, value: string): string | number {
  return column.valueType === "int" ? Number(value) : value;
}

export function buildWhere(grid: GridDefinition, query: ListQuery): Where {
  const and: Where[] = grid.baseWhere ? [grid.baseWhere] : [];
  for (const column of grid.columns) {
    const values = query.filters[column.key];
    if (!values?.length || !column.field) continue;
    if (column.filterWhere) {
      and.push(column.filterWhere(values));
    } else if (column.filter === "date_range") {
      for (const value of values) and.push(dateRangeWhere(column.field, column.dateKind, value, appTimeZone()));
    } else if (column.filter === "select" || column.valueType === "int") {
      and.push({ [column.field]: { in: values.map((value) => coerce(column, value)) } });
    } else {
      and.push({ OR: values.map((value) => ({ [column.field!]: { contains: value, mode: "insensitive" } })) });
    }
  }
  if (query.queryValue) {
    const search = query.queryValue;
    const anyOf: Where[] = [];
    for (const column of grid.columns) {
      if (!column.searchable || !column.field) continue;
      if (column.valueType === "int") {
        if (isInt(search)) anyOf.push({ [column.field]: Number(search) });
      } else {
        anyOf.push({ [column.field]: { contains: search, mode: "insensitive" } });
      }
    }
    // A search no column can match finds nothing rather than everything.
    and.push(anyOf.length ? { OR: anyOf } : { [grid.rowKey]: { in: [] } });
  }
  return and.length ? { AND: and } : {};
}

/** A grid's answer before it meets its reader: its words are ReaderTexts (D136). */
export type CodedGridAnswer = GridAnswer<GridRow, ReaderText>;

export function columnsFor(grid: GridDefinition): Array<GridColumn<ReaderText>> {
  return grid.columns.map((column) => ({
    key: column.key,
    label: readerKey(column.label),
    dataType: column.dataType,
    filter: column.filter,
    sortable: column.sortable,
    ...(column.options ? { options: Object.fromEntries(Object.entries(column.options).map(([value, label]) => [value, readerKey(label)])) } : {}),
    ...(column.tones ? { tones: column.tones } : {}),
    ...(column.links ? { settings: { links: column.links.map((link) => ({ ...link, label: readerKey(link.label) })) } } : {}),
    ...(column.cellLink ? { cellLink: column.cellLink } : {}),
  }));
}

/** Answers a list request (page, sort, sort_dir, filters, queryValue) for `grid`. */
export async function runGrid(grid: GridDefinition, params: URLSearchParams): Promise<CodedGridAnswer> {
  const query = parseListQuery(params, grid);
  return queryGrid(grid, query);
}

/** The order of a list query: its sort, the row key breaking ties so that pages never overlap or skip rows. */
export function orderFor(grid: GridDefinition, query: Pick<ListQuery, "sort" | "sortDir">): { sortField: string; orderBy: Where[] } {
  const sortField = grid.columns.find((column) => column.key === query.sort)!.field!;
  const orderBy = sortField === grid.rowKey ? [{ [sortField]: query.sortDir }] : [{ [sortField]: query.sortDir }, { [grid.rowKey]: query.sortDir }];
  return { sortField, orderBy };
}

/** What a grid reads of each row: its key, its columns' fields, their codes and their links' fields. */
export function selectFor(grid: GridDefinition): Record<string, true> {
  const select: Record<string, true> = { [grid.rowKey]: true };
  for (const column of grid.columns) if (column.field) select[column.field] = true;
  for (const column of grid.columns) if (column.codeField) select[column.codeField] = true;
  for (const column of grid.columns)
    for (const link of column.links ?? []) {
      select[link.field] = true;
      if (link.condition) select[link.condition.field] = true;
      for (const field of pathFields(link.path)) select[field] = true;
    }
  for (const column of grid.columns) for (const field of pathFields(column.cellLink ?? "")) select[field] = true;
  return select;
}

export async function queryGrid(grid: GridDefinition, query: ListQuery): Promise<CodedGridAnswer> {
  const where = buildWhere(grid, query);
  const { orderBy } = orderFor(grid, query);
  const select = selectFor(grid);

  const source = grid.source();
  const page = { orderBy, skip: (query.page - 1) * query.perPage, take: query.perPage, select };
  let total: number;
  let rows: GridRow[];
  if (Object.keys(where).length === 0) {
    [total, rows] = await Promise.all([source.count({ where }), source.findMany({ where, ...page })]);
  } else {
    total = await source.count({ where });
    if (total === 0) {
      rows = [];
    } else if (total <= (grid.selectiveFilterRows ?? SELECTIVE_FILTER_ROWS)) {
      const keys = await source.findMany({ where, select: { [grid.rowKey]: true } });
      rows = await source.findMany({ where: { [grid.rowKey]: { in: keys.map((key) => key[grid.rowKey]) } }, ...page });
    } else {
      rows = await source.findMany({ where, ...page });
    }
  }
  return {
    data: {
      data: rows.map((row) => rowFor(grid, row)),
      current_page: query.page,
      per_page: query.perPage,
      last_page: Math.max(1, Math.ceil(total / query.perPage)),
      total,
    },
    columns: columnsFor(grid),
  };
}

// Answer rows carry column keys, whatever the database calls the field.
// A stored message is the reader's to render (its code when it has one), and its code left out.
export function rowFor(grid: GridDefinition, row: GridRow): GridRow {
  const out: GridRow = { ...row };
  for (const column of grid.columns) {
    if (column.field && column.field !== column.key) {
      out[column.key] = row[column.field];
    }
    if (column.codeField && column.field) {
      out[column.key] = storedForReader(row[column.codeField], row[column.field] as string | null);
      if (column.codeField !== column.key) delete out[column.codeField];
    }
  }
  return out;
}
