// The AS400 outbox of the realtime logs (D26). Each sale, refund and shipment
// the AS400 must hear about is a realtime log row written in the transaction
// of the change itself, with as400_status "pending" and, in payload.as400, the
// exact record its file line will carry. The realtime_as400_export feed
// (realtime-export.server.ts) puts pending rows into files and sends them.
// Rows that are not for the AS400 (errors, notes, a shipment already queued by
// another row) keep as400_status null.
import type { Prisma } from "~/db/generated/client";
import { lockShopifyOrder } from "~/orders/order-lock.server";
import type { SalesAs400Record, ShipmentAs400Record } from "./realtime-files";

type Tx = Prisma.TransactionClient;

export { AS400_STATUSES, salesAs400RecordSchema, shipmentAs400RecordSchema } from "./realtime-files";
export type { As400Status, SalesAs400Record, ShipmentAs400Record } from "./realtime-files";

/** "gid://shopify/Fulfillment/123" or "123" → "123". */
export function numericShopifyId(id: string): string {
  const match = /(\d+)$/.exec(id.trim());
  return match ? match[1] : id.trim();
}

/**
 * The realtime shipping log row that already sends fulfilment `fulfillmentId`
 * to the AS400, if any. A drop-ship shipment is recorded by the flow that
 * created it in Shopify, and Shopify then reports the same fulfilment by
 * webhook: whichever is recorded second is not sent again. Callers hold the
 * order's lock (lockShopifyOrder), so the two cannot both miss each other.
 */
export async function shipmentQueuedBy(tx: Tx, shopifyOrderId: string, fulfillmentId: string): Promise<number | null> {
  const rows = await tx.$queryRaw<Array<{ id: number }>>`
    SELECT id FROM realtime_shipping_log
     WHERE shopify_order_id = ${shopifyOrderId} AND as400_status IS NOT NULL
       AND payload -> 'as400' ->> 'fulfillment_id' = ${numericShopifyId(fulfillmentId)}
     ORDER BY id LIMIT 1`;
  return rows[0]?.id ?? null;
}

/** The log fields of a row to send: pending, with its record beside the rest of the payload. */
export function pendingExport<R extends SalesAs400Record | ShipmentAs400Record>(payload: Prisma.InputJsonObject, record: R) {
  return { as400_status: "pending" as const, payload: { ...payload, as400: record as unknown as Prisma.InputJsonObject } };
}

export interface DropshipShipment {
  shopifyOrderId: string;
  orderId: string;
  /** As createFulfillmentOnce answers it (a gid). */
  fulfillmentId: string;
  createdInShopify: boolean;
  poNumber: string;
  vendorName: string;
  responseId: number;
  sku: string;
  qty: number;
  trackingNumber: string | null;
  carrier: string | null;
}

/**
 * Records a drop-ship shipment fulfilled in Shopify in the realtime shipping
 * log, to be sent to the AS400, in the drop-ship flow's own transaction. The
 * payload has no top-level fulfillment_id on purpose: the order sync counts
 * shipped quantities from its own rows (by Shopify line item), not this one.
 */
export async function recordDropshipShipment(tx: Tx, input: DropshipShipment) {
  // The webhooks know the order by its numeric id: the same lock and the same rows whatever the assignment kept.
  const shipment = { ...input, shopifyOrderId: numericShopifyId(input.shopifyOrderId) };
  await lockShopifyOrder(tx, shipment.shopifyOrderId);
  const fulfillmentId = numericShopifyId(shipment.fulfillmentId);
  const queuedBy = await shipmentQueuedBy(tx, shipment.shopifyOrderId, fulfillmentId);
  const payload: Prisma.InputJsonObject = {
    source: "dropship",
    shopify_fulfillment_id: fulfillmentId,
    po_number: shipment.poNumber,
    vendor: shipment.vendorName,
    dropship_response_id: shipment.responseId,
    sku: shipment.sku,
    qty: shipment.qty,
  };
  const record: ShipmentAs400Record = {
    fulfillment_id: fulfillmentId,
    source: "dropship",
    order_id: shipment.orderId,
    shopify_order_id: shipment.shopifyOrderId,
    carrier: shipment.carrier,
    tracking_number: shipment.trackingNumber,
    shipped_at: new Date().toISOString(),
    po_number: shipment.poNumber,
    vendor: shipment.vendorName,
    lines: [{ sku: shipment.sku, qty: shipment.qty }],
  };
  const what = `Drop-ship shipment of PO ${shipment.poNumber} (${shipment.vendorName}): ${shipment.qty} x ${shipment.sku}${shipment.trackingNumber ? `, tracking ${shipment.trackingNumber}` : ""}; Shopify fulfilment ${fulfillmentId} ${shipment.createdInShopify ? "created" : "found"}.`;
  await tx.realtimeShippingLog.create({
    data: {
      order_increment_id: shipment.orderId,
      shopify_order_id: shipment.shopifyOrderId,
      tracking_number: shipment.trackingNumber,
      tracking_carrier: shipment.carrier,
      status: "success",
      ...(queuedBy === null
        ? { message: what, ...pendingExport(payload, record) }
        : { message: `${what} Already sent to the AS400 with log ${queuedBy}.`, payload }),
    },
  });
}
