// The EOD batch file (docs/as400-files.md "EOD batch file"): pure functions,
// shared by the export and the demo seed.
import { createHash } from "node:crypto";

/** Where batch files go on the AS400 exchange. */
export const EOD_FOLDER = "/as400/eod";

export const BATCH_FILE_COLUMNS = [
  "batch_id",
  "sales_date",
  "store_id",
  "revision",
  "order_count",
  "invoice_count",
  "invoice_total",
  "credit_memo_count",
  "credit_memo_total",
  "shipping_invoice_count",
  "shipping_invoice_total",
  "net_sales",
] as const;

export const batchFileName = (batchId: number, lastSalesDate: string) => `EOD_${lastSalesDate.replace(/-/g, "")}_${String(batchId).padStart(6, "0")}.csv`;

export interface PendingRow {
  id: number;
  sales_date: string;
  store_id: string;
  revision: number;
  order_count: number;
  invoice_count: number;
  invoice_total: string;
  credit_memo_count: number;
  credit_memo_total: string;
  shipping_invoice_count: number;
  shipping_invoice_total: string;
  net_sales: string;
}

// Values are digits, dates and store ids; a store id with a comma or quote is quoted all the same.
const csvValue = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The batch file: a header line, then one line per sales date and store; CRLF, UTF-8 without BOM. */
export function buildBatchFile(batchId: number, rows: Omit<PendingRow, "id">[]): Buffer {
  const lines = [BATCH_FILE_COLUMNS.join(",")];
  for (const row of rows) {
    lines.push(
      [
        batchId,
        row.sales_date,
        row.store_id,
        row.revision,
        row.order_count,
        row.invoice_count,
        row.invoice_total,
        row.credit_memo_count,
        row.credit_memo_total,
        row.shipping_invoice_count,
        row.shipping_invoice_total,
        row.net_sales,
      ]
        .map(csvValue)
        .join(","),
    );
  }
  return Buffer.from(lines.join("\r\n") + "\r\n", "utf8");
}

/** A new batch's file as its eod_batch row keeps it: name and path, first and last sales day, row count, content and sha256. */
export function batchFileRow(batchId: number, rows: Omit<PendingRow, "id">[], firstDate: string, lastDate: string) {
  const content = buildBatchFile(batchId, rows);
  const fileName = batchFileName(batchId, lastDate);
  return {
    id: batchId,
    file_name: fileName,
    remote_path: `${EOD_FOLDER}/${fileName}`,
    sales_date: new Date(`${firstDate}T00:00:00Z`),
    last_sales_date: new Date(`${lastDate}T00:00:00Z`),
    row_count: rows.length,
    content: new Uint8Array(content),
    content_hash: createHash("sha256").update(content).digest("hex"),
  };
}
