// `format=csv` on a grid's /api twin (D265): the rows its filters, search and
// sort select, every page, as the CSV of app/grid/csv.server.ts. Read 1,000 at
// a time, each chunk after the last one's row (Prisma's cursor on the row key,
// the sort's value taken from that row), so memory stays bounded at a million
// rows. Headings and option labels are the reader's words, datetimes in the
// app's time zone; link-only columns are left out; `columns=a,b` keeps those
// columns only (the staff member's column chooser).
import { env } from "~/env.server";
import { message, readerKey, ReaderJson, ReaderText } from "~/i18n/messages";
import { localDateTime } from "~/lib/app-time";
import { ValidationError } from "~/lib/validation.server";
import { logger } from "~/observability/logger.server";
import type { CsvCell, CsvDownload } from "./csv.server";
import { buildWhere, orderFor, rowFor, selectFor, type GridDefinition, type ResolvedColumn } from "./grid.server";
import { parseListQuery } from "./list-query.server";
import type { GridRow } from "./types";

const log = logger("grid-csv");

export const CSV_CHUNK_ROWS = 1000;

/** Asks for the CSV rather than the JSON page. */
export const wantsCsv = (params: URLSearchParams) => params.get("format")?.trim().toLowerCase() === "csv";

/** The keys of `columns=a,b` (repeated or comma-separated); null when not asked. */
export function chosenColumnsOf(params: URLSearchParams): string[] | null {
  const raw = params.getAll("columns").flatMap((value) => value.split(","));
  const keys = raw.map((value) => value.trim()).filter(Boolean);
  return keys.length ? keys : null;
}

/** The columns a CSV carries: not link-only ones, and of `chosen` only those (an unknown key is a 422). */
export function csvColumns<C extends { key: string; dataType: string }>(columns: readonly C[], chosen: string[] | null): C[] {
  const exportable = columns.filter((column) => column.dataType !== "links");
  if (!chosen) return exportable;
  const unknown = chosen.filter((key) => !exportable.some((column) => column.key === key));
  if (unknown.length)
    throw new ValidationError({
      columns: unknown.map((value) => message("errors.validation.option", { value, allowed: exportable.map((column) => column.key).join(", ") })),
    });
  return exportable.filter((column) => chosen.includes(column.key));
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A value as a CSV cell: dates in the app's time zone, options by their label, amounts as decimals, JSON as text. */
export function csvValue(column: Pick<ResolvedColumn, "dataType" | "options">, value: unknown, timeZone: string): CsvCell {
  if (value === null || value === undefined) return "";
  if (value instanceof ReaderText || value instanceof ReaderJson) return value as unknown as CsvCell;
  if (value instanceof Date) return column.dataType === "datetime" ? localDateTime(value, timeZone) : value.toISOString().slice(0, 10);
  if (column.dataType === "datetime" && typeof value === "string" && ISO_INSTANT.test(value)) return localDateTime(new Date(value), timeZone);
  if (column.options && String(value) in column.options) return readerKey(column.options[String(value)]);
  if (typeof value === "object" && "toFixed" in value) return (value as { toFixed(digits: number): string }).toFixed(2);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function stamp(now: Date, timeZone: string): string {
  const local = localDateTime(now, timeZone).replace(/[-: ]/g, "");
  return `${local.slice(0, 8)}_${local.slice(8, 12)}`;
}

export interface GridCsvOptions {
  /** Rows as the screen shows them, after the grid's own reading (a feed log's meta as text, say). */
  shape?: (rows: GridRow[]) => GridRow[] | Promise<GridRow[]>;
  now?: Date;
}

/** The CSV download of a list request for `grid` (its page and per_page are ignored: every matching row goes). */
export function gridCsv(grid: GridDefinition, params: URLSearchParams, options: GridCsvOptions = {}): CsvDownload {
  // Validated before the answer starts: bad filters are a 422, not half a file.
  const query = parseListQuery(params, grid);
  const columns = csvColumns(grid.columns, chosenColumnsOf(params));
  const where = buildWhere(grid, query);
  const { sortField, orderBy } = orderFor(grid, query);
  const select = selectFor(grid);
  const timeZone = env().APP_TIMEZONE;

  async function* chunks(): AsyncGenerator<CsvCell[][]> {
    const source = grid.source();
    let sent = 0;
    let cursor: unknown = null;
    let checkedTotal = false;
    try {
      for (;;) {
        // After a row whose sort value is known, Prisma's cursor reads on from it through the sort's index.
        // A null sort value cannot be compared: after one, and for nulls the cursor passed by (they sort
        // last ascending), the rows so far are skipped instead.
        const after = cursor !== null ? { cursor: { [grid.rowKey]: cursor }, skip: 1 } : sent > 0 ? { skip: sent } : {};
        const rows = await source.findMany({ where, orderBy, take: CSV_CHUNK_ROWS, select, ...after });
        if (rows.length) {
          const last = rows[rows.length - 1];
          cursor = last[sortField] === null || last[sortField] === undefined ? null : last[grid.rowKey];
          sent += rows.length;
          const shown = await (options.shape ?? ((same: GridRow[]) => same))(rows.map((row) => rowFor(grid, row)));
          yield shown.map((row) => columns.map((column) => csvValue(column, row[column.key], timeZone)));
        }
        if (rows.length < CSV_CHUNK_ROWS) {
          if (cursor === null || sortField === grid.rowKey || checkedTotal) return;
          // The cursor's end: rows with a null sort value may follow it.
          checkedTotal = true;
          if ((await source.count({ where })) <= sent) return;
          cursor = null;
        }
      }
    } catch (error) {
      log.error({ err: error }, `CSV of ${grid.id} failed mid-stream`);
      throw error;
    }
  }

  return {
    filename: `${grid.id}_${stamp(options.now ?? new Date(), timeZone)}.csv`,
    header: columns.map((column) => readerKey(column.label)),
    chunks: chunks(),
  };
}
