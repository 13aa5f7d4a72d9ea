// Order sync. Shopify's order webhooks over real HTTP to the built app in
// embedded mode (signed with the app secret, as embedded-auth.test.ts does):
// HMAC checked, rows upserted once per webhook id, older updates ignored,
// refunds and fulfillments counted once. Then the order-status file feed
// against a loopback SFTP server standing in for the order system.
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { startLoopbackAs400, type LoopbackAs400 } from "../support/loopback-as400";
import { startAppServer, type RunningApp } from "../support/app-server";
import { webhookAppEnv } from "../support/embedded-app";

const API_KEY = "test-api-key";
const SECRET = "test-api-secret";
const SHOP = "test-shop.myshopify.com";

let app: RunningApp;
let db: PrismaClient;

// Ids of this run, so the shared test database's other rows never interfere.
const RUN = Math.floor(Math.random() * 1_000_000);
let nextId = 0;
const used = { shopifyIds: new Set<string>(), orderIds: new Set<string>(), webhookIds: new Set<string>() };
const shopifyId = () => {
  const id = 7_100_000_000_000 + RUN * 1000 + ++nextId;
  used.shopifyIds.add(String(id));
  return id;
};
const orderNumber = () => {
  const number = 800_000_000 + RUN * 100 + ++nextId;
  used.orderIds.add(String(number));
  return number;
};

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  db = createPrismaClient(process.env.DATABASE_URL!);
  app = await startAppServer(webhookAppEnv({ apiKey: API_KEY, secret: SECRET, shop: SHOP }, process.env.DATABASE_URL!, { APP_TIMEZONE: "America/New_York" }));
}, 90_000);

afterAll(async () => {
  await app?.stop();
  if (!db) return;
  // Leave the shared test database as this file found it.
  const shopifyIds = [...used.shopifyIds];
  await db.salesRecord.deleteMany({ where: { shopify_order_id: { in: shopifyIds } } });
  await db.realtimeSalesLog.deleteMany({ where: { shopify_order_id: { in: shopifyIds } } });
  await db.realtimeShippingLog.deleteMany({ where: { shopify_order_id: { in: shopifyIds } } });
  await db.order.deleteMany({
    where: { OR: [{ shopify_order_id: { in: shopifyIds } }, { order_id: { in: [...used.orderIds] } }, { order_id: { startsWith: `OS${RUN}-` } }] },
  });
  await db.webhookEvent.deleteMany({ where: { webhook_id: { in: [...used.webhookIds] } } });
  await db.transmission.deleteMany({ where: { partner: "order_system", file_name: { startsWith: `status_${RUN}_` } } });
  await db.$disconnect();
});

interface Sent {
  status: number;
  body: { status?: string; message?: string } | null;
}

/** POSTs a webhook as Shopify does: the raw body's HMAC-SHA256 (base64) under the app secret. */
async function sendWebhook(topic: string, payload: unknown, options: { webhookId?: string; secret?: string } = {}): Promise<Sent> {
  const body = JSON.stringify(payload);
  const webhookId = options.webhookId ?? randomUUID();
  used.webhookIds.add(webhookId);
  const response = await fetch(`${app.url}/webhooks/${topic}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": createHmac("sha256", options.secret ?? SECRET)
        .update(body)
        .digest("base64"),
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": SHOP,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-triggered-at": new Date().toISOString(),
    },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Sent["body"]) : null };
}

const address = (first: string, last: string) => ({
  first_name: first,
  last_name: last,
  name: `${first} ${last}`,
  address1: "12 Main St",
  address2: "Apt 4",
  city: "Chicago",
  province: "Illinois",
  province_code: "IL",
  zip: "60601",
  country: "United States",
  country_code: "US",
  phone: "312-555-0100",
});

/** An orders/* payload (REST, API 2026-10) with two lines, paid, $5 shipping; only the fields sync reads, and a few it ignores. */
function orderPayload(overrides: Record<string, unknown> = {}) {
  const id = shopifyId();
  const number = orderNumber();
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${number}`,
    order_number: number,
    email: "jane.doe@example.com",
    created_at: "2026-03-09T21:30:00-05:00",
    updated_at: "2026-03-09T21:30:05-05:00",
    processed_at: "2026-03-09T21:30:00-05:00",
    cancelled_at: null,
    currency: "USD",
    total_price: "65.00",
    subtotal_price: "60.00",
    financial_status: "paid",
    fulfillment_status: null,
    payment_gateway_names: ["gift_card", "shopify_payments"],
    note: "Leave at the back door",
    tags: "",
    billing_address: address("Jane", "Doe"),
    shipping_address: address("John", "Doe"),
    line_items: [
      {
        id: id * 10 + 1,
        sku: "SKU-A",
        name: "Trail Runner 9 - 10",
        title: "Trail Runner 9",
        quantity: 2,
        price: "20.00",
        requires_shipping: true,
        fulfillable_quantity: 2,
      },
      {
        id: id * 10 + 2,
        sku: "SKU-B",
        name: "Summit Cap 2",
        title: "Summit Cap 2",
        quantity: 1,
        price: "20.00",
        requires_shipping: true,
        fulfillable_quantity: 1,
      },
    ],
    shipping_lines: [{ id: 1, title: "Standard - Ground", price: "5.00", code: "ground" }],
    fulfillments: [],
    refunds: [],
    ...overrides,
  };
}

type OrderPayload = ReturnType<typeof orderPayload>;
const lineId = (order: OrderPayload, index: number) => order.line_items[index].id;

async function orderRow(shopifyOrderId: number) {
  return db.order.findUnique({ where: { shopify_order_id: String(shopifyOrderId) }, include: { items: { orderBy: { item_id: "asc" } } } });
}

/** Everything a webhook of this order could change. */
async function snapshot(shopifyOrderId: number) {
  const id = String(shopifyOrderId);
  return {
    order: await orderRow(shopifyOrderId),
    sales: await db.salesRecord.findMany({ where: { shopify_order_id: id }, orderBy: { id: "asc" } }),
    salesLogs: await db.realtimeSalesLog.count({ where: { shopify_order_id: id } }),
    shippingLogs: await db.realtimeShippingLog.count({ where: { shopify_order_id: id } }),
    webhooks: await db.webhookEvent.count(),
  };
}

describe("order webhooks", () => {
  it("accepts a signed orders/create and upserts the order, its items and its sales records", async () => {
    const order = orderPayload();
    const sent = await sendWebhook("orders/create", order);
    expect(sent.status).toBe(200);
    expect(sent.body?.status).toBe("applied");

    const row = await orderRow(order.id);
    expect(row).toMatchObject({
      order_id: String(order.order_number),
      customer_email: "jane.doe@example.com",
      concat_bill_to_name: "Jane Doe",
      concat_ship_to_name: "John Doe",
      concat_billing_address: "12 Main St Apt 4, Chicago, IL 60601, US",
      concat_shipping_address: "12 Main St Apt 4, Chicago, IL 60601, US",
      ship_first_name: "John",
      ship_last_name: "Doe",
      ship_street: "12 Main St\nApt 4",
      ship_city: "Chicago",
      ship_region: "IL",
      ship_postcode: "60601",
      ship_country_id: "US",
      ship_phone: "312-555-0100",
      select_skus: "SKU-A,SKU-B",
      fulfillment_status: "unfulfilled",
      financial_status: "paid",
      gift_card_used: 1,
      shipping_description: "Standard - Ground",
      customer_notes: "Leave at the back door",
      magento_status: null,
      total_shippable_qty_ordered: 3,
      total_shipped: 0,
    });
    expect(Number(row!.grand_total_purchased)).toBe(65);
    expect(row!.created_at.toISOString()).toBe("2026-03-10T02:30:00.000Z");
    expect(row!.shopify_updated_at!.toISOString()).toBe("2026-03-10T02:30:05.000Z");
    expect(row!.items.map((item) => [item.shopify_line_item_id, item.sku, item.name, item.qty_ordered, Number(item.price)])).toEqual([
      [String(lineId(order, 0)), "SKU-A", "Trail Runner 9 - 10", 2, 20],
      [String(lineId(order, 1)), "SKU-B", "Summit Cap 2", 1, 20],
    ]);

    // Paid: an invoice for the total and a shipping invoice, dated the order's day in APP_TIMEZONE (21:30 in New York).
    const sales = await db.salesRecord.findMany({ where: { shopify_order_id: String(order.id) }, orderBy: { record_type: "asc" } });
    expect(sales.map((s) => [s.record_type, s.source_key, Number(s.amount), s.record_date.toISOString().slice(0, 10), s.order_increment_id])).toEqual([
      ["invoice", `order:${order.id}`, 65, "2026-03-09", String(order.order_number)],
      ["shipping_invoice", `order:${order.id}`, 5, "2026-03-09", String(order.order_number)],
    ]);
    const logs = await db.realtimeSalesLog.findMany({ where: { shopify_order_id: String(order.id) }, orderBy: { id: "asc" } });
    expect(logs.map((log) => [log.event, log.status, Number(log.amount)])).toEqual([
      ["sale", "success", 65],
      ["sale", "success", 5],
    ]);
    expect(logs[0].payload).toMatchObject({ topic: "ORDERS_CREATE", record_type: "invoice", financial_status: "paid" });
  });

  it("refuses a webhook with a forged HMAC and writes nothing", async () => {
    const order = orderPayload();
    const webhookId = randomUUID();
    const before = await db.webhookEvent.count();
    const sent = await sendWebhook("orders/create", order, { webhookId, secret: "not-the-secret" });
    expect(sent.status).toBe(401);
    expect(await orderRow(order.id)).toBeNull();
    expect(await db.webhookEvent.findUnique({ where: { webhook_id: webhookId } })).toBeNull();
    expect(await db.webhookEvent.count()).toBe(before);
    expect(await db.salesRecord.count({ where: { shopify_order_id: String(order.id) } })).toBe(0);
  });

  it("changes nothing when the same webhook id comes twice", async () => {
    const order = orderPayload();
    expect((await sendWebhook("orders/create", order)).body?.status).toBe("applied");
    const webhookId = randomUUID();
    const update = { ...order, updated_at: "2026-03-09T22:00:00-05:00", email: "jane@new.example.com", total_price: "70.00" };
    expect((await sendWebhook("orders/updated", update, { webhookId })).body?.status).toBe("applied");
    const before = await snapshot(order.id);
    expect(before.order!.customer_email).toBe("jane@new.example.com");

    // Shopify's retry of the same delivery, and even another body under the same id.
    const again = await sendWebhook("orders/updated", update, { webhookId });
    expect(again.status).toBe(200);
    expect(again.body?.status).toBe("duplicate");
    const other = await sendWebhook("orders/updated", { ...update, updated_at: "2026-03-09T23:00:00-05:00", email: "someone@else.example.com" }, { webhookId });
    expect(other.body?.status).toBe("duplicate");

    const after = await snapshot(order.id);
    expect(after).toEqual(before);
    expect(after.order!.updated_at).toEqual(before.order!.updated_at);
  });

  it("applies a delivery once when copies arrive at the same time, and a new order's webhooks one after another", async () => {
    const order = orderPayload();
    const webhookId = randomUUID();
    const copies = await Promise.all(Array.from({ length: 5 }, () => sendWebhook("orders/create", order, { webhookId })));
    expect(copies.map((sent) => sent.status)).toEqual([200, 200, 200, 200, 200]);
    expect(copies.map((sent) => sent.body?.status).sort()).toEqual(["applied", "duplicate", "duplicate", "duplicate", "duplicate"]);

    const other = orderPayload();
    const burst = await Promise.all([
      sendWebhook("orders/create", other),
      sendWebhook("orders/updated", { ...other, updated_at: "2026-03-09T21:31:00-05:00", email: "later@example.com" }),
      sendWebhook("fulfillments/create", { id: shopifyId(), order_id: other.id, status: "success", line_items: [{ id: lineId(other, 1), quantity: 1 }] }),
    ]);
    expect(burst.map((sent) => sent.status)).toEqual([200, 200, 200]);
    expect(await db.order.count({ where: { shopify_order_id: String(other.id) } })).toBe(1);
    expect(await db.salesRecord.count({ where: { source_key: `order:${other.id}`, record_type: "invoice" } })).toBe(1);
    expect((await orderRow(other.id))!.customer_email).toBe("later@example.com");
  });

  it("ignores an orders/updated older than the one already applied", async () => {
    const order = orderPayload();
    await sendWebhook("orders/create", order);
    const newer = {
      ...order,
      updated_at: "2026-03-10T09:00:00-05:00",
      email: "newer@example.com",
      financial_status: "partially_refunded",
      fulfillment_status: "partial",
    };
    const older = { ...order, updated_at: "2026-03-10T08:00:00-05:00", email: "older@example.com", financial_status: "paid", fulfillment_status: null };
    const created = await orderRow(order.id);
    expect((await sendWebhook("orders/updated", newer)).body?.status).toBe("applied");
    // "Updated At" is the order system's time: Shopify's update moves only "Updated At (Shopify)".
    expect((await orderRow(order.id))!.updated_at).toEqual(created!.updated_at);
    const sent = await sendWebhook("orders/updated", older);
    expect(sent.status).toBe(200);
    expect(sent.body?.status).toBe("stale");
    expect(sent.body?.message).toContain("older than");
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ customer_email: "newer@example.com", financial_status: "partially_refunded", fulfillment_status: "partial" });
    expect(row!.shopify_updated_at!.toISOString()).toBe("2026-03-10T14:00:00.000Z");
    // The stale webhook is remembered too: its retry is a duplicate.
  });

  it("makes one credit memo per refund, whether it comes by refunds/create or inside orders/updated", async () => {
    const order = orderPayload();
    await sendWebhook("orders/create", order);
    const refund = {
      id: shopifyId(),
      order_id: order.id,
      created_at: "2026-03-11T10:00:00-05:00",
      processed_at: "2026-03-11T10:00:00-05:00",
      note: "too small",
      restock: true,
      refund_line_items: [{ id: 1, line_item_id: lineId(order, 0), quantity: 1, restock_type: "return", subtotal: 20, total_tax: 0 }],
      transactions: [
        { id: 2, kind: "refund", status: "success", amount: "20.00", gateway: "shopify_payments" },
        { id: 3, kind: "refund", status: "failure", amount: "20.00", gateway: "shopify_payments" },
      ],
      order_adjustments: [],
    };
    const sent = await sendWebhook("refunds/create", refund);
    expect(sent.body?.status).toBe("applied");
    const memos = () => db.salesRecord.findMany({ where: { shopify_order_id: String(order.id), record_type: "credit_memo" } });
    expect((await memos()).map((m) => [m.source_key, Number(m.amount), m.record_date.toISOString().slice(0, 10)])).toEqual([
      [`refund:${refund.id}`, 20, "2026-03-11"],
    ]);
    let row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_refunded)).toEqual([1, 0]);
    expect(row!.total_shippable_qty_ordered).toBe(2);

    // Another delivery of the refund (new webhook id), then the order update that carries it.
    expect((await sendWebhook("refunds/create", refund)).body?.message).toContain("recorded before");
    await sendWebhook("orders/updated", { ...order, updated_at: "2026-03-11T10:00:01-05:00", financial_status: "partially_refunded", refunds: [refund] });
    expect((await memos()).length).toBe(1);
    row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_refunded)).toEqual([1, 0]);
    expect(row!.financial_status).toBe("partially_refunded");
    expect(await db.realtimeSalesLog.count({ where: { shopify_order_id: String(order.id), event: "refund" } })).toBe(1);
  });

  it("records a refund that orders/updated brought first only once when refunds/create follows", async () => {
    const order = orderPayload();
    await sendWebhook("orders/create", order);
    const refund = {
      id: shopifyId(),
      order_id: order.id,
      created_at: "2026-03-12T10:00:00-05:00",
      refund_line_items: [{ line_item_id: lineId(order, 1), quantity: 1 }],
      transactions: [{ kind: "refund", status: "success", amount: "25.00" }],
    };
    await sendWebhook("orders/updated", { ...order, updated_at: "2026-03-12T10:00:00-05:00", financial_status: "partially_refunded", refunds: [refund] });
    await sendWebhook("refunds/create", refund);
    const row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_refunded)).toEqual([0, 1]);
    const memos = await db.salesRecord.findMany({ where: { source_key: `refund:${refund.id}` } });
    expect(memos.map((m) => Number(m.amount))).toEqual([25]);
  });

  it("updates qty_shipped and the fulfillment status from fulfillments/create, counting each fulfillment once", async () => {
    const order = orderPayload();
    await sendWebhook("orders/create", order);
    const first = {
      id: shopifyId(),
      order_id: order.id,
      status: "success",
      created_at: "2026-03-10T12:00:00-05:00",
      service: "manual",
      tracking_company: "UPS",
      tracking_number: "1Z999AA10123456784",
      line_items: [{ id: lineId(order, 0), quantity: 2, sku: "SKU-A", fulfillment_status: "fulfilled" }],
    };
    expect((await sendWebhook("fulfillments/create", first)).body?.status).toBe("applied");
    let row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_shipped)).toEqual([2, 0]);
    expect(row).toMatchObject({ fulfillment_status: "partial", total_shipped: 2, total_shippable_qty_ordered: 3 });
    const log = await db.realtimeShippingLog.findFirst({ where: { shopify_order_id: String(order.id) } });
    expect(log).toMatchObject({
      tracking_number: "1Z999AA10123456784",
      tracking_carrier: "UPS",
      status: "success",
      order_increment_id: String(order.order_number),
    });

    const second = { ...first, id: shopifyId(), tracking_number: "1Z999AA10123456785", line_items: [{ id: lineId(order, 1), quantity: 1 }] };
    await sendWebhook("fulfillments/create", second);
    await sendWebhook("fulfillments/create", second); // another delivery of it
    row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_shipped)).toEqual([2, 1]);
    expect(row).toMatchObject({ fulfillment_status: "fulfilled", total_shipped: 3 });

    // The order update that carries both fulfillments does not count them again.
    await sendWebhook("orders/updated", { ...order, updated_at: "2026-03-10T12:00:01-05:00", fulfillment_status: "fulfilled", fulfillments: [first, second] });
    row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_shipped)).toEqual([2, 1]);
    expect(row).toMatchObject({ fulfillment_status: "fulfilled", total_shipped: 3 });
    expect(await db.realtimeShippingLog.count({ where: { shopify_order_id: String(order.id) } })).toBe(2);

    // A cancelled fulfillment no longer counts.
    await sendWebhook("orders/updated", {
      ...order,
      updated_at: "2026-03-10T13:00:00-05:00",
      fulfillment_status: "partial",
      fulfillments: [first, { ...second, status: "cancelled" }],
    });
    row = await orderRow(order.id);
    expect(row!.items.map((item) => item.qty_shipped)).toEqual([2, 0]);
    expect(row).toMatchObject({ fulfillment_status: "partial", total_shipped: 2 });
  });

  it("links an order the order system knew first, keeping its status and items", async () => {
    const order = orderPayload();
    const existing = await db.order.create({
      data: {
        order_id: String(order.order_number),
        magento_status: "processing",
        marketplace_source: "AMAZON_US",
        updated_at: new Date("2026-03-09T00:00:00Z"),
        items: { create: [{ sku: "SKU-A", name: "Trail Runner 9", qty_ordered: 2, price: 20 }] },
      },
      include: { items: true },
    });
    expect((await sendWebhook("orders/create", order)).body?.message).toContain("linked");
    const row = await orderRow(order.id);
    expect(row!.id).toBe(existing.id);
    expect(row).toMatchObject({ magento_status: "processing", marketplace_source: "AMAZON_US", customer_email: "jane.doe@example.com" });
    // The order system's time of the row stays; Shopify's goes to shopify_updated_at.
    expect(row!.updated_at.toISOString()).toBe("2026-03-09T00:00:00.000Z");
    expect(row!.items.map((item) => [item.item_id === existing.items[0].item_id, item.sku, item.shopify_line_item_id])).toEqual([
      [true, "SKU-A", String(lineId(order, 0))],
      [false, "SKU-B", String(lineId(order, 1))],
    ]);
  });

  it("orders/cancelled takes the financial and fulfillment status and notes the cancellation, keeping magento_status", async () => {
    const order = orderPayload({ financial_status: "pending" });
    await sendWebhook("orders/create", order);
    await db.order.update({ where: { shopify_order_id: String(order.id) }, data: { magento_status: "processing" } });
    const cancelled = {
      ...order,
      updated_at: "2026-03-10T08:00:00-05:00",
      cancelled_at: "2026-03-10T08:00:00-05:00",
      cancel_reason: "customer",
      financial_status: "voided",
    };
    expect((await sendWebhook("orders/cancelled", cancelled)).body?.status).toBe("applied");
    const row = await orderRow(order.id);
    // Nothing left to fulfil, nothing shipped: not "unfulfilled" (what Shopify 2026-10 calls FULFILLMENT_NOT_REQUIRED).
    expect(row).toMatchObject({ magento_status: "processing", financial_status: "voided", fulfillment_status: "not_required", total_shippable_qty_ordered: 0 });
    expect(row!.items.map((item) => item.qty_canceled)).toEqual([2, 1]);
    const log = await db.realtimeSalesLog.findFirst({ where: { shopify_order_id: String(order.id) }, orderBy: { id: "desc" } });
    expect(log!.message).toContain("cancelled in Shopify (2026-03-10T13:00:00.000Z, reason customer)");
    // Never paid: no sales records.
    expect(await db.salesRecord.count({ where: { shopify_order_id: String(order.id) } })).toBe(0);
  });

  it("answers 200 to a payload it cannot use, and records the reason once", async () => {
    const webhookId = randomUUID();
    const id = shopifyId();
    const bad = { id, name: "#1", created_at: "yesterday", updated_at: "2026-03-10T08:00:00-05:00", total_price: "lots" };
    const sent = await sendWebhook("orders/updated", bad, { webhookId });
    expect(sent.status).toBe(200);
    expect(sent.body?.status).toBe("invalid");
    expect(sent.body?.message).toMatch(/created_at: must be a date and time.*total_price/);
    expect((await sendWebhook("orders/updated", bad, { webhookId })).body?.status).toBe("duplicate");
    const logs = await db.realtimeSalesLog.findMany({ where: { shopify_order_id: String(id) } });
    expect(logs.map((log) => [log.event, log.status])).toEqual([["sale", "error"]]);
    expect(await orderRow(id)).toBeNull();

    const badRefund = await sendWebhook("refunds/create", {
      id: 5,
      order_id: id,
      created_at: "2026-03-10T08:00:00Z",
      transactions: [{ kind: "refund", amount: "x" }],
    });
    expect(badRefund.body?.status).toBe("invalid");
    expect(await db.realtimeSalesLog.count({ where: { shopify_order_id: String(id), event: "refund", status: "error" } })).toBe(1);
  });

  it("reports a refund or fulfillment of an order it does not know, answering 200", async () => {
    const orderId = shopifyId();
    const refund = await sendWebhook("refunds/create", { id: shopifyId(), order_id: orderId, created_at: "2026-03-10T08:00:00Z", transactions: [] });
    expect(refund).toMatchObject({ status: 200, body: { status: "unknown_order" } });
    const fulfillment = await sendWebhook("fulfillments/create", { id: shopifyId(), order_id: orderId, status: "success", line_items: [] });
    expect(fulfillment).toMatchObject({ status: 200, body: { status: "unknown_order" } });
    expect(await db.realtimeSalesLog.count({ where: { shopify_order_id: String(orderId), status: "error" } })).toBe(1);
    expect(await db.realtimeShippingLog.count({ where: { shopify_order_id: String(orderId), status: "error" } })).toBe(1);
  });
});

// ---------------------------------------------------------------------------

describe("order-status file feed", () => {
  let root: string;
  let sftp: LoopbackAs400;
  let feed: typeof import("../../app/orders/order-status-feed.server");
  let folder: string;
  const prefix = `OS${RUN}-`;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "order-status-"));
    sftp = await startLoopbackAs400(root, { APP_TIMEZONE: "America/New_York" });
    feed = await import("../../app/orders/order-status-feed.server");
    folder = path.join(root, feed.ORDER_STATUS_FOLDER);
    mkdirSync(folder, { recursive: true });
    await db.order.createMany({
      data: ["A", "B", "C"].map((key) => ({ order_id: `${prefix}${key}`, magento_status: "pending", updated_at: new Date("2026-11-20T12:00:00Z") })),
    });
  });

  afterAll(async () => {
    const { closeFeedPool } = await import("../../app/feeds/runner.server");
    await closeFeedPool();
    await sftp?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const statusOf = (key: string) => db.order.findUniqueOrThrow({ where: { order_id: `${prefix}${key}` } });
  const transmissions = () =>
    db.transmission.findMany({
      where: { partner: "order_system", transaction_set: "order_status", file_name: { startsWith: `status_${RUN}_` } },
      orderBy: { id: "asc" },
    });

  it("reads times with an offset, in APP_TIMEZONE without one, and DB2 timestamps", () => {
    const zone = "America/New_York";
    expect(feed.parseOrderSystemTime("2026-11-21T14:05:00-05:00", zone)!.toISOString()).toBe("2026-11-21T19:05:00.000Z");
    expect(feed.parseOrderSystemTime("2026-11-21 14:05:00", zone)!.toISOString()).toBe("2026-11-21T19:05:00.000Z");
    expect(feed.parseOrderSystemTime("2026-07-01 14:05", zone)!.toISOString()).toBe("2026-07-01T18:05:00.000Z");
    expect(feed.parseOrderSystemTime("2026-11-21-14.05.00.123456", zone)!.toISOString()).toBe("2026-11-21T19:05:00.123Z");
    expect(feed.parseOrderSystemTime("2026-11-21T19:05:00Z", zone)!.toISOString()).toBe("2026-11-21T19:05:00.000Z");
    for (const bad of ["2026-11-21", "2026-02-30 10:00", "21/11/2026 10:00", "soon"]) expect(feed.parseOrderSystemTime(bad, zone)).toBeNull();
  });

  it("applies the rows, reports unknown orders, skips older rows and archives the file", async () => {
    const content = [
      "Order ID,Magento Status,marketplace_source,marketplace_order_id,ca_site_order_id,ca_order_id,refer_source_name,allocated_sources,updated_at,comment",
      `${prefix}A,Processing,AMAZON_US,114-1234567-7654321,123456,98765432,Amazon,"001,DS01",2026-11-21 09:00:00,first`,
      `${prefix}B,complete,,,,,Organic Revenue,001,2026-11-20 06:59:59,older than the grid`,
      `${prefix}ZZZ,complete,,,,,,,2026-11-21 09:00:00,unknown`,
      `${prefix}C,,EBAY_STORES,,,,,,not a time,bad row`,
    ].join("\r\n");
    writeFileSync(path.join(folder, `status_${RUN}_001.csv`), content);
    writeFileSync(path.join(folder, `notes_${RUN}.txt`), "not a csv: left alone");

    const result = await feed.importOrderStatusFiles();
    expect(result.meta).toMatchObject({
      files_stored: 1,
      files_applied: 1,
      rows_applied: 1,
      rows_older_skipped: 1,
      rows_unknown_order: 1,
      rows_invalid: 1,
      unknown_orders: [`${prefix}ZZZ`],
    });
    expect(result.message).toContain(`${prefix}ZZZ`);
    expect(result.error).toBe(true); // the unreadable row

    expect(await statusOf("A")).toMatchObject({
      magento_status: "processing",
      marketplace_source: "AMAZON_US",
      marketplace_order_id: "114-1234567-7654321",
      ca_site_order_id: "123456",
      ca_order_id: "98765432",
      refer_source_name: "Amazon",
      allocated_sources: "001,DS01",
      updated_at: new Date("2026-11-21T14:00:00Z"),
    });
    expect(await statusOf("B")).toMatchObject({ magento_status: "pending", refer_source_name: null });
    expect(await statusOf("C")).toMatchObject({ magento_status: "pending", marketplace_source: null });

    const [stored] = await transmissions();
    expect(stored).toMatchObject({ status: "processed", direction: "in", vendor_id: null, remote_path: `${feed.ORDER_STATUS_FOLDER}/status_${RUN}_001.csv` });
    expect(stored.error).toContain(`order ${prefix}ZZZ is not in the order grid`);
    expect(stored.error).toContain("updated_at");
    expect(readdirSync(folder).sort()).toEqual(["archive", `notes_${RUN}.txt`]);
    expect(readdirSync(path.join(folder, "archive"))).toEqual([`status_${RUN}_001.csv`]);
  });

  it("takes the same content under another name as a new file (D59); its older rows change nothing", async () => {
    const first = (await transmissions())[0];
    writeFileSync(path.join(folder, `status_${RUN}_001_again.csv`), Buffer.from(first.content));
    // The order moved on after the file's row (14:00Z): the resend's row is older and skipped.
    await db.order.update({ where: { order_id: `${prefix}A` }, data: { magento_status: "complete", updated_at: new Date("2026-11-21T14:30:00Z") } });
    const result = await feed.importOrderStatusFiles();
    expect(result.meta).toMatchObject({ files_stored: 1, files_applied: 1 });
    expect(result.meta).not.toHaveProperty("files_seen_before");
    expect(await transmissions()).toHaveLength(2);
    expect((await statusOf("A")).magento_status).toBe("complete"); // not set back to processing
    expect(readdirSync(folder)).not.toContain(`status_${RUN}_001_again.csv`);
  });

  it("keeps a malformed file with its error and still applies the next one, through the order_sync feed", async () => {
    writeFileSync(path.join(folder, `status_${RUN}_002.csv`), `order_id,magento_status\n${prefix}C,canceled\n`);
    writeFileSync(path.join(folder, `status_${RUN}_003.csv`), `order_id,magento_status,updated_at\n${prefix}C,Canceled,2026-11-22T08:00:00-05:00\n`);
    const { runFeed } = await import("../../app/feeds/runner.server");
    const run = await runFeed("order_sync", feed.importOrderStatusFiles);
    expect(run.status).toBe("finished");
    expect(run.error).toBe(true);
    expect(run.message).toContain(`status_${RUN}_002.csv refused`);

    const [, , bad, good] = await transmissions();
    expect(bad).toMatchObject({ file_name: `status_${RUN}_002.csv`, status: "failed" });
    expect(bad.error).toContain("missing required column updated_at");
    expect(Buffer.from(bad.content).toString()).toContain(`${prefix}C,canceled`);
    expect(good).toMatchObject({ file_name: `status_${RUN}_003.csv`, status: "processed", error: null });
    // Only the columns the file has are set.
    expect(await statusOf("C")).toMatchObject({ magento_status: "canceled", marketplace_source: null, updated_at: new Date("2026-11-22T13:00:00Z") });
    expect(readdirSync(folder).sort()).toEqual(["archive", `notes_${RUN}.txt`]);
  });

  it("reads the example of docs/as400-files.md without errors", () => {
    const doc = readFileSync("docs/as400-files.md", "utf8");
    const section = doc.slice(doc.indexOf("## Order status file"));
    const example = /```csv\n([\s\S]*?)```/.exec(section)![1];
    const read = feed.readOrderStatusFile(example, "America/New_York");
    expect(read.errors).toEqual([]);
    expect(read.fields).toEqual([...feed.ORDER_STATUS_FIELDS]);
    expect(read.rows.map((row) => [row.order_id, row.values.magento_status, row.values.allocated_sources, row.updated_at.toISOString()])).toEqual([
      ["100045001", "processing", "001,DS01", "2026-11-21T14:00:00.000Z"],
      ["100045002", "complete", "001", "2026-11-21T14:02:10.000Z"],
      ["100045003", "canceled", null, "2026-11-21T14:05:00.000Z"],
    ]);
    expect(doc).toContain(feed.ORDER_STATUS_FOLDER);
  });

  it("refuses a file without the columns it needs, or empty, with a readable error", () => {
    expect(() => feed.readOrderStatusFile("")).toThrow("the file is empty");
    expect(() => feed.readOrderStatusFile("order,status\n1,complete\n")).toThrow(
      "missing required columns order_id, updated_at (the header row has: order, status)",
    );
    const read = feed.readOrderStatusFile("\uFEFForder_id,updated_at\n1,2026-11-21 10:00\n2,2026-11-21 10:00,extra\n,2026-11-21 10:00\n\n");
    expect(read.rows.map((row) => row.order_id)).toEqual(["1"]);
    expect(read.fields).toEqual([]);
    expect(read.errors).toEqual(["line 3: 3 values but the header has 2 columns (a comma in a value that is not quoted?)", "line 4, order_id: empty"]);
  });
});
