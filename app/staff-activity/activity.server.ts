// Who did what (issue 32 item 5): every action a staff member takes is one
// `staff_activity` row, written by the route that did it. This file is the
// writing and the order's reading; the grid lives beside it.
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";

export type ActivityOutcome = "done" | "refused" | "failed";

export interface StaffActivityEntry {
  /** staffName(staff): "local", "shopify-user:<id>", or the shop. */
  staff: string;
  /** "<area>.<verb>": dropship_vendor.save, assignment.delete, feed.run… */
  action: string;
  record?: { type: string; id: string | number } | null;
  /** The order the record belongs to, when it belongs to one. */
  orderIncrementId?: string | null;
  outcome: ActivityOutcome;
  detail?: Prisma.InputJsonObject;
}

export async function recordStaffActivity(entries: StaffActivityEntry | StaffActivityEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (!list.length) return;
  await prisma.staffActivity.createMany({
    data: list.map((entry) => ({
      staff: entry.staff,
      action: entry.action,
      record_type: entry.record?.type ?? null,
      record_id: entry.record ? String(entry.record.id) : null,
      order_increment_id: entry.orderIncrementId ?? null,
      outcome: entry.outcome,
      detail: entry.detail ?? {},
    })),
  });
}

export interface StaffActivityRow {
  id: number;
  staff: string;
  action: string;
  record_type: string | null;
  record_id: string | null;
  order_increment_id: string | null;
  outcome: string;
  detail: Prisma.JsonValue;
  created_at: Date;
}

/** What staff did to an order and its records, oldest first (at most `limit` rows, the latest). */
export async function staffActivityForOrder(orderIncrementId: string, limit = 500): Promise<StaffActivityRow[]> {
  const rows = await prisma.staffActivity.findMany({ where: { order_increment_id: orderIncrementId }, orderBy: { id: "desc" }, take: limit });
  return rows.reverse();
}
