// The EOD screens' server-defined grids (spec 001 §2, §3): the report
// (sales_date asc) and the batches (id desc). Decimals and dates leave as
// plain JSON values: amounts as decimal text ("1234.50"), sales dates as
// YYYY-MM-DD.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid, type ColumnSpec, type GridSource } from "~/grid/grid.server";
import type { GridRow } from "~/grid/types";

export const EXPORT_STATUSES = ["pending", "unsent", "failed", "exported"] as const;
export const BATCH_STATUSES = ["created", "failed", "exported"] as const;
const DATE_ONLY_FIELDS = new Set(["sales_date", "last_sales_date"]);

/** Prisma's Decimal and @db.Date values as the grid's JSON answers carry them. */
function plainRow(row: GridRow): GridRow {
  const out: GridRow = {};
  for (const [key, value] of Object.entries(row)) {
    if (value instanceof Date) out[key] = DATE_ONLY_FIELDS.has(key) ? value.toISOString().slice(0, 10) : value.toISOString();
    else if (value !== null && typeof value === "object" && "toFixed" in value) out[key] = (value as { toFixed(digits: number): string }).toFixed(2);
    else out[key] = value;
  }
  return out;
}

function plainSource(delegate: () => GridSource): () => GridSource {
  return () => ({
    findMany: async (args) => (await delegate().findMany(args)).map(plainRow),
    count: (args) => delegate().count(args),
  });
}

const count = (key: string, label: string): ColumnSpec => ({ key, label, dataType: "textOnly", valueType: "int", filter: "none", searchable: false });
const money = (key: string, label: string): ColumnSpec => ({ key, label, dataType: "textOnly", filter: "none", searchable: false });

/** EOD Report (spec 001 §2): default sort sales_date asc. */
export const eodReportGrid = defineGrid({
  id: "eod_report",
  rowKey: "id",
  defaultSort: { key: "sales_date", dir: "asc" },
  source: plainSource(() => gridSourceFrom(prisma.eodReportRow)),
  columns: [
    { key: "sales_date", label: "eod.columns.sales_date", dataType: "text", filter: "date_range", dateKind: "date", searchable: false },
    { key: "store_id", label: "eod.columns.store_id", dataType: "text" },
    count("order_count", "eod.columns.order_count"),
    count("invoice_count", "eod.columns.invoice_count"),
    money("invoice_total", "eod.columns.invoice_total"),
    count("credit_memo_count", "eod.columns.credit_memo_count"),
    money("credit_memo_total", "eod.columns.credit_memo_total"),
    count("shipping_invoice_count", "eod.columns.shipping_invoice_count"),
    money("shipping_invoice_total", "eod.columns.shipping_invoice_total"),
    money("net_sales", "eod.columns.net_sales"),
    count("revision", "eod.columns.revision"),
    {
      key: "export_status",
      label: "eod.columns.export_status",
      dataType: "select",
      options: optionsFrom(EXPORT_STATUSES, "eod.export_statuses"),
      tones: { pending: "info", unsent: "attention", failed: "critical", exported: "success" },
    },
    { key: "batch_id", label: "eod.columns.batch_id", dataType: "text", valueType: "int", searchable: false },
    { key: "updated_at", label: "eod.columns.updated_at", dataType: "datetime" },
  ],
});

/** EOD Batches (spec 001 §2): id, file_name and the rest; default sort id desc. */
export const eodBatchGrid = defineGrid({
  id: "eod_batch",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: plainSource(() => gridSourceFrom(prisma.eodBatch)),
  columns: [
    { key: "id", label: "eod.batch_columns.id", dataType: "text", valueType: "int" },
    // The batch file opens in the file viewer (issue 32, D262).
    { key: "file_name", label: "eod.batch_columns.file_name", dataType: "text", cellLink: "/file/eod-{id}" },
    { key: "sales_date", label: "eod.batch_columns.sales_date", dataType: "text", filter: "none", searchable: false },
    { key: "last_sales_date", label: "eod.batch_columns.last_sales_date", dataType: "text", filter: "none", searchable: false },
    count("row_count", "eod.batch_columns.row_count"),
    money("invoice_total", "eod.columns.invoice_total"),
    money("credit_memo_total", "eod.columns.credit_memo_total"),
    money("shipping_invoice_total", "eod.columns.shipping_invoice_total"),
    money("net_sales", "eod.columns.net_sales"),
    {
      key: "status",
      label: "eod.batch_columns.status",
      dataType: "select",
      options: optionsFrom(BATCH_STATUSES, "eod.batch_statuses"),
      tones: { created: "attention", failed: "critical", exported: "success" },
    },
    count("attempts", "eod.batch_columns.attempts"),
    { key: "error", label: "eod.batch_columns.error", dataType: "textOnly", filter: "text", sortable: false, searchable: true },
    { key: "created_at", label: "eod.batch_columns.created_at", dataType: "datetime", filter: "date_range" },
    { key: "exported_at", label: "eod.batch_columns.exported_at", dataType: "datetime" },
  ],
});

export const listEodReport = (params: URLSearchParams) => runGrid(eodReportGrid, params);
export const listEodBatches = (params: URLSearchParams) => runGrid(eodBatchGrid, params);
