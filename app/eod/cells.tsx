// How the EOD grids show their cells: sales dates as US short dates (no time),
// amounts in USD, the batch id as a link to its batch.
import { Link } from "@shopify/polaris";
import type { GridColumn, GridRow } from "~/grid/types";
import { formatMoney } from "~/lib/format";

const MONEY_KEYS = new Set(["invoice_total", "credit_memo_total", "shipping_invoice_total", "net_sales"]);
/** "2026-11-21" → "11/21/26" (a sales date has no time, so no time zone either). */
export function formatSalesDate(value: unknown): string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return value == null ? "" : String(value);
  const [year, month, day] = value.slice(0, 10).split("-");
  return `${month}/${day}/${year.slice(2)}`;
}

export function renderEodCell(column: GridColumn, row: GridRow) {
  const value = row[column.key];
  if (column.key === "sales_date" || column.key === "last_sales_date") return <>{formatSalesDate(value)}</>;
  if (MONEY_KEYS.has(column.key)) return <>{formatMoney(value as string | null)}</>;
  if (column.key === "batch_id" && value !== null && value !== undefined) return <Link url={`/eod/batch?id=${String(value)}`}>{String(value)}</Link>;
  return undefined;
}
