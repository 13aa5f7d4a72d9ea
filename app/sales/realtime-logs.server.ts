// Realtime Sales/Refund Logs and Realtime Shipping Logs (spec 001 §2, D27):
// generic grids, id descending. The page loaders and GET
// /api/realtime_sales_log and /api/realtime_shipping_log answer here.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid, type GridSource } from "~/grid/grid.server";
import { AS400_STATUSES } from "~/as400/realtime-outbox.server";

const EVENTS = ["sale", "refund"] as const;
const STATUSES = ["success", "error"] as const;
const columns = "realtime_logs.columns";

// Shared by both logs: the outcome in the app, then what became of the AS400 copy.
const outboxColumns = [
  {
    key: "status",
    label: `${columns}.status`,
    dataType: "select",
    options: optionsFrom(STATUSES, "realtime_logs.statuses"),
    tones: { success: "success", error: "critical" },
  },
  {
    key: "as400_status",
    label: `${columns}.as400_status`,
    dataType: "select",
    options: optionsFrom(AS400_STATUSES, "realtime_logs.as400_statuses"),
    tones: { pending: "info", sent: "success", failed: "critical" },
  },
  { key: "as400_file_name", label: `${columns}.as400_file_name`, dataType: "text", cellLink: "/file/{as400_transmission_id}" },
  { key: "as400_sent_at", label: `${columns}.as400_sent_at`, dataType: "datetime" },
  { key: "message", label: `${columns}.message`, dataType: "textOnly", filter: "text", sortable: false, searchable: true, codeField: "message_code" },
  { key: "as400_error", label: `${columns}.as400_error`, dataType: "textOnly", filter: "text", sortable: false, searchable: true },
  { key: "payload", label: `${columns}.payload`, dataType: "textOnly", filter: "none", sortable: false, searchable: false },
] as const;

/**
 * Amounts as "12.50": a Prisma Decimal reaches the browser as an object
 * through the page loader (single fetch does not call toJSON), as JSON text
 * through the API.
 */
function salesLogSource(): GridSource {
  const table = gridSourceFrom(prisma.realtimeSalesLog);
  return {
    count: (args) => table.count(args),
    findMany: async (args) =>
      (await table.findMany(args)).map((row) => ("amount" in row && row.amount !== null ? { ...row, amount: Number(row.amount).toFixed(2) } : row)),
  };
}

export const realtimeSalesLogGrid = defineGrid({
  id: "realtime_sales_log",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: salesLogSource,
  columns: [
    { key: "id", label: `${columns}.id`, dataType: "text", valueType: "int" },
    { key: "created_at", label: `${columns}.created_at`, dataType: "datetime", filter: "date_range" },
    { key: "event", label: `${columns}.event`, dataType: "select", options: optionsFrom(EVENTS, "realtime_logs.events") },
    { key: "order_increment_id", label: `${columns}.order_increment_id`, dataType: "text", cellLink: "/order/{order_increment_id}" },
    { key: "shopify_order_id", label: `${columns}.shopify_order_id`, dataType: "text" },
    { key: "amount", label: `${columns}.amount`, dataType: "textOnly", filter: "none", searchable: false },
    ...outboxColumns,
  ],
});

export const realtimeShippingLogGrid = defineGrid({
  id: "realtime_shipping_log",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => gridSourceFrom(prisma.realtimeShippingLog),
  columns: [
    { key: "id", label: `${columns}.id`, dataType: "text", valueType: "int" },
    { key: "created_at", label: `${columns}.created_at`, dataType: "datetime", filter: "date_range" },
    { key: "order_increment_id", label: `${columns}.order_increment_id`, dataType: "text", cellLink: "/order/{order_increment_id}" },
    { key: "shopify_order_id", label: `${columns}.shopify_order_id`, dataType: "text" },
    { key: "tracking_number", label: `${columns}.tracking_number`, dataType: "text" },
    { key: "tracking_carrier", label: `${columns}.tracking_carrier`, dataType: "text" },
    ...outboxColumns,
  ],
});

export function listRealtimeSalesLogs(params: URLSearchParams) {
  return runGrid(realtimeSalesLogGrid, params);
}

export function listRealtimeShippingLogs(params: URLSearchParams) {
  return runGrid(realtimeShippingLogGrid, params);
}
