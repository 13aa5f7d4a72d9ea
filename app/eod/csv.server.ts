// GET /api/eod_report_export_csv (spec 001 §2 "Export CSV"): the report rows
// the grid's filters and sort select, every page, as a CSV download. Streamed:
// rows are read 1,000 at a time (keyset on the sort and the id) while the
// answer is being sent. Written for spreadsheets by app/grid/csv.server.ts
// (D33), its headings and statuses in the reader's language, rendered at the
// edge (D136).
import prisma from "~/db.server";
import { env } from "~/env.server";
import type { CsvCell, CsvDownload } from "~/grid/csv.server";
import { buildWhere } from "~/grid/grid.server";
import { parseListQuery } from "~/grid/list-query.server";
import { readerKey } from "~/i18n/messages";
import { localDateTime } from "~/lib/app-time";
import { eodReportGrid } from "./grids.server";
import { logger } from "~/observability/logger.server";

const log = logger("eod");

const CHUNK_ROWS = 1000;

/** The CSV download of a list request (its page and per_page are ignored: every matching row goes). */
export async function eodReportCsv(params: URLSearchParams, now = new Date()): Promise<CsvDownload> {
  // Validated before the answer starts: bad filters are a 422, not half a file.
  const query = parseListQuery(params, eodReportGrid);
  const where = buildWhere(eodReportGrid, query);
  const sortField = eodReportGrid.columns.find((column) => column.key === query.sort)!.field!;
  const orderBy = sortField === "id" ? [{ id: query.sortDir }] : [{ [sortField]: query.sortDir }, { id: query.sortDir }];
  const columns = eodReportGrid.columns;
  const timeZone = env().APP_TIMEZONE;

  const cell = (key: string, value: unknown): CsvCell => {
    if (value === null || value === undefined) return "";
    if (value instanceof Date) return key === "sales_date" ? value.toISOString().slice(0, 10) : localDateTime(value, timeZone);
    const column = columns.find((candidate) => candidate.key === key);
    if (column?.options) return readerKey(column.options[String(value)] ?? String(value));
    if (typeof value === "object" && "toFixed" in value) return (value as { toFixed(digits: number): string }).toFixed(2);
    return String(value);
  };

  async function* chunks(): AsyncGenerator<CsvCell[][]> {
    let cursor: number | null = null;
    try {
      for (;;) {
        const rows: Array<Record<string, unknown>> = await prisma.eodReportRow.findMany({
          where: where as never,
          orderBy: orderBy as never,
          take: CHUNK_ROWS,
          ...(cursor === null ? {} : { cursor: { id: cursor }, skip: 1 }),
        });
        if (rows.length) {
          yield rows.map((row) => columns.map((column) => cell(column.key, row[column.field ?? column.key])));
          cursor = rows[rows.length - 1].id as number;
        }
        if (rows.length < CHUNK_ROWS) return;
      }
    } catch (error) {
      log.error({ err: error }, "CSV export failed mid-stream");
      throw error;
    }
  }

  const stamp = localDateTime(now, timeZone).replace(/[-: ]/g, "").slice(0, 12);
  return { filename: `eod_report_${stamp.slice(0, 8)}_${stamp.slice(8)}.csv`, header: columns.map((column) => readerKey(column.label)), chunks: chunks() };
}
