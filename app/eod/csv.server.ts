// GET /api/eod_report_export_csv (spec 001 §2 "Export CSV"): the report rows
// the grid's filters and sort select, every page, as a CSV download. Streamed:
// rows are read 1,000 at a time (keyset on the sort and the id) while the
// answer is being sent. Made for spreadsheets (D33): UTF-8 with a byte-order
// mark (Excel reads the de/fr headings right), CRLF lines, RFC 4180 quoting,
// and a text value that a spreadsheet could take for a formula is neutralised.
import prisma from "~/db.server";
import { env } from "~/env.server";
import { buildWhere } from "~/grid/grid.server";
import { parseListQuery } from "~/grid/list-query.server";
import type { Translate } from "~/i18n/i18n.server";
import { eodReportGrid } from "./grids.server";
import { logger } from "~/observability/logger.server";

const log = logger("eod");

const CHUNK_ROWS = 1000;
const BOM = "\uFEFF";
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * A cell as a spreadsheet reads it safely: a value starting with = + - @ (or a
 * tab or carriage return) gets a leading apostrophe, so it is shown as text and
 * never run as a formula. Plain numbers (-12.50) are left alone: they cannot be
 * formulas, and they must stay numbers.
 */
export function spreadsheetSafe(value: string): string {
  return /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

export function csvCell(value: string): string {
  const safe = spreadsheetSafe(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (values: string[]) => values.map(csvCell).join(",") + "\r\n";

function localDateTime(value: Date, timeZone: string) {
  // "2026-11-21 14:05:00" in APP_TIMEZONE: sortable, and read as a date by spreadsheets.
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" }).formatToParts(value);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${part("second")}`;
}

/** The CSV answer for a list request (its page and per_page are ignored: every matching row goes). */
export async function eodReportCsv(params: URLSearchParams, t: Translate, now = new Date()): Promise<Response> {
  // Validated before the answer starts: bad filters are a 422, not half a file.
  const query = parseListQuery(params, eodReportGrid);
  const where = buildWhere(eodReportGrid, query);
  const sortField = eodReportGrid.columns.find((column) => column.key === query.sort)!.field!;
  const orderBy = sortField === "id" ? [{ id: query.sortDir }] : [{ [sortField]: query.sortDir }, { id: query.sortDir }];
  const columns = eodReportGrid.columns;
  const timeZone = env().APP_TIMEZONE;

  const cell = (key: string, value: unknown): string => {
    if (value === null || value === undefined) return "";
    if (value instanceof Date) return key === "sales_date" ? value.toISOString().slice(0, 10) : localDateTime(value, timeZone);
    const column = columns.find((candidate) => candidate.key === key);
    if (column?.options) return t(column.options[String(value)] ?? String(value));
    if (typeof value === "object" && "toFixed" in value) return (value as { toFixed(digits: number): string }).toFixed(2);
    return String(value);
  };

  const encoder = new TextEncoder();
  let cursor: number | null = null;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(BOM + csvLine(columns.map((column) => t(column.label)))));
    },
    async pull(controller) {
      if (done) return;
      try {
        const rows: Array<Record<string, unknown>> = await prisma.eodReportRow.findMany({
          where: where as never,
          orderBy: orderBy as never,
          take: CHUNK_ROWS,
          ...(cursor === null ? {} : { cursor: { id: cursor }, skip: 1 }),
        });
        if (rows.length) {
          controller.enqueue(encoder.encode(rows.map((row) => csvLine(columns.map((column) => cell(column.key, row[column.field ?? column.key])))).join("")));
          cursor = rows[rows.length - 1].id as number;
        }
        if (rows.length < CHUNK_ROWS) {
          done = true;
          controller.close();
        }
      } catch (error) {
        // Headers are gone already: end the download broken rather than pretend it is whole.
        log.error({ err: error }, "CSV export failed mid-stream");
        controller.error(error);
      }
    },
  });

  const stamp = localDateTime(now, timeZone).replace(/[-: ]/g, "").slice(0, 12);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="eod_report_${stamp.slice(0, 8)}_${stamp.slice(8)}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
