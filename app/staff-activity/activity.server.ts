// Who did what (issue 32 item 5): every action a staff member takes is one
// `staff_activity` row, written by the route that did it. This file is the
// writing and the order's reading; the grid lives beside it.
import type { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { logger } from "~/observability/logger.server";

const log = logger("staff-activity");

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

/** Rows older than this many days are deleted (docs/security.md, D257). */
const STAFF_ACTIVITY_RETENTION_DAYS = 400;
const PRUNE_EVERY_MS = 24 * 3600 * 1000;
let lastPruned = 0;

/**
 * Deletes the rows past the retention: at most once a day per process, on a
 * write (no feed of its own), one indexed range delete on created_at.
 */
async function pruneStaffActivity(now = new Date()): Promise<number> {
  lastPruned = now.getTime();
  const before = new Date(now.getTime() - STAFF_ACTIVITY_RETENTION_DAYS * 24 * 3600 * 1000);
  return (await prisma.staffActivity.deleteMany({ where: { created_at: { lt: before } } })).count;
}

export async function recordStaffActivity(entries: StaffActivityEntry | StaffActivityEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? entries : [entries];
  if (!list.length) return;
  if (Date.now() - lastPruned >= PRUNE_EVERY_MS) {
    // Pruning is housekeeping: when it fails, the row is still written, and it is tried again a day later.
    await pruneStaffActivity().catch((error: unknown) => log.error({ err: error }, "old staff activity could not be deleted"));
  }
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

/** The record types whose rows belong to one order, and how to find it: the order's increment id, or null. */
const ORDER_OF: Record<string, (id: string) => Promise<string | null | undefined>> = {
  order: async (id) => (isId(id) ? (await prisma.order.findUnique({ where: { id: Number(id) }, select: { order_id: true } }))?.order_id : null),
  assignment: async (id) =>
    isId(id) ? (await prisma.assignment.findUnique({ where: { id: Number(id) }, select: { order_increment_id: true } }))?.order_increment_id : null,
  dnh_transfer: async (id) =>
    isId(id) ? (await prisma.dnhTransfer.findUnique({ where: { id: Number(id) }, select: { order_increment_id: true } }))?.order_increment_id : null,
  dropship_request: async (id) =>
    isId(id)
      ? (await prisma.dropshipRequest.findUnique({ where: { request_id: Number(id) }, select: { order_increment_id: true } }))?.order_increment_id
      : null,
  dropship_response: async (id) =>
    isId(id) ? (await prisma.dropshipResponse.findUnique({ where: { id: Number(id) }, select: { order_increment_id: true } }))?.order_increment_id : null,
  // Not a record kept as such: a PO number named by a form (Tools, a shipment made by hand) leads to its request's order.
  purchase_order: async (po) =>
    po ? (await prisma.dropshipRequest.findUnique({ where: { po_number: po }, select: { order_increment_id: true } }))?.order_increment_id : null,
  special_order: async (id) => (isId(id) ? (await prisma.specialOrder.findUnique({ where: { id: Number(id) }, select: { order_id: true } }))?.order_id : null),
};

const isId = (id: string) => /^\d{1,9}$/.test(id);

/** The order a record belongs to (an assignment's, a request's…), or null when it belongs to none or is not found. */
export async function orderOfRecord(record: { type: string; id: string | number } | null | undefined): Promise<string | null> {
  const find = record ? ORDER_OF[record.type] : undefined;
  if (!record || !find) return null;
  return (await find(String(record.id))) ?? null;
}
