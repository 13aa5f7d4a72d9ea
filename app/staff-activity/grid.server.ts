// The Staff Activity grid (issue 32 items 5 and 8): who did what, newest
// first, filterable by person, action, record and order. GET /api/staff_activity
// and the page /staff-activity both answer here.
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid, type GridSource } from "~/grid/grid.server";

/**
 * The actions staff take, "<area>.<verb>", each labelled by
 * `staff_activity.actions.<area>.<verb>`. A route names its action where it
 * declares it (app/http/activity.server.ts); one not listed here is still
 * recorded, and shown by its name.
 */
export const STAFF_ACTIONS = [
  "dropship_vendor.create",
  "dropship_vendor.save",
  "dropship_vendor.delete",
  "dropship_vendor.host_key_pin",
  "dropship_vendor.host_key_reset",
  "dropship_request.create",
  "dropship_request.save",
  "dropship_request.resend",
  "dropship_request.cancel",
  "dropship_response.create",
  "dropship_response.save",
  "dropship_test.run",
  "dropship_tools.run",
  "store.save",
  "feed.save",
  "feed.run",
  "category_tags_mapping.save",
  "category_tags_mapping.delete",
  "settings.save",
  "special_order.save",
  "special_order.pull",
  "eod.run",
  "eod.retry",
  "eod.export",
  "assignment.generate_auto_file",
  "assignment.import",
  "assignment.manual",
  "assignment.reassign",
  "assignment.delete",
  "assignment.dnh",
  "attention.dismiss",
  "saved_view.create",
  "saved_view.save",
  "saved_view.duplicate",
  "saved_view.delete",
  "order.force_sync",
] as const;

/** The kinds of record an action names (`staff_activity.records.<type>`). */
export const STAFF_RECORD_TYPES = [
  "dropship_vendor",
  "dropship_request",
  "dropship_response",
  "store",
  "feed",
  "category_tags_mapping",
  "special_order",
  "assignment",
  "attention_item",
  "saved_view",
  "order",
] as const;

const OUTCOMES = ["done", "refused", "failed"] as const;

/** Detail as a line of text: `key: value · key: value` (lists joined by commas). */
function detailText(detail: unknown): string {
  if (!detail || typeof detail !== "object" || Array.isArray(detail)) return "";
  return Object.entries(detail as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined && value !== "")
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join(" · ");
}

/** The rows as the grid shows them: detail as text. */
function staffActivitySource(): GridSource {
  const rows = gridSourceFrom(prisma.staffActivity);
  return {
    count: rows.count,
    findMany: async (args) => (await rows.findMany(args)).map((row) => ("detail" in row ? { ...row, detail: detailText(row.detail) } : row)),
  };
}

export const staffActivityGrid = defineGrid({
  id: "staff_activity",
  rowKey: "id",
  defaultSort: { key: "created_at", dir: "desc" },
  source: staffActivitySource,
  columns: [
    { key: "created_at", label: "staff_activity.columns.created_at", dataType: "datetime" },
    { key: "staff", label: "staff_activity.columns.staff", dataType: "text" },
    { key: "action", label: "staff_activity.columns.action", dataType: "select", options: optionsFrom(STAFF_ACTIONS, "staff_activity.actions") },
    {
      key: "record_type",
      label: "staff_activity.columns.record_type",
      dataType: "select",
      options: optionsFrom(STAFF_RECORD_TYPES, "staff_activity.records"),
    },
    { key: "record_id", label: "staff_activity.columns.record_id", dataType: "text" },
    { key: "order_increment_id", label: "staff_activity.columns.order_increment_id", dataType: "text" },
    {
      key: "outcome",
      label: "staff_activity.columns.outcome",
      dataType: "select",
      options: optionsFrom(OUTCOMES, "staff_activity.outcomes"),
      tones: { done: "success", refused: "warning", failed: "critical" },
    },
    { key: "detail", label: "staff_activity.columns.detail", dataType: "textOnly", filter: "none", sortable: false, searchable: false },
  ],
});

export function listStaffActivity(params: URLSearchParams) {
  return runGrid(staffActivityGrid, params);
}
