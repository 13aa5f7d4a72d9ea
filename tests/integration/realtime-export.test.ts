// The realtime logs as the AS400's outbox (D26). Shopify's webhooks over real
// HTTP to the built app (embedded mode, signed as Shopify signs them) leave
// pending rows with the record to send; the realtime_as400_export feed sends
// them as files to a loopback SFTP server playing the AS400, where the files
// are read back. The AS400 down: rows failed with the error, sent once at the
// next run. Replays never send twice; neither does a drop-ship shipment that
// Shopify's webhook reports again.
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { startAppServer, type RunningApp } from "../support/app-server";
import { AS400_USERS, startLoopbackAs400 } from "../support/loopback-as400";
import { webhookAppEnv } from "../support/embedded-app";

const SECRET = "test-api-secret";
const SHOP = "test-shop.myshopify.com";

let app: RunningApp;
let db: PrismaClient;
let sftp: SftpTestServer;
let root: string;
let exporter: typeof import("../../app/as400/realtime-export.server");
let outbox: typeof import("../../app/as400/realtime-outbox.server");
let appPrisma: typeof import("../../app/db.server").default;
let firstTransmissionId = 0;

// Ids of this run, so the shared test database's other rows never interfere.
const RUN = Math.floor(Math.random() * 1_000_000);
let nextId = 0;
const shopifyIds = new Set<string>();
const webhookIds = new Set<string>();
const newShopifyId = () => {
  const id = 7_300_000_000_000 + RUN * 1000 + ++nextId;
  shopifyIds.add(String(id));
  return id;
};

beforeAll(async () => {
  db = createPrismaClient(process.env.DATABASE_URL!);
  root = mkdtempSync(path.join(tmpdir(), "realtime-as400-"));
  sftp = await startLoopbackAs400(root, { APP_TIMEZONE: "America/New_York" });
  exporter = await import("../../app/as400/realtime-export.server");
  outbox = await import("../../app/as400/realtime-outbox.server");
  appPrisma = (await import("../../app/db.server")).default;
  firstTransmissionId = ((await db.transmission.aggregate({ _max: { id: true } }))._max.id ?? 0) + 1;
  app = await startAppServer(
    webhookAppEnv({ apiKey: "test-api-key", secret: SECRET, shop: SHOP }, process.env.DATABASE_URL!, { APP_TIMEZONE: "America/New_York" }),
  );
}, 120_000);

afterAll(async () => {
  await (await import("../../app/feeds/runner.server")).closeFeedPool();
  await app?.stop();
  await sftp?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (!db) return;
  const ids = [...shopifyIds];
  await db.salesRecord.deleteMany({ where: { shopify_order_id: { in: ids } } });
  await db.realtimeSalesLog.deleteMany({ where: { shopify_order_id: { in: ids } } });
  await db.realtimeShippingLog.deleteMany({ where: { shopify_order_id: { in: ids } } });
  await db.order.deleteMany({ where: { shopify_order_id: { in: ids } } });
  await db.webhookEvent.deleteMany({ where: { webhook_id: { in: [...webhookIds] } } });
  await db.transmission.deleteMany({ where: { id: { gte: firstTransmissionId }, transaction_set: { in: ["realtime_sales", "realtime_shipping"] } } });
  await db.feedLog.deleteMany({ where: { feed_name: "realtime_as400_export" } });
  await db.feed.deleteMany({ where: { name: "realtime_as400_export" } });
  await db.$disconnect();
});

async function sendWebhook(topic: string, payload: unknown, webhookId: string = randomUUID()) {
  const body = JSON.stringify(payload);
  webhookIds.add(webhookId);
  const response = await fetch(`${app.url}/webhooks/${topic}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "x-shopify-hmac-sha256": createHmac("sha256", SECRET).update(body).digest("base64"),
      "x-shopify-topic": topic,
      "x-shopify-shop-domain": SHOP,
      "x-shopify-api-version": "2026-10",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-triggered-at": new Date().toISOString(),
    },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; message: string };
}

/** A paid order of two lines (2 x SKU-A at $20, 1 x SKU-B at $20) plus $5 shipping. */
function orderPayload(overrides: Record<string, unknown> = {}) {
  const id = newShopifyId();
  const number = 700_000_000 + RUN * 100 + nextId;
  return {
    id,
    name: `#${number}`,
    order_number: number,
    email: "jane.doe@example.com",
    created_at: "2026-03-09T21:30:00-05:00",
    updated_at: "2026-03-09T21:30:05-05:00",
    processed_at: "2026-03-09T21:30:00-05:00",
    total_price: "65.00",
    financial_status: "paid",
    fulfillment_status: null,
    line_items: [
      { id: id * 10 + 1, sku: "SKU-A", name: "Trail Runner 9", quantity: 2, price: "20.00", requires_shipping: true },
      { id: id * 10 + 2, sku: "SKU-B", name: "Summit Cap 2", quantity: 1, price: "20.00", requires_shipping: true },
    ],
    shipping_lines: [{ title: "Standard - Ground", price: "5.00" }],
    fulfillments: [],
    refunds: [],
    ...overrides,
  };
}

type Line = Record<string, string>;

/** Every line of every file the AS400 received in `folder`, with its file name. */
function received(folder: "sales" | "shipping"): Array<Line & { file: string }> {
  const dir = path.join(root, "as400", "realtime", folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(".csv"))
    .flatMap((file) => (parseCsv(readFileSync(path.join(dir, file)), { columns: true, bom: true }) as Line[]).map((line) => ({ ...line, file })));
}
const linesOf = (folder: "sales" | "shipping", shopifyOrderId: string) => received(folder).filter((line) => line.shopify_order_id === shopifyOrderId);

const salesRows = (shopifyOrderId: string) => db.realtimeSalesLog.findMany({ where: { shopify_order_id: shopifyOrderId }, orderBy: { id: "asc" } });
const shippingRows = (shopifyOrderId: string) => db.realtimeShippingLog.findMany({ where: { shopify_order_id: shopifyOrderId }, orderBy: { id: "asc" } });

describe("sales, refunds and shipments to the AS400", () => {
  const order = orderPayload();
  const orderId = String(order.id);
  const refund = {
    id: newShopifyId(),
    order_id: order.id,
    created_at: "2026-03-10T10:00:00-05:00",
    refund_line_items: [{ line_item_id: order.id * 10 + 2, quantity: 1 }],
    transactions: [{ kind: "refund", status: "success", amount: "20.00" }],
  };
  const fulfillment = {
    id: newShopifyId(),
    order_id: order.id,
    status: "success",
    created_at: "2026-03-10T12:00:00-05:00",
    tracking_company: "UPS",
    tracking_number: "1Z999AA10123456784",
    line_items: [{ id: order.id * 10 + 1, quantity: 2 }],
  };
  const refundWebhookId = randomUUID();

  it("records each sale, refund and shipment as pending, with the record it will send", async () => {
    expect((await sendWebhook("orders/create", order)).status).toBe("applied");
    expect((await sendWebhook("refunds/create", refund, refundWebhookId)).status).toBe("applied");
    expect((await sendWebhook("fulfillments/create", fulfillment)).status).toBe("applied");

    const sales = await salesRows(orderId);
    expect(sales.map((row) => [row.event, Number(row.amount), row.as400_status])).toEqual([
      ["sale", 65, "pending"],
      ["sale", 5, "pending"],
      ["refund", 20, "pending"],
    ]);
    expect((sales[0].payload as { as400: unknown }).as400).toEqual({
      record_key: `order:${orderId}/invoice`,
      event: "sale",
      record_type: "invoice",
      change: "new",
      order_id: order.name.slice(1),
      shopify_order_id: orderId,
      source_id: orderId,
      amount: "65.00",
      record_date: "2026-03-09",
    });
    expect((sales[2].payload as { as400: unknown }).as400).toMatchObject({
      record_key: `refund:${refund.id}/credit_memo`,
      record_type: "credit_memo",
      source_id: String(refund.id),
      amount: "20.00",
      record_date: "2026-03-10",
    });

    const [shipment] = await shippingRows(orderId);
    expect(shipment).toMatchObject({ status: "success", as400_status: "pending", tracking_number: "1Z999AA10123456784", as400_file_name: null });
    expect((shipment.payload as { as400: unknown }).as400).toEqual({
      fulfillment_id: String(fulfillment.id),
      source: "shopify",
      order_id: order.name.slice(1),
      shopify_order_id: orderId,
      carrier: "UPS",
      tracking_number: "1Z999AA10123456784",
      shipped_at: "2026-03-10T17:00:00.000Z",
      po_number: null,
      vendor: null,
      lines: [{ sku: "SKU-A", qty: 2 }],
    });
  });

  it("sends them as files to the AS400 and records the file and time on each row", async () => {
    const before = Date.now();
    const result = await exporter.exportRealtimeLogs();
    expect(result.error ?? false).toBe(false);

    const sales = linesOf("sales", orderId);
    expect(sales.map((line) => [line.event, line.record_type, line.amount, line.change, line.order_id])).toEqual([
      ["sale", "invoice", "65.00", "new", order.name.slice(1)],
      ["sale", "shipping_invoice", "5.00", "new", order.name.slice(1)],
      ["refund", "credit_memo", "20.00", "new", order.name.slice(1)],
    ]);
    const shipping = linesOf("shipping", orderId);
    expect(shipping).toEqual([
      expect.objectContaining({
        fulfillment_id: String(fulfillment.id),
        source: "shopify",
        sku: "SKU-A",
        qty: "2",
        carrier: "UPS",
        tracking_number: "1Z999AA10123456784",
        po_number: "",
        vendor: "",
      }),
    ]);

    for (const row of [...(await salesRows(orderId)), ...(await shippingRows(orderId))]) {
      expect(row.as400_status).toBe("sent");
      expect(row.as400_error).toBeNull();
      expect(row.as400_sent_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const [invoice] = await salesRows(orderId);
    expect(invoice.as400_file_name).toBe(sales[0].file);
    expect(sales[0].log_id).toBe(String(invoice.id));
    expect(sales[0].file).toMatch(/^SALES_\d{8}T\d{6}Z_\d+-\d+\.csv$/);
    // The file is kept as it was sent.
    const stored = await db.transmission.findFirstOrThrow({ where: { file_name: sales[0].file } });
    expect(stored).toMatchObject({
      partner: "as400",
      direction: "out",
      status: "sent",
      transaction_set: "realtime_sales",
      remote_path: `/as400/realtime/sales/${sales[0].file}`,
    });
    expect(Buffer.from(stored.content).equals(readFileSync(path.join(root, "as400", "realtime", "sales", sales[0].file)))).toBe(true);

    // Nothing is sent twice.
    await exporter.exportRealtimeLogs();
    expect(linesOf("sales", orderId)).toHaveLength(3);
    expect(linesOf("shipping", orderId)).toHaveLength(1);
  });

  it("sends nothing again for a replayed webhook or the same refund and fulfilment inside orders/updated", async () => {
    expect((await sendWebhook("refunds/create", refund, refundWebhookId)).status).toBe("duplicate");
    const updated = {
      ...order,
      updated_at: "2026-03-10T12:05:00-05:00",
      financial_status: "partially_refunded",
      fulfillment_status: "partial",
      refunds: [refund],
      fulfillments: [fulfillment],
    };
    expect((await sendWebhook("orders/updated", updated)).status).toBe("applied");
    expect((await sendWebhook("fulfillments/create", fulfillment)).status).toBe("applied");
    expect((await salesRows(orderId)).map((row) => row.as400_status)).toEqual(["sent", "sent", "sent"]);
    expect((await shippingRows(orderId)).map((row) => row.as400_status)).toEqual(["sent"]);

    await exporter.exportRealtimeLogs();
    expect(linesOf("sales", orderId)).toHaveLength(3);
    expect(linesOf("shipping", orderId)).toHaveLength(1);
  });

  it("sends a changed invoice as a correction of the same record", async () => {
    const changed = {
      ...order,
      updated_at: "2026-03-10T13:00:00-05:00",
      total_price: "60.00",
      financial_status: "partially_refunded",
      refunds: [refund],
      fulfillments: [fulfillment],
    };
    expect((await sendWebhook("orders/updated", changed)).status).toBe("applied");
    await exporter.exportRealtimeLogs();
    const invoices = linesOf("sales", orderId).filter((line) => line.record_type === "invoice");
    expect(invoices.map((line) => [line.record_key, line.amount, line.change])).toEqual([
      [`order:${orderId}/invoice`, "65.00", "new"],
      [`order:${orderId}/invoice`, "60.00", "correction"],
    ]);
  });
});

describe("when the AS400 is down", () => {
  it("records the rows as failed with the error, and the next run sends them once under the same file name", async () => {
    const order = orderPayload({ total_price: "42.50", shipping_lines: [] });
    const orderId = String(order.id);
    expect((await sendWebhook("orders/create", order)).status).toBe("applied");
    expect((await salesRows(orderId)).map((row) => row.as400_status)).toEqual(["pending"]);

    await sftp.stop();
    const down = await exporter.exportRealtimeLogs();
    expect(down.error).toBe(true);
    const [failed] = await salesRows(orderId);
    expect(failed.as400_status).toBe("failed");
    expect(failed.as400_error).toMatch(/AS400/);
    expect(failed.as400_sent_at).toBeNull();
    expect(failed.as400_attempts).toBe(1);
    expect(failed.as400_file_name).toMatch(/^SALES_/);
    expect(await db.transmission.findFirstOrThrow({ where: { file_name: failed.as400_file_name! } })).toMatchObject({ status: "prepared", attempts: 1 });
    expect(linesOf("sales", orderId)).toEqual([]);

    sftp = await startSftpServer({ root, users: AS400_USERS, port: sftp.port, hostKeyPem: sftp.hostKeyPem });
    // The next run, as the scheduler makes it: the registry's feed through the runner.
    const { FEED_JOBS } = await import("../../jobs/registry");
    const { runFeed } = await import("../../app/feeds/runner.server");
    expect(FEED_JOBS.realtime_as400_export.defaultCron).toBe("* * * * *");
    const up = await runFeed("realtime_as400_export", FEED_JOBS.realtime_as400_export.run);
    expect(up).toMatchObject({ status: "finished", error: false });
    const [sent] = await salesRows(orderId);
    expect(sent).toMatchObject({ as400_status: "sent", as400_error: null, as400_file_name: failed.as400_file_name, as400_attempts: 2 });
    expect(linesOf("sales", orderId).map((line) => [line.amount, line.file])).toEqual([["42.50", failed.as400_file_name]]);

    await exporter.exportRealtimeLogs();
    expect(linesOf("sales", orderId)).toHaveLength(1);
  });
});

describe("what could go wrong in the app", () => {
  it("sets aside a row whose record cannot be written, and still sends the others", async () => {
    const bad = newShopifyId();
    const good = orderPayload({ total_price: "12.00", shipping_lines: [] });
    expect((await sendWebhook("orders/create", good)).status).toBe("applied");
    const broken = await db.realtimeSalesLog.create({
      data: { event: "sale", shopify_order_id: String(bad), amount: 1, status: "success", payload: { as400: { record_key: "x" } }, as400_status: "pending" },
    });
    const result = await exporter.exportRealtimeLogs();
    expect(result.error).toBe(true);
    expect(result.message).toContain("set aside");
    expect(await db.realtimeSalesLog.findUniqueOrThrow({ where: { id: broken.id } })).toMatchObject({ as400_status: "failed", as400_transmission_id: null });
    expect((await db.realtimeSalesLog.findUniqueOrThrow({ where: { id: broken.id } })).as400_error).toMatch(/^Not sent: payload.as400 is not a sales record/);
    expect(linesOf("sales", String(bad))).toEqual([]);
    expect(linesOf("sales", String(good.id)).map((line) => line.amount)).toEqual(["12.00"]);
    expect((await salesRows(String(good.id)))[0].as400_status).toBe("sent");
  });

  it("never sends a row twice when two runs go at once", async () => {
    const orders = [orderPayload({ total_price: "31.00", shipping_lines: [] }), orderPayload({ total_price: "32.00", shipping_lines: [] })];
    for (const order of orders) expect((await sendWebhook("orders/create", order)).status).toBe("applied");
    await Promise.all([exporter.exportRealtimeLogs(), exporter.exportRealtimeLogs()]);
    for (const order of orders) {
      expect(linesOf("sales", String(order.id))).toHaveLength(1);
      expect((await salesRows(String(order.id)))[0]).toMatchObject({ as400_status: "sent", as400_attempts: 1 });
    }
  });
});

describe("the files as docs/as400-files.md shows them", () => {
  it("writes the documented examples byte for byte from the records that make them", async () => {
    const files = await import("../../app/as400/realtime-files");
    const doc = readFileSync("docs/as400-files.md", "utf8");
    const examples = [...doc.matchAll(/```csv\n([\s\S]*?)```/g)].map((match) => match[1]);
    const sales = examples.find((example) => example.startsWith("log_id,record_key"))!;
    const shipping = examples.find((example) => example.startsWith("log_id,fulfillment_id"))!;
    // Rebuilt from the documented lines through the records a log row carries.
    const salesRows = (parseCsv(sales, { columns: true }) as Line[]).map((line) => ({
      id: Number(line.log_id),
      created_at: new Date(line.logged_at),
      payload: {
        as400: {
          record_key: line.record_key,
          event: line.event,
          record_type: line.record_type,
          change: line.change,
          order_id: line.order_id,
          shopify_order_id: line.shopify_order_id,
          source_id: line.source_id,
          amount: line.amount,
          record_date: line.record_date,
        },
      },
    }));
    const written = files.realtimeCsv(
      files.SALES_FILE_COLUMNS,
      salesRows.flatMap((row) => files.salesFileLines(row) as string[][]),
    );
    expect(written.toString()).toBe(sales.replace(/\n/g, "\r\n"));
    const shipments = new Map<
      string,
      { id: number; created_at: Date; payload: { as400: Record<string, unknown> & { lines: Array<{ sku: string; qty: number }> } } }
    >();
    for (const line of parseCsv(shipping, { columns: true }) as Line[]) {
      const row = shipments.get(line.log_id) ?? {
        id: Number(line.log_id),
        created_at: new Date(line.logged_at),
        payload: {
          as400: {
            fulfillment_id: line.fulfillment_id,
            source: line.source,
            order_id: line.order_id,
            shopify_order_id: line.shopify_order_id,
            carrier: line.carrier || null,
            tracking_number: line.tracking_number || null,
            shipped_at: line.shipped_at,
            po_number: line.po_number || null,
            vendor: line.vendor || null,
            lines: [],
          },
        },
      };
      row.payload.as400.lines.push({ sku: line.sku, qty: Number(line.qty) });
      shipments.set(line.log_id, row);
    }
    const writtenShipping = files.realtimeCsv(
      files.SHIPPING_FILE_COLUMNS,
      [...shipments.values()].flatMap((row) => files.shippingFileLines(row) as string[][]),
    );
    expect(writtenShipping.toString()).toBe(shipping.replace(/\n/g, "\r\n"));
    expect(files.realtimeFileName("SALES", new Date("2026-11-21T19:05:12.345Z"), 1041, 1044)).toBe("SALES_20261121T190512Z_1041-1044.csv");
  });
});

describe("drop-ship shipments", () => {
  async function seedOrder() {
    const order = orderPayload({ financial_status: "pending" });
    expect((await sendWebhook("orders/create", order)).status).toBe("applied");
    return order;
  }
  const shipment = (order: { id: number; name: string }, fulfillmentId: number) => ({
    shopifyOrderId: String(order.id),
    orderId: order.name.slice(1),
    fulfillmentId: `gid://shopify/Fulfillment/${fulfillmentId}`,
    createdInShopify: true,
    poNumber: `PO${order.name.slice(1)}-1`,
    vendorName: "Acme Outdoor Supply",
    responseId: 1,
    sku: "SKU-B",
    qty: 1,
    trackingNumber: "9400111",
    carrier: "USPS",
  });
  /** Shopify's fulfillments/create for the same shipment (SKU-B by USPS), applied. */
  async function sendFulfillmentWebhook(order: { id: number }, fulfillmentId: number) {
    const webhook = {
      id: fulfillmentId,
      order_id: order.id,
      status: "success",
      tracking_company: "USPS",
      tracking_number: "9400111",
      line_items: [{ id: order.id * 10 + 2, quantity: 1 }],
    };
    expect((await sendWebhook("fulfillments/create", webhook)).status).toBe("applied");
  }

  it("are sent once when Shopify's webhook reports the fulfilment after the drop-ship flow recorded it", async () => {
    const order = await seedOrder();
    const fulfillmentId = newShopifyId();
    await appPrisma.$transaction((tx) => outbox.recordDropshipShipment(tx, shipment(order, fulfillmentId)));
    await sendFulfillmentWebhook(order, fulfillmentId);

    const rows = await shippingRows(String(order.id));
    expect(rows.map((row) => row.as400_status)).toEqual(["pending", null]);
    expect(rows[1].message).toContain(`Already sent to the AS400 with log ${rows[0].id}`);
    // The webhook's row still counts the shipped quantity.
    const items = await db.orderItem.findMany({ where: { order: { shopify_order_id: String(order.id) } }, orderBy: { item_id: "asc" } });
    expect(items.map((item) => item.qty_shipped)).toEqual([0, 1]);

    await exporter.exportRealtimeLogs();
    expect(linesOf("shipping", String(order.id))).toEqual([
      expect.objectContaining({
        fulfillment_id: String(fulfillmentId),
        source: "dropship",
        sku: "SKU-B",
        qty: "1",
        carrier: "USPS",
        tracking_number: "9400111",
        po_number: `PO${order.name.slice(1)}-1`,
        vendor: "Acme Outdoor Supply",
      }),
    ]);
  });

  it("are recorded by the drop-ship flow when it fulfils a vendor's 856 in Shopify, and sent", async () => {
    const { startShopifyStandIn } = await import("../../app/shopify/stand-in.server");
    const { databaseCatalog } = await import("../../app/shopify/stand-in-catalog.server");
    const standIn = await startShopifyStandIn({ catalog: databaseCatalog(appPrisma) });
    process.env.SHOPIFY_STAND_IN_URL = standIn.url;
    (await import("../../app/env.server")).reloadEnv();
    const order = await seedOrder();
    const row = await db.order.findUniqueOrThrow({ where: { shopify_order_id: String(order.id) }, include: { items: true } });
    const item = row.items.find((candidate) => candidate.sku === "SKU-B")!;
    const vendor = await db.vendor.create({ data: { name: `RT Vendor ${RUN}`, store_id: `RT${RUN}` } });
    const assignment = await db.assignment.create({
      data: {
        order_increment_id: row.order_id,
        shopify_order_id: row.shopify_order_id,
        item_id: item.item_id,
        product_sku: "SKU-B",
        qty_assigned: 1,
        store_id: vendor.store_id,
        dropshipper_name: vendor.name,
        assign_status: 3,
      },
    });
    try {
      const request = await db.dropshipRequest.create({
        data: {
          vendor_id: vendor.id,
          vendor_name: vendor.name,
          assignment_id: assignment.id,
          po_number: `PO${row.order_id}-${assignment.id}`,
          order_increment_id: row.order_id,
          item_sku: "SKU-B",
          qty: 1,
          ship_name_first: "Jane",
          ship_name_last: "Doe",
          ship_address: "12 Main St",
          ship_city: "Chicago",
          ship_state: "IL",
          ship_zip: "60601",
          country_id: "US",
          status: "sent",
        },
      });
      const response = await db.dropshipResponse.create({
        data: {
          request_id: request.request_id,
          vendor_id: vendor.id,
          vendor_name: vendor.name,
          assignment_id: assignment.id,
          po_number: request.po_number,
          order_increment_id: row.order_id,
          item_sku: "SKU-B",
          qty: 1,
          tracking_number: `9400${RUN}`,
          tracking_carrier: "USPS",
          response_type: "856",
        },
      });
      const { fulfilShipments } = await import("../../app/dropship/flow/shopify-sync.server");
      const { StepReport } = await import("../../app/dropship/flow/context.server");
      await fulfilShipments(new StepReport(), { responseIds: [response.id] });
      const fulfilled = await db.dropshipResponse.findUniqueOrThrow({ where: { id: response.id } });
      expect(fulfilled.status).toBe("fulfilled");
      const fulfillmentId = outbox.numericShopifyId(fulfilled.shopify_fulfillment_id!);

      const [shipment] = await shippingRows(String(order.id));
      expect(shipment).toMatchObject({ status: "success", as400_status: "pending", tracking_number: `9400${RUN}`, tracking_carrier: "USPS" });
      expect((shipment.payload as { as400: unknown }).as400).toMatchObject({
        fulfillment_id: fulfillmentId,
        source: "dropship",
        po_number: request.po_number,
        vendor: vendor.name,
        lines: [{ sku: "SKU-B", qty: 1 }],
      });

      await exporter.exportRealtimeLogs();
      expect(linesOf("shipping", String(order.id))).toEqual([
        expect.objectContaining({
          fulfillment_id: fulfillmentId,
          source: "dropship",
          sku: "SKU-B",
          qty: "1",
          tracking_number: `9400${RUN}`,
          po_number: request.po_number,
          vendor: vendor.name,
        }),
      ]);
    } finally {
      await db.dropshipResponse.deleteMany({ where: { vendor_id: vendor.id } });
      await db.dropshipRequest.deleteMany({ where: { vendor_id: vendor.id } });
      await db.assignment.delete({ where: { id: assignment.id } });
      await db.vendor.delete({ where: { id: vendor.id } });
      await standIn.stop();
    }
  });

  it("are not sent again by the drop-ship flow when the webhook came first", async () => {
    const order = await seedOrder();
    const fulfillmentId = newShopifyId();
    await sendFulfillmentWebhook(order, fulfillmentId);
    await appPrisma.$transaction((tx) => outbox.recordDropshipShipment(tx, shipment(order, fulfillmentId)));

    const rows = await shippingRows(String(order.id));
    expect(rows.map((row) => row.as400_status)).toEqual(["pending", null]);
    await exporter.exportRealtimeLogs();
    expect(linesOf("shipping", String(order.id)).map((line) => line.source)).toEqual(["shopify"]);
  });
});
