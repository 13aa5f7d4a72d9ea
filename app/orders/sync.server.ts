// Shopify's order webhooks into the order grid (spec 000 §3), its items, and
// the sales records Daily Sales sums (spec 001 §3). One call per webhook, one
// transaction per call:
// - The webhook id (X-Shopify-Webhook-Id) is inserted into webhook_event in the
//   same transaction as the change, so a second delivery changes nothing, even
//   one arriving while the first is being applied (it waits on the key).
// - Webhooks of one order are applied one at a time (a transaction-level
//   advisory lock on the Shopify order id).
// - An order payload is the whole order as of its updated_at: one older than
//   the row's shopify_updated_at is ignored, so an older update never
//   overwrites a newer one.
// - Refunds and fulfillments arrive twice: in their own webhook and inside the
//   next orders/updated. Each is counted once: a refund by its credit memo
//   (source_key "refund:<id>"), a fulfillment by its line in
//   realtime_shipping_log (payload.fulfillment_id).
// - A payload that does not validate is answered 200 (Shopify would retry it
//   forever), logged with the reason and recorded as an error in the realtime
//   sales log (fulfillments: the realtime shipping log).
// What belongs to the order system stays as it is: magento_status, the
// marketplace and ChannelAdvisor fields (the order-status file feed sets them)
// and updated_at, which is the order system's time of the row (the feed
// compares against it); Shopify's time is shopify_updated_at.
// Each invoice, credit memo and shipped fulfilment recorded here is also queued
// for the AS400 in the same transaction (realtime log row pending, D26).
import { englishText, logMessage } from "~/i18n/english.server";
import { message, money as moneyParam, type RunMessage } from "~/i18n/messages";
import { z } from "zod";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { env } from "~/env.server";
import { dateOnly, dayIn } from "~/lib/app-time";
import { pendingExport, shipmentQueuedBy, type SalesAs400Record, type ShipmentAs400Record } from "~/as400/realtime-outbox.server";
import { lockShopifyOrder } from "~/db/order-lock.server";
import { logger } from "~/observability/logger.server";

const syncLog = logger("order-sync");

export interface WebhookMeta {
  shop: string;
  /** X-Shopify-Webhook-Id. */
  webhookId: string;
  topic: string;
}

export type SyncStatus = "applied" | "duplicate" | "stale" | "invalid" | "unknown_order";

export interface SyncOutcome {
  status: SyncStatus;
  message: string;
  /** The message as a code, when it is quoted in a log row (an applied snapshot, in the cancellation line; D116). */
  messageCode?: RunMessage;
  /** The order grid's order_id (increment id) when the order is known. */
  orderId?: string;
  shopifyOrderId?: string;
}

type Tx = Prisma.TransactionClient;

const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 };
/** financial_status values of an order that has been paid (an invoice is recorded for it). */
export const PAID_FINANCIAL_STATUSES = ["paid", "partially_paid", "partially_refunded", "refunded"];
/**
 * An order with nothing left to fulfil and nothing shipped (Shopify 2026-10's FULFILLMENT_NOT_REQUIRED;
 * the REST payload still says null, which is otherwise "unfulfilled"). The grid shows "Not Required".
 */
export const NOT_REQUIRED = "not_required";
/** Fulfillment statuses that count as shipped. */
const SHIPPED = "success";

// ---------------------------------------------------------------------------
// Payloads (REST webhook payloads, API 2026-10). Only the fields used are
// declared; unknown fields are allowed and dropped.

const shopifyId = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, "must be a number")]).transform(String);
/** Money as Shopify writes it ("12.50", sometimes 12.5), in cents. */
const money = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, "must be an amount such as 12.50"),
  ])
  .transform((value) => Math.round(Number(value) * 100));
const timestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be a date and time")
  .transform((value) => new Date(value));
const text = z.string().nullish();
const quantity = z.number().int().nonnegative();

const addressSchema = z
  .object({
    first_name: text,
    last_name: text,
    name: text,
    address1: text,
    address2: text,
    city: text,
    province: text,
    province_code: text,
    zip: text,
    country: text,
    country_code: text,
    phone: text,
  })
  .nullish();

const fulfillmentLineSchema = z.object({ id: shopifyId, quantity });
const fulfillmentSchema = z.object({
  id: shopifyId,
  order_id: shopifyId,
  status: z.string().nullish(),
  created_at: timestamp.nullish(),
  tracking_company: text,
  tracking_number: text,
  line_items: z.array(fulfillmentLineSchema).nullish(),
});

const refundSchema = z.object({
  id: shopifyId,
  order_id: shopifyId,
  created_at: timestamp,
  processed_at: timestamp.nullish(),
  refund_line_items: z.array(z.object({ line_item_id: shopifyId, quantity })).nullish(),
  transactions: z.array(z.object({ kind: z.string().nullish(), status: z.string().nullish(), amount: money })).nullish(),
});

const orderSchema = z.object({
  id: shopifyId,
  name: text,
  order_number: z.number().int().nullish(),
  email: text,
  contact_email: text,
  customer: z.object({ email: text }).nullish(),
  created_at: timestamp,
  updated_at: timestamp,
  processed_at: timestamp.nullish(),
  cancelled_at: timestamp.nullish(),
  cancel_reason: text,
  total_price: money,
  financial_status: text,
  fulfillment_status: text,
  payment_gateway_names: z.array(z.string()).nullish(),
  note: text,
  billing_address: addressSchema,
  shipping_address: addressSchema,
  line_items: z
    .array(
      z.object({
        id: shopifyId,
        sku: text,
        name: text,
        title: text,
        quantity,
        // The quantity minus what was removed: refunded, or edited away (an order edit). Absent from older payloads.
        current_quantity: quantity.nullish(),
        price: money,
        requires_shipping: z.boolean().nullish(),
      }),
    )
    .nullish(),
  shipping_lines: z.array(z.object({ title: text, price: money })).nullish(),
  fulfillments: z.array(fulfillmentSchema).nullish(),
  refunds: z.array(refundSchema).nullish(),
});

export type ShopifyOrderPayload = z.infer<typeof orderSchema>;
export type ShopifyRefundPayload = z.infer<typeof refundSchema>;
export type ShopifyFulfillmentPayload = z.infer<typeof fulfillmentSchema>;

// ---------------------------------------------------------------------------
// The four entry points, one per kind of webhook.

/** orders/create and orders/updated: the order, its items, its sales records. */
export function upsertShopifyOrder(payload: unknown, meta: WebhookMeta): Promise<SyncOutcome> {
  return withValidPayload(orderSchema, payload, meta, "sale", (order) => inWebhookTransaction(meta, order.id, (tx) => applyOrderSnapshot(tx, order, meta)));
}

/**
 * orders/cancelled: the same order payload. Financial and fulfillment status
 * come from it and the cancellation is noted in the log; magento_status stays
 * the order system's.
 */
export function cancelOrder(payload: unknown, meta: WebhookMeta): Promise<SyncOutcome> {
  return withValidPayload(orderSchema, payload, meta, "sale", (order) =>
    inWebhookTransaction(meta, order.id, async (tx) => {
      // orders/cancelled says the order is cancelled, even should its payload lack the time (D226).
      const outcome = await applyOrderSnapshot(tx, { ...order, cancelled_at: order.cancelled_at ?? new Date() }, meta);
      if (outcome.status !== "applied") return outcome;
      // The snapshot's own account of what changed, as a code too (D116).
      const logged = logMessage("logs.realtime.cancelled", {
        order: outcome.orderId,
        when: order.cancelled_at ? order.cancelled_at.toISOString() : message("logs.realtime.no_cancelled_at"),
        reason: order.cancel_reason ? message("logs.realtime.cancel_reason", { reason: order.cancel_reason }) : "",
        status: order.financial_status ?? message("logs.realtime.none"),
        outcome: outcome.messageCode ?? outcome.message,
      });
      const text = logged.message;
      await tx.realtimeSalesLog.create({
        data: {
          event: "sale",
          order_increment_id: outcome.orderId,
          shopify_order_id: order.id,
          amount: 0,
          status: "success",
          ...jsonCoded(logged),
          payload: { ...orderSummary(order, meta), cancelled_at: order.cancelled_at?.toISOString() ?? null, cancel_reason: order.cancel_reason ?? null },
        },
      });
      return { ...outcome, message: text };
    }),
  );
}

/** refunds/create: a credit memo for the refunded money, and the refunded quantities on the items. */
export function applyRefund(payload: unknown, meta: WebhookMeta): Promise<SyncOutcome> {
  return withValidPayload(refundSchema, payload, meta, "refund", (refund) =>
    inWebhookTransaction(meta, refund.order_id, async (tx) => {
      const order = await tx.order.findUnique({ where: { shopify_order_id: refund.order_id }, select: { id: true, order_id: true } });
      if (!order) {
        const logged = logMessage("logs.realtime.refund_unknown_order", { refund: refund.id, shopify_order: refund.order_id });
        await tx.realtimeSalesLog.create({
          data: {
            event: "refund",
            shopify_order_id: refund.order_id,
            amount: centsToAmount(refundedCents(refund)),
            status: "error",
            ...jsonCoded(logged),
            payload: refundSummary(refund, meta),
          },
        });
        syncLog.warn(`${meta.topic} ${meta.webhookId}: ${logged.message}`);
        return { status: "unknown_order", message: logged.message, shopifyOrderId: refund.order_id };
      }
      const result = await recordRefund(tx, order, refund, meta);
      if (result === "created") {
        // Counted once: only when its credit memo is new (an orders/updated may have brought it first).
        const items = await tx.orderItem.findMany({
          where: { order_id: order.id, shopify_line_item_id: { not: null } },
          select: { item_id: true, shopify_line_item_id: true, qty_refunded: true },
        });
        const byLine = new Map(items.map((item) => [item.shopify_line_item_id!, item]));
        for (const line of refund.refund_line_items ?? []) {
          const item = byLine.get(line.line_item_id);
          if (item && line.quantity > 0) await tx.orderItem.update({ where: { item_id: item.item_id }, data: { qty_refunded: { increment: line.quantity } } });
        }
        await refreshOrderTotals(tx, order.id);
      }
      const message =
        result === "unchanged"
          ? `Refund ${refund.id} of order ${order.order_id} was recorded before; nothing changed.`
          : `Refund ${refund.id} of order ${order.order_id}: credit memo of ${formatCents(refundedCents(refund))} ${result}.`;
      return { status: "applied", message, orderId: order.order_id, shopifyOrderId: refund.order_id };
    }),
  );
}

/** fulfillments/create: shipped quantities on the items and the order's fulfillment status. */
export function applyFulfillment(payload: unknown, meta: WebhookMeta): Promise<SyncOutcome> {
  return withValidPayload(fulfillmentSchema, payload, meta, "shipping", (fulfillment) =>
    inWebhookTransaction(meta, fulfillment.order_id, async (tx) => {
      const order = await tx.order.findUnique({ where: { shopify_order_id: fulfillment.order_id }, select: { id: true, order_id: true } });
      if (!order) {
        const logged = logMessage("logs.realtime.fulfillment_unknown_order", { fulfillment: fulfillment.id, shopify_order: fulfillment.order_id });
        await tx.realtimeShippingLog.create({
          data: {
            shopify_order_id: fulfillment.order_id,
            tracking_number: fulfillment.tracking_number ?? null,
            tracking_carrier: fulfillment.tracking_company ?? null,
            status: "error",
            ...jsonCoded(logged),
            payload: shippingPayload(fulfillment, meta),
          },
        });
        syncLog.warn(`${meta.topic} ${meta.webhookId}: ${logged.message}`);
        return { status: "unknown_order", message: logged.message, shopifyOrderId: fulfillment.order_id };
      }
      const known = await knownFulfillments(tx, fulfillment.order_id);
      if (known.has(fulfillment.id)) {
        const message = `Fulfillment ${fulfillment.id} of order ${order.order_id} was recorded before; nothing changed.`;
        return { status: "applied", message, orderId: order.order_id, shopifyOrderId: fulfillment.order_id };
      }
      const items = await tx.orderItem.findMany({
        where: { order_id: order.id, shopify_line_item_id: { not: null } },
        select: { shopify_line_item_id: true, sku: true },
      });
      await logFulfillment(tx, order.order_id, fulfillment, meta, new Map(items.map((item) => [item.shopify_line_item_id!, item.sku])));
      await applyShippedQuantities(tx, order.id, fulfillment.order_id);
      const totals = await refreshOrderTotals(tx, order.id, { deriveFulfillmentStatus: true });
      const units = (fulfillment.line_items ?? []).reduce((sum, line) => sum + line.quantity, 0);
      const tracking = fulfillment.tracking_number ? `, tracking ${fulfillment.tracking_number}` : "";
      const message =
        `Fulfillment ${fulfillment.id} of order ${order.order_id} (${fulfillment.status ?? "no status"}, ${units} units${tracking}) ` +
        `recorded; order ${totals.fulfillment_status ?? "unfulfilled"}.`;
      return { status: "applied", message, orderId: order.order_id, shopifyOrderId: fulfillment.order_id };
    }),
  );
}

// ---------------------------------------------------------------------------
// Validation, idempotency and locking around every entry point.

type LogKind = "sale" | "refund" | "shipping";

async function withValidPayload<S extends z.ZodType>(
  schema: S,
  payload: unknown,
  meta: WebhookMeta,
  kind: LogKind,
  apply: (value: z.infer<S>) => Promise<SyncOutcome>,
): Promise<SyncOutcome> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return apply(parsed.data);
  const reason = parsed.error.issues
    .slice(0, 10)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "payload"}: ${issue.message}`)
    .join("; ");
  return recordInvalidPayload(payload, meta, kind, reason);
}

/** Answered 200 all the same: logged, and recorded once per webhook id. */
async function recordInvalidPayload(payload: unknown, meta: WebhookMeta, kind: LogKind, reason: string): Promise<SyncOutcome> {
  // The reason is zod's, about Shopify's payload: data inside our sentence.
  const logged = logMessage("logs.realtime.invalid_payload", { topic: meta.topic, webhook: meta.webhookId, shop: meta.shop, reason });
  const message = logged.message;
  const raw = (payload && typeof payload === "object" ? payload : {}) as Record<string, unknown>;
  const idOf = (value: unknown) => (typeof value === "number" || typeof value === "string" ? String(value) : null);
  const shopifyOrderId = (kind === "sale" ? idOf(raw.id) : idOf(raw.order_id)) ?? "unknown";
  const summary = { topic: meta.topic, webhook_id: meta.webhookId, shop: meta.shop, reason, id: idOf(raw.id), order_id: idOf(raw.order_id) };
  const recorded = await prisma.$transaction(async (tx) => {
    if (!(await claimWebhook(tx, meta))) return false;
    if (kind === "shipping") {
      await tx.realtimeShippingLog.create({ data: { shopify_order_id: shopifyOrderId, status: "error", ...jsonCoded(logged), payload: summary } });
    } else {
      await tx.realtimeSalesLog.create({
        data: { event: kind, shopify_order_id: shopifyOrderId, amount: 0, status: "error", ...jsonCoded(logged), payload: summary },
      });
    }
    return true;
  }, TRANSACTION_OPTIONS);
  if (!recorded) return duplicateOutcome(meta);
  syncLog.warn(message);
  return { status: "invalid", message };
}

async function inWebhookTransaction(meta: WebhookMeta, shopifyOrderId: string, work: (tx: Tx) => Promise<SyncOutcome>): Promise<SyncOutcome> {
  return prisma.$transaction(async (tx) => {
    if (!(await claimWebhook(tx, meta))) return duplicateOutcome(meta);
    await lockShopifyOrder(tx, shopifyOrderId);
    return work(tx);
  }, TRANSACTION_OPTIONS);
}

/** Inserts the webhook id; false when it was handled before (or is being handled now, which this waits for). */
async function claimWebhook(tx: Tx, meta: WebhookMeta): Promise<boolean> {
  const inserted = await tx.$queryRaw<Array<{ webhook_id: string }>>`
    INSERT INTO webhook_event (webhook_id, topic, shop) VALUES (${meta.webhookId}, ${meta.topic}, ${meta.shop})
    ON CONFLICT (webhook_id) DO NOTHING
    RETURNING webhook_id`;
  return inserted.length > 0;
}

function duplicateOutcome(meta: WebhookMeta): SyncOutcome {
  return { status: "duplicate", message: `${meta.topic} webhook ${meta.webhookId} was handled before; nothing changed.` };
}

// ---------------------------------------------------------------------------
// The order itself.

async function applyOrderSnapshot(tx: Tx, order: ShopifyOrderPayload, meta: WebhookMeta): Promise<SyncOutcome> {
  let row = await tx.order.findUnique({ where: { shopify_order_id: order.id } });
  if (row?.shopify_updated_at && order.updated_at < row.shopify_updated_at) {
    const message =
      `${meta.topic} webhook ${meta.webhookId} for order ${row.order_id} ignored: it shows the order as of ` +
      `${order.updated_at.toISOString()}, older than the ${row.shopify_updated_at.toISOString()} already stored.`;
    syncLog.info(message);
    return { status: "stale", message, orderId: row.order_id, shopifyOrderId: order.id };
  }

  const notes: RunMessage[] = [];
  const fields = orderFields(order);
  if (row) {
    row = await tx.order.update({ where: { id: row.id }, data: fields });
  } else {
    const number = orderNumber(order);
    const sameNumber = await tx.order.findUnique({ where: { order_id: number } });
    if (sameNumber && sameNumber.shopify_order_id === null) {
      // The order system knew the order first: link the rows.
      row = await tx.order.update({ where: { id: sameNumber.id }, data: { ...fields, shopify_order_id: order.id } });
      notes.push(message("logs.order_sync.linked", { number }));
    } else {
      const orderId = sameNumber ? order.id : number;
      if (sameNumber) notes.push(message("logs.order_sync.filed_under", { number, shopify: sameNumber.shopify_order_id, order: orderId }));
      row = await tx.order.create({ data: { ...fields, order_id: orderId, shopify_order_id: order.id, updated_at: order.created_at } });
      notes.push(message("logs.order_sync.created"));
    }
  }

  // Fulfillments seen in this payload are recorded first, so the shipped quantities count each once.
  const known = await knownFulfillments(tx, order.id);
  const skus = new Map((order.line_items ?? []).map((line) => [line.id, line.sku?.trim() ?? ""]));
  for (const fulfillment of order.fulfillments ?? []) {
    if (known.get(fulfillment.id)?.status !== (fulfillment.status ?? null)) await logFulfillment(tx, row.order_id, fulfillment, meta, skus);
  }
  await syncItems(tx, row.id, order, await shippedByLine(tx, order.id));
  await refreshOrderTotals(tx, row.id);

  const sales = await recordOrderSales(tx, row, order, meta);
  for (const refund of order.refunds ?? []) {
    const result = await recordRefund(tx, row, refund, meta);
    if (result !== "unchanged") sales.push(message(`logs.order_sync.credit_memo.${result}`, { refund: refund.id }));
  }
  const changes = [...notes, ...sales];
  const params = { order: row.order_id, shopify: order.id, topic: meta.topic };
  const coded = changes.length ? message("logs.order_sync.applied", { ...params, changes }) : message("logs.order_sync.updated", params);
  return { status: "applied", message: englishText(coded), messageCode: coded, orderId: row.order_id, shopifyOrderId: order.id };
}

/** The order number Shopify shows ("#1001" → "1001"), the increment id of an order new to the grid. */
export function orderNumber(order: Pick<ShopifyOrderPayload, "id" | "name" | "order_number">): string {
  const name = order.name?.replace(/^#/, "").trim();
  if (name) return name;
  if (order.order_number !== null && order.order_number !== undefined) return String(order.order_number);
  return order.id;
}

function orderFields(order: ShopifyOrderPayload) {
  const bill = order.billing_address;
  const ship = order.shipping_address;
  const skus = [...new Set((order.line_items ?? []).map((line) => line.sku?.trim()).filter((sku): sku is string => Boolean(sku)))];
  const shippingTitles = [...new Set((order.shipping_lines ?? []).map((line) => line.title?.trim()).filter(Boolean))];
  const street = [ship?.address1, ship?.address2]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join("\n");
  return {
    created_at: order.created_at,
    shopify_updated_at: order.updated_at,
    // Nothing more of a cancelled order goes to a vendor (D226); Shopify never takes a cancellation back.
    shopify_cancelled_at: order.cancelled_at ?? null,
    customer_email: blank(order.email) ?? blank(order.contact_email) ?? blank(order.customer?.email),
    concat_bill_to_name: personName(bill),
    concat_ship_to_name: personName(ship),
    concat_billing_address: concatAddress(bill),
    concat_shipping_address: concatAddress(ship),
    ship_first_name: blank(ship?.first_name),
    ship_last_name: blank(ship?.last_name),
    ship_street: street || null,
    ship_city: blank(ship?.city),
    ship_region: blank(ship?.province_code) ?? blank(ship?.province),
    ship_postcode: blank(ship?.zip),
    ship_country_id: blank(ship?.country_code) ?? blank(ship?.country),
    ship_phone: blank(ship?.phone),
    grand_total_purchased: centsToAmount(order.total_price),
    select_skus: skus.length ? skus.join(",") : null,
    fulfillment_status: blank(order.fulfillment_status) ?? "unfulfilled",
    financial_status: blank(order.financial_status),
    gift_card_used: (order.payment_gateway_names ?? []).some((gateway) => gateway.toLowerCase().includes("gift_card")) ? 1 : 0,
    shipping_description: shippingTitles.length ? shippingTitles.join(", ") : null,
    customer_notes: blank(order.note),
  };
}

type Address = NonNullable<ShopifyOrderPayload["billing_address"]>;

const blank = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);

function personName(address: Address | null | undefined): string | null {
  if (!address) return null;
  return (
    blank(address.name) ??
    blank(
      [address.first_name, address.last_name]
        .map((part) => part?.trim())
        .filter(Boolean)
        .join(" "),
    )
  );
}

/** As the grid shows addresses: "street, city, STATE zip, COUNTRY" (parts that are missing are left out). */
export function concatAddress(address: Address | null | undefined): string | null {
  if (!address) return null;
  const street = [address.address1, address.address2]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(" ");
  const stateZip = [blank(address.province_code) ?? blank(address.province), blank(address.zip)].filter(Boolean).join(" ");
  const country = blank(address.country_code) ?? blank(address.country);
  return blank([street, blank(address.city), stateZip, country].filter(Boolean).join(", "));
}

/**
 * Items by Shopify line item id. An order-system item of the same order without
 * a Shopify id is taken over by the first line with its SKU (linked orders), so
 * the order does not get its items twice. Refunded quantities only grow here
 * (a refund applied by refunds/create may be newer than this payload).
 */
async function syncItems(tx: Tx, orderRowId: number, order: ShopifyOrderPayload, shipped: Map<string, number>) {
  const lines = order.line_items ?? [];
  if (lines.length === 0) return;
  const existing = await tx.orderItem.findMany({ where: { order_id: orderRowId }, orderBy: { item_id: "asc" } });
  const linkedElsewhere = await tx.orderItem.findMany({
    where: { shopify_line_item_id: { in: lines.map((line) => line.id) }, NOT: { order_id: orderRowId } },
    select: { shopify_line_item_id: true },
  });
  const foreign = new Set(linkedElsewhere.map((item) => item.shopify_line_item_id));
  const byLine = new Map(existing.filter((item) => item.shopify_line_item_id).map((item) => [item.shopify_line_item_id!, item]));
  const unlinked = existing.filter((item) => !item.shopify_line_item_id);
  const refunded = new Map<string, number>();
  for (const refund of order.refunds ?? []) {
    for (const line of refund.refund_line_items ?? []) refunded.set(line.line_item_id, (refunded.get(line.line_item_id) ?? 0) + line.quantity);
  }
  for (const line of lines) {
    if (foreign.has(line.id)) continue;
    const sku = line.sku?.trim() ?? "";
    let item = byLine.get(line.id);
    if (!item && sku) {
      const index = unlinked.findIndex((candidate) => candidate.sku === sku);
      if (index >= 0) item = unlinked.splice(index, 1)[0];
    }
    const qtyRefunded = Math.max(item?.qty_refunded ?? 0, refunded.get(line.id) ?? 0);
    const qtyShipped = shipped.get(line.id) ?? 0;
    const data = {
      sku,
      name: blank(line.name) ?? blank(line.title) ?? sku,
      qty_ordered: line.quantity,
      price: centsToAmount(line.price),
      is_shippable: line.requires_shipping ?? true,
      qty_shipped: qtyShipped,
      qty_refunded: qtyRefunded,
      // A cancelled order ships nothing more: what was neither shipped nor refunded is cancelled. Otherwise what an
      // order edit removed (current_quantity counts refunds and edits alike, so the refunded units are taken out) (D226).
      qty_canceled: order.cancelled_at
        ? Math.max(0, line.quantity - qtyShipped - qtyRefunded)
        : Math.max(0, line.quantity - (line.current_quantity ?? line.quantity) - qtyRefunded),
      shopify_line_item_id: line.id,
    };
    if (item) await tx.orderItem.update({ where: { item_id: item.item_id }, data });
    else await tx.orderItem.create({ data: { ...data, order_id: orderRowId, created_time: order.created_at } });
  }
}

// ---------------------------------------------------------------------------
// Fulfillments: each one recorded in realtime_shipping_log (its latest status
// there), and the shipped quantities are the sum of those that succeeded.

const loggedFulfillmentSchema = z.object({
  fulfillment_id: z.string(),
  fulfillment_status: z.string().nullable(),
  lines: z.array(z.object({ line_item_id: z.string(), quantity: z.number() })),
});
type LoggedFulfillment = { status: string | null; lines: Array<{ line_item_id: string; quantity: number }> };

async function knownFulfillments(tx: Tx, shopifyOrderId: string): Promise<Map<string, LoggedFulfillment>> {
  const logs = await tx.realtimeShippingLog.findMany({
    where: { shopify_order_id: shopifyOrderId, status: "success" },
    orderBy: { id: "asc" },
    select: { payload: true },
  });
  const known = new Map<string, LoggedFulfillment>();
  for (const log of logs) {
    const parsed = loggedFulfillmentSchema.safeParse(log.payload);
    if (parsed.success) known.set(parsed.data.fulfillment_id, { status: parsed.data.fulfillment_status, lines: parsed.data.lines });
  }
  return known;
}

function shippingPayload(fulfillment: ShopifyFulfillmentPayload, meta: WebhookMeta) {
  return {
    fulfillment_id: fulfillment.id,
    fulfillment_status: fulfillment.status ?? null,
    lines: (fulfillment.line_items ?? []).map((line) => ({ line_item_id: line.id, quantity: line.quantity })),
    topic: meta.topic,
    webhook_id: meta.webhookId,
  };
}

/**
 * A fulfilment seen with a new status. A shipped one (success) is queued for
 * the AS400 unless another row sends it already (the drop-ship flow's, D26);
 * other statuses are recorded only.
 */
async function logFulfillment(tx: Tx, orderId: string, fulfillment: ShopifyFulfillmentPayload, meta: WebhookMeta, skuByLine: Map<string, string>) {
  const units = (fulfillment.line_items ?? []).reduce((sum, line) => sum + line.quantity, 0);
  let coded: RunMessage = message("logs.realtime.fulfillment", {
    fulfillment: fulfillment.id,
    status: fulfillment.status ?? message("logs.realtime.no_status"),
    units,
    topic: meta.topic,
  });
  const payload = shippingPayload(fulfillment, meta);
  let exported: ReturnType<typeof pendingExport> | null = null;
  if (fulfillment.status === SHIPPED) {
    const queuedBy = await shipmentQueuedBy(tx, fulfillment.order_id, fulfillment.id);
    if (queuedBy === null) {
      const record: ShipmentAs400Record = {
        fulfillment_id: fulfillment.id,
        source: "shopify",
        order_id: orderId,
        shopify_order_id: fulfillment.order_id,
        carrier: fulfillment.tracking_company ?? null,
        tracking_number: fulfillment.tracking_number ?? null,
        shipped_at: (fulfillment.created_at ?? new Date()).toISOString(),
        po_number: null,
        vendor: null,
        lines: (fulfillment.line_items ?? []).map((line) => ({ sku: skuByLine.get(line.id) ?? "", qty: line.quantity })),
      };
      exported = pendingExport(payload, record);
    } else {
      coded = message("logs.realtime.already_sent", { what: coded, log: queuedBy });
    }
  }
  await tx.realtimeShippingLog.create({
    data: {
      order_increment_id: orderId,
      shopify_order_id: fulfillment.order_id,
      tracking_number: fulfillment.tracking_number ?? null,
      tracking_carrier: fulfillment.tracking_company ?? null,
      status: "success",
      ...jsonCoded({ message: englishText(coded), message_code: coded }),
      payload,
      ...exported,
    },
  });
}

/** Units shipped per Shopify line item: the sum over the recorded fulfillments that succeeded. */
async function shippedByLine(tx: Tx, shopifyOrderId: string): Promise<Map<string, number>> {
  const shipped = new Map<string, number>();
  for (const fulfillment of (await knownFulfillments(tx, shopifyOrderId)).values()) {
    if (fulfillment.status !== SHIPPED) continue;
    for (const line of fulfillment.lines) shipped.set(line.line_item_id, (shipped.get(line.line_item_id) ?? 0) + line.quantity);
  }
  return shipped;
}

/** qty_shipped of each Shopify item of the order, from its recorded fulfillments. */
async function applyShippedQuantities(tx: Tx, orderRowId: number, shopifyOrderId: string) {
  const shipped = await shippedByLine(tx, shopifyOrderId);
  const items = await tx.orderItem.findMany({
    where: { order_id: orderRowId, shopify_line_item_id: { not: null } },
    select: { item_id: true, shopify_line_item_id: true, qty_shipped: true },
  });
  for (const item of items) {
    const qty = shipped.get(item.shopify_line_item_id!) ?? 0;
    if (qty !== item.qty_shipped) await tx.orderItem.update({ where: { item_id: item.item_id }, data: { qty_shipped: qty } });
  }
}

/**
 * The order's totals from its items: units still to ship (ordered less refunded
 * and cancelled, shippable items only) and units shipped. With
 * deriveFulfillmentStatus (a fulfillment webhook, which does not carry the
 * order's status) the fulfillment status follows from them. An unfulfilled
 * order whose every unit was refunded or cancelled needs no fulfilment (D156).
 */
async function refreshOrderTotals(tx: Tx, orderRowId: number, options: { deriveFulfillmentStatus?: boolean } = {}) {
  const items = await tx.orderItem.findMany({
    where: { order_id: orderRowId },
    select: { qty_ordered: true, qty_refunded: true, qty_canceled: true, qty_shipped: true, is_shippable: true },
  });
  const shippable = items
    .filter((item) => item.is_shippable)
    .reduce((sum, item) => sum + Math.max(0, item.qty_ordered - item.qty_refunded - item.qty_canceled), 0);
  const shipped = items.reduce((sum, item) => sum + item.qty_shipped, 0);
  const current = await tx.order.findUniqueOrThrow({ where: { id: orderRowId }, select: { fulfillment_status: true } });
  let fulfillmentStatus = current.fulfillment_status;
  if (options.deriveFulfillmentStatus && shipped > 0) fulfillmentStatus = shipped >= shippable ? "fulfilled" : "partial";
  const nothingLeft = items.length > 0 && items.every((item) => item.qty_ordered - item.qty_refunded - item.qty_canceled <= 0);
  if (shipped === 0 && nothingLeft && (fulfillmentStatus === "unfulfilled" || fulfillmentStatus === null)) fulfillmentStatus = NOT_REQUIRED;
  return tx.order.update({
    where: { id: orderRowId },
    data: { total_shippable_qty_ordered: shippable, total_shipped: shipped, fulfillment_status: fulfillmentStatus },
    select: { fulfillment_status: true },
  });
}

// ---------------------------------------------------------------------------
// Sales records (Daily Sales) and the realtime sales log.

type SalesRecordResult = "created" | "updated" | "unchanged";

/** One record per (source_key, record_type): created, or its amount corrected; replays change nothing. */
async function putSalesRecord(
  tx: Tx,
  record: { source_key: string; record_type: string; cents: number; record_date: Date; order_increment_id: string; shopify_order_id: string },
): Promise<SalesRecordResult> {
  const existing = await tx.salesRecord.findUnique({ where: { source_key_record_type: { source_key: record.source_key, record_type: record.record_type } } });
  const amount = centsToAmount(record.cents);
  if (!existing) {
    await tx.salesRecord.create({
      data: {
        source_key: record.source_key,
        record_type: record.record_type,
        amount,
        record_date: record.record_date,
        order_increment_id: record.order_increment_id,
        shopify_order_id: record.shopify_order_id,
      },
    });
    return "created";
  }
  if (Math.round(Number(existing.amount) * 100) === record.cents && existing.order_increment_id === record.order_increment_id) return "unchanged";
  await tx.salesRecord.update({ where: { id: existing.id }, data: { amount, order_increment_id: record.order_increment_id } });
  return "updated";
}

/** The invoice (total_price) and shipping invoice (shipping lines) of a paid order. */
async function recordOrderSales(tx: Tx, row: { order_id: string }, order: ShopifyOrderPayload, meta: WebhookMeta): Promise<RunMessage[]> {
  if (!PAID_FINANCIAL_STATUSES.includes(order.financial_status ?? "")) return [];
  const done: RunMessage[] = [];
  const recordDate = dateInAppTimeZone(order.processed_at ?? order.created_at);
  const base = { source_key: `order:${order.id}`, record_date: recordDate, order_increment_id: row.order_id, shopify_order_id: order.id };
  const invoice = await putSalesRecord(tx, { ...base, record_type: "invoice", cents: order.total_price });
  if (invoice !== "unchanged") {
    await logSale(
      tx,
      "sale",
      row.order_id,
      order.id,
      order.total_price,
      message(`logs.realtime.invoice.${invoice}`, { amount: moneyParam(order.total_price / 100), order: row.order_id, status: order.financial_status }),
      {
        ...orderSummary(order, meta),
        record_type: "invoice",
      },
      salesAs400Record(base, "sale", "invoice", invoice, order.total_price, order.id),
    );
    done.push(message(`logs.order_sync.invoice.${invoice}`));
  }
  const shippingCents = (order.shipping_lines ?? []).reduce((sum, line) => sum + line.price, 0);
  const hasShippingRecord =
    shippingCents !== 0 || (await tx.salesRecord.count({ where: { source_key: base.source_key, record_type: "shipping_invoice" } })) > 0;
  if (hasShippingRecord) {
    const shipping = await putSalesRecord(tx, { ...base, record_type: "shipping_invoice", cents: shippingCents });
    if (shipping !== "unchanged") {
      await logSale(
        tx,
        "sale",
        row.order_id,
        order.id,
        shippingCents,
        message(`logs.realtime.shipping_invoice.${shipping}`, { amount: moneyParam(shippingCents / 100), order: row.order_id }),
        {
          ...orderSummary(order, meta),
          record_type: "shipping_invoice",
        },
        salesAs400Record(base, "sale", "shipping_invoice", shipping, shippingCents, order.id),
      );
      done.push(message(`logs.order_sync.shipping_invoice.${shipping}`));
    }
  }
  return done;
}

/** The credit memo of one refund: the money its successful refund transactions returned. */
async function recordRefund(tx: Tx, row: { order_id: string }, refund: ShopifyRefundPayload, meta: WebhookMeta): Promise<SalesRecordResult> {
  const cents = refundedCents(refund);
  const record = {
    source_key: `refund:${refund.id}`,
    record_type: "credit_memo",
    cents,
    record_date: dateInAppTimeZone(refund.processed_at ?? refund.created_at),
    order_increment_id: row.order_id,
    shopify_order_id: refund.order_id,
  };
  const result = await putSalesRecord(tx, record);
  if (result !== "unchanged") {
    await logSale(
      tx,
      "refund",
      row.order_id,
      refund.order_id,
      cents,
      message(`logs.realtime.credit_memo.${result}`, { amount: moneyParam(cents / 100), refund: refund.id, order: row.order_id }),
      refundSummary(refund, meta),
      salesAs400Record(record, "refund", "credit_memo", result, cents, refund.id),
    );
  }
  return result;
}

export function refundedCents(refund: Pick<ShopifyRefundPayload, "transactions">): number {
  return (refund.transactions ?? [])
    .filter((transaction) => (transaction.kind ?? "refund") === "refund" && (transaction.status ?? "success") === "success")
    .reduce((sum, transaction) => sum + transaction.amount, 0);
}

/** Logs a sales record that is new or changed, queued for the AS400 (D26). */
async function logSale(
  tx: Tx,
  event: "sale" | "refund",
  orderId: string,
  shopifyOrderId: string,
  cents: number,
  coded: RunMessage,
  payload: Prisma.InputJsonObject,
  record: SalesAs400Record,
) {
  await tx.realtimeSalesLog.create({
    data: {
      event,
      order_increment_id: orderId,
      shopify_order_id: shopifyOrderId,
      amount: centsToAmount(cents),
      status: "success",
      ...jsonCoded({ message: englishText(coded), message_code: coded }),
      ...pendingExport(payload, record),
    },
  });
}

/** A log message's text and code as Prisma takes them (D114). */
const jsonCoded = (logged: { message: string; message_code: RunMessage }) => ({
  message: logged.message,
  message_code: logged.message_code as Prisma.InputJsonValue,
});

/** What the AS400's realtime sales file says about a sales record (docs/as400-files.md). */
function salesAs400Record(
  record: { source_key: string; record_date: Date; order_increment_id: string; shopify_order_id: string },
  event: "sale" | "refund",
  recordType: SalesAs400Record["record_type"],
  result: SalesRecordResult,
  cents: number,
  sourceId: string,
): SalesAs400Record {
  return {
    record_key: `${record.source_key}/${recordType}`,
    event,
    record_type: recordType,
    change: result === "created" ? "new" : "correction",
    order_id: record.order_increment_id,
    shopify_order_id: record.shopify_order_id,
    source_id: sourceId,
    amount: centsToAmount(Math.abs(cents)),
    record_date: record.record_date.toISOString().slice(0, 10),
  };
}

function orderSummary(order: ShopifyOrderPayload, meta: WebhookMeta): Prisma.InputJsonObject {
  return {
    topic: meta.topic,
    webhook_id: meta.webhookId,
    shop: meta.shop,
    shopify_order_id: order.id,
    name: order.name ?? null,
    financial_status: order.financial_status ?? null,
    fulfillment_status: order.fulfillment_status ?? null,
    total_price: centsToAmount(order.total_price),
    updated_at: order.updated_at.toISOString(),
    line_items: (order.line_items ?? []).length,
  };
}

function refundSummary(refund: ShopifyRefundPayload, meta: WebhookMeta): Prisma.InputJsonObject {
  return {
    topic: meta.topic,
    webhook_id: meta.webhookId,
    shop: meta.shop,
    refund_id: refund.id,
    shopify_order_id: refund.order_id,
    amount: centsToAmount(refundedCents(refund)),
    created_at: refund.created_at.toISOString(),
    lines: (refund.refund_line_items ?? []).map((line) => ({ line_item_id: line.line_item_id, quantity: line.quantity })),
  };
}

// ---------------------------------------------------------------------------
// Small conversions.

const centsToAmount = (cents: number) => (cents / 100).toFixed(2);
const formatCents = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The calendar day of `instant` in APP_TIMEZONE, as the midnight (UTC) a date column stores. */
const dateInAppTimeZone = (instant: Date): Date => dateOnly(dayIn(env().APP_TIMEZONE, instant));
