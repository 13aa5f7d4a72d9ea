// What an order no longer needs shipped is taken back from the sources that
// hold it (issue 29 item 3, D226): the order was cancelled (Shopify's
// cancelled_at, or the order system's `canceled`), or a line was refunded or
// edited away. Called after each order webhook, after the order system's status
// file, and by Populate Ship Requests as a sweep that heals whatever a crash
// between an order's change and this left, before any request is made.
//
// Per item: to ship = 0 for a cancelled order, else ordered − cancelled −
// max(refunded, shipped) (Shopify's fulfillable quantity: a refund of units
// already shipped, a return, takes nothing back). The units the item's
// assignments hold beyond that are taken back, newest assignment first: a
// Pending one without a request is made smaller or deleted (its units return to
// unassigned), a drop-ship one goes through takeBackFromVendor (withdrawn when
// unsent, else a cancellation to the vendor), a store's one already handed over
// is the store's to cancel: left, and said in the application log.
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { logMessage } from "~/i18n/english.server";
import { logger } from "~/observability/logger.server";
import { ACTIVE_ASSIGNMENT, ASSIGN_STATUS } from "./assignment-status.server";
import { refreshTotalAssigned, TX_OPTIONS, withRetry } from "./assignments.server";
import { causeText, takeBackFromVendor, type CancellationCause } from "./vendor-cancellations.server";

type Tx = Prisma.TransactionClient;
const log = logger("order-lines");

/** Orders looked at per sweep statement; each is then released in a transaction of its own. */
const SWEEP_BATCH = 500;

interface HeldAssignment {
  id: number;
  item_id: number;
  order_increment_id: string;
  product_sku: string;
  qty_assigned: number;
  assign_status: number;
  store_id: string;
  has_request: boolean;
  vendor_id: number | null;
  vendor_name: string | null;
}

export interface ReleaseCounts {
  orders: number;
  /** Units withdrawn from requests not sent, or asked back from vendors. */
  taken_back: number;
  /** Units of Pending assignments returned to unassigned. */
  released: number;
}

/** Releases what the orders (increment ids) no longer need shipped, each order in its own transaction. */
export async function releaseClosedLines(orderIds: string[]): Promise<ReleaseCounts> {
  const counts: ReleaseCounts = { orders: 0, taken_back: 0, released: 0 };
  const rows = await prisma.order.findMany({ where: { order_id: { in: [...new Set(orderIds)] } }, select: { id: true }, orderBy: { id: "asc" } });
  for (const { id } of rows) {
    const done = await withRetry(() => prisma.$transaction((tx) => releaseOrder(tx, id), TX_OPTIONS));
    if (done.taken_back || done.released) counts.orders++;
    counts.taken_back += done.taken_back;
    counts.released += done.released;
  }
  return counts;
}

/**
 * Every order whose open assignments hold more than it still needs shipped, released: the sweep of
 * Populate Ship Requests and the order system's status feed. It reads the working set (assignments
 * not Complete that hold units), not the orders, so a million orders cost what their open assignments do.
 */
export async function releaseAllClosedLines(): Promise<ReleaseCounts> {
  const counts: ReleaseCounts = { orders: 0, taken_back: 0, released: 0 };
  let afterId = 0;
  for (;;) {
    const due = await prisma.$queryRaw<Array<{ id: number; order_id: string }>>`
      SELECT DISTINCT o.id, o.order_id
        FROM (SELECT a.item_id, SUM(a.qty_assigned) AS held FROM assignment a
               WHERE a.assign_status IN (1, 2, 3, 7) AND ${ACTIVE_ASSIGNMENT} GROUP BY a.item_id) h
        JOIN order_item i ON i.item_id = h.item_id
        JOIN order_grid o ON o.id = i.order_id
       WHERE o.id > ${afterId}
         AND (o.shopify_cancelled_at IS NOT NULL OR o.magento_status = 'canceled'
              OR ((i.qty_canceled > 0 OR i.qty_refunded > 0 OR i.qty_shipped > 0)
                  AND h.held > GREATEST(0, i.qty_ordered - i.qty_canceled - GREATEST(i.qty_refunded, i.qty_shipped))))
       ORDER BY o.id
       LIMIT ${SWEEP_BATCH}`;
    if (due.length === 0) break;
    afterId = due[due.length - 1].id;
    const done = await releaseClosedLines(due.map((row) => row.order_id));
    counts.orders += done.orders;
    counts.taken_back += done.taken_back;
    counts.released += done.released;
  }
  return counts;
}

async function releaseOrder(tx: Tx, orderRowId: number): Promise<ReleaseCounts> {
  const counts: ReleaseCounts = { orders: 0, taken_back: 0, released: 0 };
  // Locks in the order every writer takes them (assignment-changes.server.ts): the order, its items, the assignments.
  const [order] = await tx.$queryRaw<Array<{ order_id: string; magento_status: string | null; shopify_cancelled_at: Date | null }>>`
    SELECT order_id, magento_status, shopify_cancelled_at FROM order_grid WHERE id = ${orderRowId} FOR UPDATE`;
  if (!order) return counts;
  const items = await tx.$queryRaw<Array<{ item_id: number; qty_ordered: number; qty_canceled: number; qty_refunded: number; qty_shipped: number }>>`
    SELECT item_id, qty_ordered, qty_canceled, qty_refunded, qty_shipped FROM order_item WHERE order_id = ${orderRowId} ORDER BY item_id FOR UPDATE`;
  const held = await tx.$queryRaw<HeldAssignment[]>`
    SELECT a.id, a.item_id, a.order_increment_id, a.product_sku, a.qty_assigned, a.assign_status, a.store_id,
           EXISTS (SELECT 1 FROM dropship_request r WHERE r.assignment_id = a.id) AS has_request, v.id AS vendor_id, v.name AS vendor_name
      FROM assignment a
      LEFT JOIN LATERAL (SELECT id, name FROM dropship_vendor WHERE store_id = a.store_id ORDER BY archived_at NULLS FIRST, id LIMIT 1) v ON true
     WHERE a.item_id = ANY(${items.map((item) => item.item_id)}::int[]) AND a.assign_status <> ${ASSIGN_STATUS.complete} AND ${ACTIVE_ASSIGNMENT}
     ORDER BY a.id DESC
       FOR UPDATE OF a`;
  const cancelled = order.shopify_cancelled_at !== null || order.magento_status === "canceled";
  const cause: CancellationCause = order.shopify_cancelled_at
    ? "order_cancelled"
    : order.magento_status === "canceled"
      ? "order_system_canceled"
      : "line_removed";
  for (const item of items) {
    // Only what a cancellation, a refund, an edit or a shipment closed: the assignment rules never assign more than is ordered.
    if (!cancelled && item.qty_canceled === 0 && item.qty_refunded === 0 && item.qty_shipped === 0) continue;
    const toShip = cancelled ? 0 : Math.max(0, item.qty_ordered - item.qty_canceled - Math.max(item.qty_refunded, item.qty_shipped));
    const mine = held.filter((a) => a.item_id === item.item_id);
    let excess = mine.reduce((sum, a) => sum + a.qty_assigned, 0) - toShip;
    const detail = { open: toShip, ordered: item.qty_ordered };
    for (const a of mine) {
      if (excess <= 0) break;
      const qty = Math.min(excess, a.qty_assigned);
      if (a.has_request) {
        const outcome = await takeBackFromVendor(tx, a, cause, { qty, detail });
        if (outcome.kind === "withdrawn" || outcome.kind === "requested") {
          excess -= outcome.qty;
          counts.taken_back += outcome.qty;
          // A whole request withdrawn before it left: the assignment goes with it, as a deletion would.
          if (outcome.kind === "withdrawn" && outcome.whole) await tx.assignment.delete({ where: { id: a.id } });
        } else if (outcome.kind === "not_needed" && outcome.status === "rejected") {
          // The vendor never took it: nothing to tell it, the assignment is done with.
          await tx.assignment.update({ where: { id: a.id }, data: { assign_status: ASSIGN_STATUS.cancelled } });
          excess -= a.qty_assigned;
        }
        continue;
      }
      if (a.assign_status !== ASSIGN_STATUS.pending) {
        log.warn(`order ${a.order_increment_id}: assignment ${a.id} (${a.qty_assigned} x ${a.product_sku}) at ${a.store_id} is handed over: cancel it there`);
        continue;
      }
      if (qty >= a.qty_assigned) await tx.assignment.delete({ where: { id: a.id } });
      else await tx.assignment.update({ where: { id: a.id }, data: { qty_assigned: { decrement: qty } } });
      excess -= qty;
      counts.released += qty;
      if (a.vendor_id !== null) await logReleased(tx, a, qty, causeText(cause, a.id, detail));
    }
  }
  if (counts.taken_back || counts.released) await refreshTotalAssigned(tx, [orderRowId]);
  return counts;
}

/** A Pending drop-ship assignment released before step 1 made it a request: the vendor's log says so. */
async function logReleased(tx: Tx, a: HeldAssignment, qty: number, why: ReturnType<typeof causeText>) {
  const text = logMessage("cancellations.order_lines.released", { assignment: a.id, qty, of: a.qty_assigned, sku: a.product_sku, why });
  await tx.dropshipLog.create({
    data: {
      vendor_id: a.vendor_id,
      vendor_name: a.vendor_name,
      action: "populate_requests",
      status: "info",
      order_increment_id: a.order_increment_id,
      item_sku: a.product_sku,
      qty,
      message: text.message,
      message_code: text.message_code as Prisma.InputJsonValue,
    },
  });
}

/** An order webhook's last step: once its change is committed, what the order no longer needs is released. */
export async function releaseAfterOrderChange<T extends { status: string; orderId?: string }>(outcome: T): Promise<T> {
  if (outcome.status === "applied" && outcome.orderId) await releaseClosedLines([outcome.orderId]);
  return outcome;
}
