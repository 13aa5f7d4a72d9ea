// The AS400 outbox of the realtime logs (D26). Each sale, refund and shipment
// the AS400 must hear about is a realtime log row written in the transaction
// of the change itself, with as400_status "pending" and, in payload.as400, the
// exact record its file line will carry. The realtime_as400_export feed
// (realtime-export.server.ts) puts pending rows into files and sends them.
// Rows that are not for the AS400 (errors, notes, a shipment already queued by
// another row) keep as400_status null.
import { englishText } from "~/i18n/english.server";
import { message, type RunMessage } from "~/i18n/messages";
import type { Prisma } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";
import { lockShopifyOrder } from "~/db/order-lock.server";
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
  const what = shipmentMessage({ ...shipment, fulfillmentId });
  const coded = queuedBy === null ? what : message("logs.realtime.already_sent", { what, log: queuedBy });
  await tx.realtimeShippingLog.create({
    data: {
      order_increment_id: shipment.orderId,
      shopify_order_id: shipment.shopifyOrderId,
      tracking_number: shipment.trackingNumber,
      tracking_carrier: shipment.carrier,
      status: "success",
      message: englishText(coded),
      message_code: coded as Prisma.InputJsonValue,
      ...(queuedBy === null ? pendingExport(payload, record) : { payload }),
    },
  });
}

/**
 * recordDropshipShipment for a batch, in three statements whatever its size
 * (the drop-ship flow's fulfilments, D101): the orders' locks (in one order
 * for every caller, so two batches never deadlock), then one insert that looks
 * up, per shipment, the row already sending its fulfilment. A fulfilment twice
 * in one batch (two responses, one tracking number) is inserted in a second
 * pass, so it sees the first, as one-at-a-time recording would.
 */
export async function recordDropshipShipments(tx: Tx, inputs: DropshipShipment[]) {
  if (inputs.length === 0) return;
  const shipments = inputs.map((input) => ({
    ...input,
    shopifyOrderId: numericShopifyId(input.shopifyOrderId),
    fulfillmentId: numericShopifyId(input.fulfillmentId),
  }));
  const orders = [...new Set(shipments.map((s) => s.shopifyOrderId))].sort();
  await tx.$executeRaw`
    SELECT pg_advisory_xact_lock(${LOCK_KEYS.shopifyOrder}::int, hashtext('shopify-order:' || o))
      FROM (SELECT o FROM unnest(${orders}::text[]) AS o ORDER BY o) AS sorted`;
  const passes: Array<typeof shipments> = [];
  const seen = new Map<string, number>();
  for (const shipment of shipments) {
    const key = `${shipment.shopifyOrderId}/${shipment.fulfillmentId}`;
    const pass = seen.get(key) ?? 0;
    seen.set(key, pass + 1);
    (passes[pass] ??= []).push(shipment);
  }
  const shippedAt = new Date().toISOString();
  for (const pass of passes) {
    const rows = pass.map((s) => {
      const payload = {
        source: "dropship",
        shopify_fulfillment_id: s.fulfillmentId,
        po_number: s.poNumber,
        vendor: s.vendorName,
        dropship_response_id: s.responseId,
        sku: s.sku,
        qty: s.qty,
      };
      const record: ShipmentAs400Record = {
        fulfillment_id: s.fulfillmentId,
        source: "dropship",
        order_id: s.orderId,
        shopify_order_id: s.shopifyOrderId,
        carrier: s.carrier,
        tracking_number: s.trackingNumber,
        shipped_at: shippedAt,
        po_number: s.poNumber,
        vendor: s.vendorName,
        lines: [{ sku: s.sku, qty: s.qty }],
      };
      const what = shipmentMessage(s);
      return {
        order_id: s.orderId,
        shopify_order_id: s.shopifyOrderId,
        fulfillment_id: s.fulfillmentId,
        tracking_number: s.trackingNumber,
        carrier: s.carrier,
        message: englishText(what),
        code: what,
        payload,
        record,
      };
    });
    // As shipmentQueuedBy, per row: a row already sending this fulfilment means this one is not sent again.
    // The English of logs.realtime.already_sent is appended here, and its code built, once q.id is known (D114).
    await tx.$executeRaw`
      INSERT INTO realtime_shipping_log (order_increment_id, shopify_order_id, tracking_number, tracking_carrier, status, message,
                                         message_code, payload, as400_status)
      SELECT r.order_id, r.shopify_order_id, r.tracking_number, r.carrier, 'success',
             CASE WHEN q.id IS NULL THEN r.message ELSE r.message || ' Already sent to the AS400 with log ' || q.id || '.' END,
             CASE WHEN q.id IS NULL THEN r.code
                  ELSE jsonb_build_object('code', 'logs.realtime.already_sent', 'params', jsonb_build_object('what', r.code, 'log', q.id)) END,
             CASE WHEN q.id IS NULL THEN r.payload || jsonb_build_object('as400', r.record) ELSE r.payload END,
             CASE WHEN q.id IS NULL THEN 'pending' END
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
             AS r(order_id text, shopify_order_id text, fulfillment_id text, tracking_number text, carrier text, message text,
             code jsonb, payload jsonb, record jsonb)
        LEFT JOIN LATERAL (
          SELECT l.id FROM realtime_shipping_log l
           WHERE l.shopify_order_id = r.shopify_order_id AND l.as400_status IS NOT NULL AND l.payload -> 'as400' ->> 'fulfillment_id' = r.fulfillment_id
           ORDER BY l.id LIMIT 1) AS q ON true`;
  }
}

/** A drop-ship shipment's line in the realtime shipping log, as a code (D114). */
function shipmentMessage(s: {
  poNumber: string;
  vendorName: string;
  qty: number;
  sku: string;
  trackingNumber: string | null;
  fulfillmentId: string;
  createdInShopify: boolean;
}): RunMessage {
  return message(s.createdInShopify ? "logs.realtime.dropship_created" : "logs.realtime.dropship_found", {
    po: s.poNumber,
    vendor: s.vendorName,
    qty: s.qty,
    sku: s.sku,
    tracking: s.trackingNumber ? message("logs.realtime.comma_tracking", { tracking: s.trackingNumber }) : "",
    fulfillment: s.fulfillmentId,
  });
}
