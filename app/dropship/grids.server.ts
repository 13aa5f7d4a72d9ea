// The drop-ship area's server-defined grids.
import prisma from "~/db.server";
import { defineGrid, type GridSource } from "~/grid/grid.server";

const LOG_ACTIONS = [
  "populate_requests",
  "send_requests",
  "populate_responses",
  "process_responses",
  "clear_completed",
  "receive_file",
  "send_file",
  "ack_997",
] as const;
const LOG_STATUSES = ["info", "success", "warning", "error"] as const;

const optionsFrom = (values: readonly string[], prefix: string) =>
  Object.fromEntries(values.map((value) => [value, `${prefix}.${value}`]));

/** Drop Shipping Logs (spec 000 §2): sorted by id descending, keyed by id. */
export const dropshipLogGrid = defineGrid({
  id: "dropship_log",
  rowKey: "id",
  defaultSort: { key: "id", dir: "desc" },
  source: () => prisma.dropshipLog as unknown as GridSource,
  columns: [
    { key: "id", label: "dropship.logs.columns.id", dataType: "text", valueType: "int" },
    { key: "created_at", label: "dropship.logs.columns.created_at", dataType: "datetime" },
    { key: "vendor_name", label: "dropship.logs.columns.vendor_name", dataType: "text" },
    { key: "action", label: "dropship.logs.columns.action", dataType: "select", options: optionsFrom(LOG_ACTIONS, "dropship.logs.actions") },
    { key: "status", label: "dropship.logs.columns.status", dataType: "select", options: optionsFrom(LOG_STATUSES, "dropship.logs.statuses") },
    { key: "po_number", label: "dropship.logs.columns.po_number", dataType: "text" },
    { key: "order_increment_id", label: "dropship.logs.columns.order_increment_id", dataType: "text" },
    { key: "item_sku", label: "dropship.logs.columns.item_sku", dataType: "text" },
    { key: "qty", label: "dropship.logs.columns.qty", dataType: "textOnly", valueType: "int", filter: "none", searchable: false },
    { key: "tracking_number", label: "dropship.logs.columns.tracking_number", dataType: "text" },
    { key: "file_name", label: "dropship.logs.columns.file_name", dataType: "text" },
    { key: "message", label: "dropship.logs.columns.message", dataType: "textOnly", filter: "text", sortable: false, searchable: true },
  ],
});

export type DropshipLogAction = (typeof LOG_ACTIONS)[number];
export type DropshipLogStatus = (typeof LOG_STATUSES)[number];
