// The Advanced Order Summary's query: the page loader and GET /api/advancedordergrid
// both answer here (spec 000 §2, §7). Named filters, a flat answer
// ({ data, current_page, per_page, last_page, total }) and a million rows, so
// the SQL is written by hand (docs/performance.md, docs/decisions.md D18):
// - text filters and the global search are ILIKE '%…%', served by the
//   pg_trgm GIN indexes on order_grid; options and totals by b-trees;
// - sorts walk a (column, id) index: the id breaks ties so pages never overlap;
// - the total is counted exactly up to COUNT_CAP matches, in the same statement
//   as the page (the page is cut from those matches, which also keeps rare
//   filters off a walk through the sort index); above the cap the exact figure
//   comes from a short-lived cache filled in the background (CountCache).
import { z } from "zod";
import pg from "pg";
import { CountCache } from "~/grid/count-cache.server";
import { isBlank, parsePaging, rawValuesOf, searchValueOf, valuesOf, type Paging } from "~/grid/list-query.server";
import { env } from "~/env.server";
import type { CsvCell, CsvDownload } from "~/grid/csv.server";
import { chosenColumnsOf, csvColumns } from "~/grid/grid-csv.server";
import { joined, message, plainText, readerKey, type CodedMessage } from "~/i18n/messages";
import { localDateTime } from "~/lib/app-time";
import { titleCase } from "~/lib/format";
import { ValidationError, type FieldProblems } from "~/lib/validation.server";
import {
  ORDER_COLUMNS,
  ORDER_DEFAULT_SORT,
  ORDER_OPTION_FILTERS,
  ORDER_SORT_KEYS,
  ORDER_TEXT_FILTERS,
  type OrderFilters,
  type OrderGridAnswer,
  type OrderGridRow,
  type OrderOptionFilter,
  type OrderTextFilter,
} from "./order-grid";
import { logger } from "~/observability/logger.server";
import { registerPool } from "~/observability/pools.server";

const log = logger("order-grid");

/** Up to this many matches the total is exact on every request; above it, see CountCache. */
export const COUNT_CAP = 2_000;

/** Longest text filter or search accepted. */
const MAX_TEXT = 200;

/** The columns of the global search (queryValue / globalFilter), each with a trigram index. */
const SEARCH_COLUMNS = [
  "order_id",
  "shopify_order_id",
  "customer_email",
  "concat_bill_to_name",
  "concat_ship_to_name",
  "select_skus",
  "concat_billing_address",
  "concat_shipping_address",
  "marketplace_order_id",
] as const;

/** The row's fields (spec 000 §3): id and every column but the View Order link; the total as text, exact. */
const ROW_COLUMNS = ["id", ...ORDER_COLUMNS.filter((column) => column !== "view_order")].map((column) =>
  column === "grand_total_purchased" ? "grand_total_purchased::text AS grand_total_purchased" : column,
);

export interface OrderGridQuery {
  paging: Paging;
  search?: string;
  filters: OrderFilters;
}

// ---------------------------------------------------------------------------
// Parsing (zod): bad values are a 422 with one message per parameter.

const TEXT_KEYS = Object.keys(ORDER_TEXT_FILTERS) as OrderTextFilter[];
const OPTION_KEYS = Object.keys(ORDER_OPTION_FILTERS) as OrderOptionFilter[];

/** Values of an option filter: repeated, `key[]`, JSON or comma lists. Houser is the empty value of marketplaceSource. */
function optionValuesOf(params: URLSearchParams, key: OrderOptionFilter): string[] {
  const values = rawValuesOf(params, key).flatMap((value) => value.split(","));
  if (key === "marketplaceSource") {
    return values.filter((value) => value !== "null" && value !== "undefined").map((value) => (value.trim().toLowerCase() === "houser" ? "" : value.trim()));
  }
  return values.filter((value) => !isBlank(value)).map((value) => value.trim());
}

const AMOUNT = /^-?\d{1,10}(\.\d+)?$/;

// Built once: a zod schema costs far more to build than to run. Messages are
// written afterwards, in the request's language (filterMessage).
const filterSchema = z
  .object({
    ...Object.fromEntries(TEXT_KEYS.map((key) => [key, z.array(z.string().max(MAX_TEXT)).optional()])),
    ...Object.fromEntries(
      OPTION_KEYS.map((key) => [key, z.array(z.string().refine((value) => (ORDER_OPTION_FILTERS[key] as readonly string[]).includes(value))).optional()]),
    ),
    grandTotalFrom: z.string().regex(AMOUNT).optional(),
    grandTotalTo: z.string().regex(AMOUNT).optional(),
    status: z
      .string()
      .refine((value) => value.toLowerCase() === "any")
      .optional(),
  })
  .refine(
    ({ grandTotalFrom, grandTotalTo }) =>
      grandTotalFrom === undefined ||
      grandTotalTo === undefined ||
      !AMOUNT.test(grandTotalFrom) ||
      !AMOUNT.test(grandTotalTo) ||
      Number(grandTotalFrom) <= Number(grandTotalTo),
    { path: ["grandTotalTo"], message: "range" },
  );

function filterMessage(path: PropertyKey[], raw: Record<string, unknown>, issue: string): CodedMessage {
  const field = String(path[0]);
  const value = path.length > 1 ? (raw[field] as string[])[Number(path[1])] : raw[field];
  if (field === "status") return message("orders.errors.status");
  if (field === "grandTotalTo" && issue === "range") return message("orders.errors.total_range");
  if (field === "grandTotalFrom" || field === "grandTotalTo") return message("errors.validation.number", { value: String(value) });
  if ((OPTION_KEYS as string[]).includes(field)) {
    const allowed = ORDER_OPTION_FILTERS[field as OrderOptionFilter].map((option) => (option === "" ? message("orders.options.houser") : plainText(option)));
    return message("errors.validation.option", { value: String(value), allowed: joined(allowed, ", ") });
  }
  return message("orders.errors.too_long", { max: MAX_TEXT });
}

function single(params: URLSearchParams, key: string): string | undefined {
  const value = params.get(key);
  return value === null || isBlank(value) ? undefined : value.trim();
}

export function parseOrderGridQuery(params: URLSearchParams): OrderGridQuery {
  const errors: FieldProblems = {};
  const paging = parsePaging(params, { sortable: ORDER_SORT_KEYS, defaultSort: ORDER_DEFAULT_SORT }, errors);
  const search = searchValueOf(params);
  if (search && search.length > MAX_TEXT) errors.queryValue = [message("orders.errors.too_long", { max: MAX_TEXT })];

  const raw: Record<string, unknown> = {
    grandTotalFrom: single(params, "grandTotalFrom"),
    grandTotalTo: single(params, "grandTotalTo"),
    status: single(params, "status"),
  };
  for (const key of TEXT_KEYS) {
    const values = valuesOf(params, key);
    if (values.length) raw[key] = values;
  }
  for (const key of OPTION_KEYS) {
    const values = optionValuesOf(params, key);
    if (values.length) raw[key] = [...new Set(values)];
  }
  const parsed = filterSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "_");
      const problem = filterMessage(issue.path, raw, issue.message);
      if (!errors[field]?.some((known) => JSON.stringify(known) === JSON.stringify(problem))) (errors[field] ??= []).push(problem);
    }
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const filters: OrderFilters = {};
  for (const [key, value] of Object.entries(parsed.data!)) {
    if (key === "status" || value === undefined) continue;
    filters[key as keyof OrderFilters] = Array.isArray(value) ? value : [value as string];
  }
  return { paging, search, filters };
}

// ---------------------------------------------------------------------------
// SQL

export interface Statement {
  sql: string;
  params: unknown[];
}

export interface OrderGridSql {
  /** The matches up to COUNT_CAP + 1: their number, and the page cut from them (right when they are within the cap). */
  bounded: Statement;
  /** Every match's key, and the page cut from them: for a known total too small to find by walking the sort index. */
  collect: Statement;
  /** The page alone, walking the sort index. */
  walk: Statement;
  /** The exact total (background). */
  count: Statement;
  /** What the total depends on: the WHERE clause and its values. */
  countKey: string;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * The part of a long text value the trigram index looks for: its longest run
 * of digits. Ids, e-mail addresses and SKUs share most of their trigrams with
 * every other row ("cus", "@ex", "com", "sku", "000"…); reading those posting
 * lists costs 40–90 ms on a million rows, the digits' about 1 ms. The whole
 * value is then checked on the rows found.
 */
export function probeFor(value: string): string {
  const runs = value.length > 6 ? value.match(/\d{3,}/g) : null;
  if (!runs) return value;
  return runs.reduce((longest, run) => (run.length > longest.length ? run : longest));
}

/**
 * "Contains, any case" for `value` in `column`, the value's own %, _ and \
 * taken literally, in a form the trigram index serves:
 * - three characters or more: ILIKE '%value%' (or the probe, then the value: probeFor);
 * - shorter terms hold no whole trigram, so "contains" would read every row;
 *   they match at the start of the value or of a word in it (D18).
 */
export function textMatch(column: string, value: string, param: (value: unknown) => string): string {
  if ([...value].length < 3) {
    const escaped = escapeLike(value);
    return `(${column} ILIKE ${param(`${escaped}%`)} OR ${column} ILIKE ${param(`% ${escaped}%`)})`;
  }
  const probe = probeFor(value);
  const found = `${column} ILIKE ${param(`%${escapeLike(probe)}%`)}`;
  return probe === value ? found : `(${found} AND strpos(lower(${column}), lower(${param(value)})) > 0)`;
}

function whereFor(query: OrderGridQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  // Equal values share one parameter (the global search uses its patterns in every column).
  const numbered = new Map<string, string>();
  const param = (value: unknown) => {
    const key = JSON.stringify(value);
    const known = numbered.get(key);
    if (known) return known;
    params.push(value);
    numbered.set(key, `$${params.length}`);
    return `$${params.length}`;
  };
  const and: string[] = [];
  const { filters } = query;

  for (const key of TEXT_KEYS) {
    const values = filters[key];
    if (!values?.length) continue;
    const column = ORDER_TEXT_FILTERS[key];
    const any = values.map((value) => textMatch(column, value, param));
    and.push(any.length === 1 ? any[0] : `(${any.join(" OR ")})`);
  }
  const equalsAny = (column: string, values: string[], cast: string) =>
    values.length === 1 ? `${column} = ${param(values[0])}::${cast}` : `${column} = ANY(${param(values)}::${cast}[])`;
  if (filters.magentoOrderStatus?.length) and.push(equalsAny("magento_status", filters.magentoOrderStatus, "text"));
  if (filters.referSourceName?.length) and.push(equalsAny("refer_source_name", filters.referSourceName, "text"));
  if (filters.giftCardUsed?.length) and.push(equalsAny("gift_card_used", filters.giftCardUsed, "int"));
  if (filters.marketplaceSource?.length) {
    const named = filters.marketplaceSource.filter((value) => value !== "");
    const any: string[] = [];
    // Houser: stored with no marketplace source.
    if (named.length < filters.marketplaceSource.length) any.push("marketplace_source IS NULL", "marketplace_source = ''");
    if (named.length) any.push(equalsAny("marketplace_source", named, "text"));
    and.push(any.length === 1 ? any[0] : `(${any.join(" OR ")})`);
  }
  if (filters.grandTotalFrom?.length) and.push(`grand_total_purchased >= ${param(filters.grandTotalFrom[0])}::numeric`);
  if (filters.grandTotalTo?.length) and.push(`grand_total_purchased <= ${param(filters.grandTotalTo[0])}::numeric`);
  if (query.search) and.push(`(${SEARCH_COLUMNS.map((column) => textMatch(column, query.search!, param)).join(" OR ")})`);
  return { sql: and.length ? `WHERE ${and.join(" AND ")}` : "", params };
}

export function buildOrderGridSql(query: OrderGridQuery): OrderGridSql {
  const where = whereFor(query);
  const { page, perPage, sort, sortDir } = query.paging;
  // Only known keys reach here (parsePaging), so the names are safe to splice in.
  const dir = sortDir === "asc" ? "ASC" : "DESC";
  const n = where.params.length;
  const limit = `$${n + 1}`;
  const offset = `$${n + 2}`;
  const pageParams = [...where.params, perPage, (page - 1) * perPage];
  const columns = ROW_COLUMNS.map((column) => `o.${column}`).join(", ");
  // The page cut from a materialised set of matches, with their number (one row with a null id when the page is empty).
  const cutFrom = (matches: string) => ({
    sql: `WITH matches AS MATERIALIZED (${matches}),
  page AS (SELECT id, k FROM matches ORDER BY k ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset})
SELECT t.total, ${columns}
  FROM page p JOIN order_grid o ON o.id = p.id
  RIGHT JOIN (SELECT count(*)::int AS total FROM matches) t ON true
 ORDER BY p.k ${dir}, p.id ${dir}`,
    params: pageParams,
  });
  return {
    bounded: cutFrom(`SELECT id, ${sort} AS k FROM order_grid ${where.sql} LIMIT ${COUNT_CAP + 1}`),
    collect: cutFrom(`SELECT id, ${sort} AS k FROM order_grid ${where.sql}`),
    // The page's keys first (an index-only walk on (sort, id) when unfiltered), then its rows: deep pages stay cheap.
    walk: {
      sql: `SELECT ${columns}
  FROM (SELECT id, ${sort} AS k FROM order_grid ${where.sql} ORDER BY ${sort} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}) p
  JOIN order_grid o ON o.id = p.id
 ORDER BY p.k ${dir}, p.id ${dir}`,
      params: pageParams,
    },
    count: { sql: `SELECT count(*)::int AS total FROM order_grid ${where.sql}`, params: where.params },
    countKey: `${where.sql}\u0000${JSON.stringify(where.params)}`,
  };
}

// ---------------------------------------------------------------------------
// Running it

/**
 * The grid reads through a pg pool of its own: a Prisma raw query costs about
 * 2.5 ms of CPU more than the same SQL through pg (the rows are small but
 * many columns), more than the query itself for most pages (D18).
 */
declare global {
  var __orderGridPool: pg.Pool | undefined;
}

function pool(): pg.Pool {
  if (!globalThis.__orderGridPool) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set: start the app with `npm start`, which provides one.");
    const created = new pg.Pool({ connectionString: url, max: 5, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
    // An idle connection the server closes (a restart, shutdown) must not take the process down.
    created.on("error", (error) => log.error(`idle database connection failed: ${error.message}`));
    globalThis.__orderGridPool = created;
    registerPool("order_grid", created);
  }
  return globalThis.__orderGridPool;
}

const run = async <T>(statement: Statement): Promise<T[]> => (await pool().query(statement.sql, statement.params)).rows as T[];

/** Exact totals above the cap: kept 60 s at most, recounted in the background after 20 s. */
export const orderCounts = new CountCache({ ttlMs: 60_000, refreshAfterMs: 20_000, maxEntries: 500, maxRunning: 2 });

/** Rows in the table (the planner's figure, re-read every minute): how far a walk of the sort index goes. */
let tableRows: { rows: number; at: number } | null = null;
async function tableSize(): Promise<number> {
  if (tableRows && Date.now() - tableRows.at < 60_000) return tableRows.rows;
  const [row] = await run<{ rows: number }>({
    sql: "SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'order_grid'::regclass",
    params: [],
  });
  tableRows = { rows: Number(row?.rows ?? 0), at: Date.now() };
  return tableRows.rows;
}

type DbRow = Omit<OrderGridRow, "created_at" | "updated_at" | "shopify_updated_at"> & {
  created_at: Date;
  updated_at: Date;
  shopify_updated_at: Date | null;
};
type CutRow = (DbRow & { total: number }) | { total: number; id: null };

const iso = (value: Date | string | null) => (value instanceof Date ? value.toISOString() : value);

function rowOut(row: DbRow): OrderGridRow {
  return { ...row, created_at: iso(row.created_at)!, updated_at: iso(row.updated_at)!, shopify_updated_at: iso(row.shopify_updated_at) };
}

function answer(query: OrderGridQuery, rows: DbRow[], total: number, exact: boolean): OrderGridAnswer {
  const { page, perPage } = query.paging;
  return {
    data: rows.map(rowOut),
    current_page: page,
    per_page: perPage,
    last_page: Math.max(1, Math.ceil(total / perPage)),
    total,
    total_exact: exact,
  };
}

const pageOf = (rows: CutRow[]) => rows.filter((row): row is DbRow & { total: number } => row.id !== null).map(({ total: _total, ...row }) => row);

/**
 * Which statement reads a page: with no total known, `bounded`; with a known
 * total (above the cap), a walk of the sort index, unless the matches are so
 * few that collecting them all is cheaper than walking to this page.
 */
export function readFor(query: OrderGridQuery, knownTotal: number | null, tableRows: number): "bounded" | "walk" | "collect" {
  if (knownTotal === null) return "bounded";
  const { page, perPage } = query.paging;
  const walked = (page * perPage * tableRows) / Math.max(knownTotal, 1);
  return walked <= knownTotal ? "walk" : "collect";
}

export async function queryOrderGrid(query: OrderGridQuery): Promise<OrderGridAnswer> {
  const sql = buildOrderGridSql(query);
  const countExactly = async () => (await run<{ total: number }>(sql.count))[0].total;

  const cached = orderCounts.lookup(sql.countKey, countExactly);
  if (cached !== null) {
    if (readFor(query, cached, await tableSize()) === "walk") return answer(query, await run<DbRow>(sql.walk), cached, true);
    const rows = await run<CutRow>(sql.collect);
    return answer(query, pageOf(rows), rows[0]?.total ?? 0, true);
  }

  const bounded = await run<CutRow>(sql.bounded);
  const total = bounded[0]?.total ?? 0;
  if (total <= COUNT_CAP) return answer(query, pageOf(bounded), total, true);
  // More than the cap: the page walks the sort index, and the exact total is counted meanwhile.
  orderCounts.refresh(sql.countKey, countExactly);
  return answer(query, await run<DbRow>(sql.walk), COUNT_CAP, false);
}

/** GET /api/advancedordergrid and the page loader. */
export function listOrderGrid(params: URLSearchParams): Promise<OrderGridAnswer> {
  return queryOrderGrid(parseOrderGridQuery(params));
}

// ---------------------------------------------------------------------------
// The CSV of what the grid shows (format=csv, D265)

/** Rows read per statement of the CSV. */
export const ORDER_CSV_CHUNK_ROWS = 1000;

const ORDER_DATETIME_COLUMNS = new Set<string>(["created_at", "updated_at", "shopify_updated_at"]);
const ORDER_TITLED_COLUMNS = new Set<string>(["magento_status", "fulfillment_status", "financial_status", "marketplace_source", "refer_source_name"]);

function orderCsvCell(column: string, value: unknown, timeZone: string): CsvCell {
  if (column === "gift_card_used") return readerKey(value === 1 ? "grid.yes" : "grid.no");
  if (value === null || value === undefined) return "";
  if (ORDER_DATETIME_COLUMNS.has(column)) return localDateTime(value instanceof Date ? value : new Date(String(value)), timeZone);
  if (ORDER_TITLED_COLUMNS.has(column)) return String(value).trim() ? titleCase(String(value)) : "";
  return String(value);
}

/**
 * The CSV of every order the filters, search and sort select, read a chunk at a time after the last
 * one's (sort, id): the (column, id) index walks on, memory stays bounded at a million rows. A sort
 * column's nulls (PostgreSQL puts them first descending, last ascending) are read in a pass of their own.
 */
export function orderGridCsv(params: URLSearchParams, now = new Date()): CsvDownload {
  const query = parseOrderGridQuery(params);
  const columns = csvColumns(
    ORDER_COLUMNS.map((key) => ({ key, dataType: key === "view_order" ? "links" : "text" })),
    chosenColumnsOf(params),
  ).map((column) => column.key);
  const where = whereFor(query);
  const { sort, sortDir } = query.paging;
  const dir = sortDir === "asc" ? "ASC" : "DESC";
  const beyond = sortDir === "asc" ? ">" : "<";
  const timeZone = env().APP_TIMEZONE;
  const rowColumns = ROW_COLUMNS.join(", ");
  const filter = where.sql ? `(${where.sql.slice("WHERE ".length)})` : "TRUE";
  const n = where.params.length;

  async function* pass(nulls: boolean): AsyncGenerator<CsvCell[][]> {
    let last: { k: unknown; id: number } | null = null;
    for (;;) {
      const after: string = last === null ? "" : nulls ? ` AND id ${beyond} $${n + 1}` : ` AND (${sort}, id) ${beyond} ($${n + 1}, $${n + 2})`;
      const values: unknown[] = last === null ? where.params : nulls ? [...where.params, last.id] : [...where.params, last.k, last.id];
      const sql: string = `SELECT ${sort} AS csv_k, ${rowColumns} FROM order_grid
 WHERE ${filter} AND ${sort} IS ${nulls ? "" : "NOT "}NULL${after}
 ORDER BY ${nulls ? "" : `${sort} ${dir}, `}id ${dir} LIMIT ${ORDER_CSV_CHUNK_ROWS}`;
      const rows: Array<Record<string, unknown> & { csv_k: unknown; id: number }> = await run({ sql, params: values });
      if (rows.length) {
        const tail: { csv_k: unknown; id: number } = rows[rows.length - 1];
        last = { k: tail.csv_k, id: tail.id };
        yield rows.map((row) => columns.map((column) => orderCsvCell(column, row[column], timeZone)));
      }
      if (rows.length < ORDER_CSV_CHUNK_ROWS) return;
    }
  }

  async function* chunks(): AsyncGenerator<CsvCell[][]> {
    try {
      if (sortDir === "desc") yield* pass(true);
      yield* pass(false);
      if (sortDir === "asc") yield* pass(true);
    } catch (error) {
      log.error({ err: error }, "order grid CSV failed mid-stream");
      throw error;
    }
  }

  const stamp = localDateTime(now, timeZone).replace(/[-: ]/g, "");
  return {
    filename: `orders_${stamp.slice(0, 8)}_${stamp.slice(8, 12)}.csv`,
    header: columns.map((column) => readerKey(`orders.columns.${column}`)),
    chunks: chunks(),
  };
}
