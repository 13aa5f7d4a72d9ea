// A cancelled order, a refunded or edited line, the order system's `canceled`
// (issue 29 items 1 and 3, D226): Shopify's webhooks over real HTTP to the built
// app in embedded mode (signed), the order system's status file through the
// order_sync feed against a loopback AS400, and the drop-ship steps run here
// against a loopback SFTP vendor. No 850 goes out for what is gone; what a
// vendor already has is asked back, once, for the units gone only.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { FEED_JOBS } from "../../jobs/registry";
import { startAppServer, type RunningApp } from "../support/app-server";
import { webhookAppEnv, webhookHeaders } from "../support/embedded-app";
import { startLoopbackAs400, type LoopbackAs400 } from "../support/loopback-as400";
import { createLoopbackVendor } from "../support/loopback-vendor";

const SECRET = "test-api-secret";
const SHOP = "test-shop.myshopify.com";
const PASSWORD = "Orders-Pa55word";
let app: RunningApp;
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;
let as400: LoopbackAs400;
let vendor: Vendor;
let nextId = 0;
const RUN = Math.floor(Math.random() * 100_000);

async function sendWebhook(topic: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const response = await fetch(`${app.url}/webhooks/${topic}`, { method: "POST", body, headers: webhookHeaders(body, topic, { shop: SHOP, secret: SECRET }) });
  expect(response.status).toBe(200);
  return response.json() as Promise<{ status: string; message?: string }>;
}

/** An orders/* payload (REST, 2026-10) of one line of `qty` × SKU-OC, paid; only what sync reads. */
function orderPayload(qty: number) {
  const id = 7_300_000_000_000 + RUN * 1000 + ++nextId;
  const number = 860_000_000 + RUN * 100 + nextId;
  const address = {
    first_name: "Ada",
    last_name: "Lovelace",
    address1: "12 Analytical Way",
    city: "Chicago",
    province_code: "IL",
    zip: "60601",
    country_code: "US",
  };
  return {
    id,
    name: `#${number}`,
    order_number: number,
    email: "ada@example.com",
    created_at: "2026-11-27T10:00:00-05:00",
    updated_at: "2026-11-27T10:00:05-05:00",
    cancelled_at: null as string | null,
    currency: "USD",
    total_price: (qty * 20).toFixed(2),
    subtotal_price: (qty * 20).toFixed(2),
    financial_status: "paid",
    fulfillment_status: null,
    billing_address: address,
    shipping_address: address,
    line_items: [
      {
        id: id * 10 + 1,
        sku: "SKU-OC",
        name: "Trail Runner",
        title: "Trail Runner",
        quantity: qty,
        current_quantity: qty,
        price: "20.00",
        requires_shipping: true,
      },
    ],
    shipping_lines: [],
    fulfillments: [],
    refunds: [],
  };
}
type OrderPayload = ReturnType<typeof orderPayload>;

/** The order through orders/create, and its item assigned to the vendor: Pending, or sent in an 850 (`sent`). */
async function assignedOrder(qty: number, sent: boolean) {
  const order = orderPayload(qty);
  const created = await sendWebhook("orders/create", order);
  expect(created, JSON.stringify(created)).toMatchObject({ status: "applied" });
  const row = await prisma.order.findUniqueOrThrow({ where: { shopify_order_id: String(order.id) }, include: { items: true } });
  const assignment = await prisma.assignment.create({
    data: {
      order_increment_id: row.order_id,
      shopify_order_id: row.shopify_order_id,
      item_id: row.items[0].item_id,
      product_sku: "SKU-OC",
      qty_assigned: qty,
      store_id: vendor.store_id,
      dropshipper_name: vendor.name,
    },
  });
  if (sent) {
    await populateShipRequests();
    await sendShipRequests();
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } })).toMatchObject({ status: "sent" });
  }
  return { order, row, assignment };
}

const later = (order: OrderPayload, minutes: number) => new Date(new Date(order.updated_at).getTime() + minutes * 60_000).toISOString();
const cancellationsOf = (assignmentId: number) =>
  prisma.dropshipCancellation.findMany({ where: { request: { assignment_id: assignmentId } }, orderBy: { id: "asc" } });

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 13).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "order-cancellations-"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
  as400 = await startLoopbackAs400(path.join(root, "as400"), { APP_TIMEZONE: "America/New_York" });
  app = await startAppServer(webhookAppEnv({ apiKey: "test-api-key", secret: SECRET, shop: SHOP }, process.env.DATABASE_URL!));
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await closeFeedPool();
  await as400?.stop();
  await ftp?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, dnh_transfer, assignment,
      order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source, webhook_event RESTART IDENTITY CASCADE`,
  );
  for (const name of readdirSync(root)) if (name !== "as400") rmSync(path.join(root, name), { recursive: true, force: true });
  mkdirSync(path.join(root, "dsoc", "cancel_in"), { recursive: true });
  vendor = await createLoopbackVendor({ root, port: sftp.port, password: PASSWORD }, "DSOC", {
    edi_format: 1,
    edi_identifier: "DSOCEDI",
    edi_qualifier: "ZZ",
    regex_format: "\\.edi$",
    sftp_cancellation_put_folder: "/dsoc/cancel_in",
  });
});

describe("a Shopify order cancelled (orders/cancelled)", () => {
  it("releases a Pending drop-ship assignment: Populate Ship Requests makes no request and no 850 goes out", async () => {
    const { order, assignment } = await assignedOrder(2, false);
    await sendWebhook("orders/cancelled", { ...order, cancelled_at: later(order, 5), updated_at: later(order, 5), financial_status: "refunded" });
    expect(await prisma.assignment.count({ where: { id: assignment.id } })).toBe(0);
    expect((await prisma.dropshipLog.findFirstOrThrow({ where: { order_increment_id: assignment.order_increment_id } })).message).toBe(
      `Assignment ${assignment.id}: 2 of 2 x SKU-OC released before a ship request was made: the order was cancelled in Shopify.`,
    );
    await populateShipRequests();
    await sendShipRequests();
    expect(await prisma.dropshipRequest.count()).toBe(0);
    expect(await prisma.transmission.count({ where: { direction: "out" } })).toBe(0);
  });

  it("asks the vendor that has it to cancel the whole PO, once", async () => {
    const { order, assignment } = await assignedOrder(2, true);
    const cancelled = { ...order, cancelled_at: later(order, 5), updated_at: later(order, 5) };
    await sendWebhook("orders/cancelled", cancelled);
    await sendWebhook("orders/updated", { ...cancelled, updated_at: later(order, 6) });
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ cause: "order_cancelled", whole: true, qty: 2, status: "pending" })]);
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 5 });
    await sendShipRequests();
    expect(readdirSync(path.join(root, "dsoc", "cancel_in"))).toEqual([expect.stringMatching(/^860_CANCEL_DSOC_/)]);
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ status: "sent" })]);
  });
});

describe("a line refunded or edited away", () => {
  it("refunds/create of 2 of 5 unshipped units cancels those 2 only", async () => {
    const { order, assignment } = await assignedOrder(5, true);
    await sendWebhook("refunds/create", {
      id: order.id + 5,
      order_id: order.id,
      created_at: later(order, 10),
      refund_line_items: [{ id: 1, line_item_id: order.line_items[0].id, quantity: 2, restock_type: "cancel" }],
      transactions: [{ id: 1, kind: "refund", status: "success", amount: "40.00" }],
    });
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ cause: "line_removed", whole: false, qty: 2 })]);
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 3, qty_assigned: 3 });
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } })).toMatchObject({ status: "sent" });
  });

  it("a refund of units already shipped (a return) takes nothing back", async () => {
    const { order, row, assignment } = await assignedOrder(5, true);
    // Two of the five were shipped by a store already (the vendor has the other three).
    await prisma.assignment.update({ where: { id: assignment.id }, data: { qty_assigned: 3 } });
    await prisma.orderItem.update({ where: { item_id: row.items[0].item_id }, data: { qty_shipped: 2 } });
    await sendWebhook("refunds/create", {
      id: order.id + 6,
      order_id: order.id,
      created_at: later(order, 10),
      refund_line_items: [{ id: 2, line_item_id: order.line_items[0].id, quantity: 2, restock_type: "return" }],
      transactions: [{ id: 2, kind: "refund", status: "success", amount: "40.00" }],
    });
    expect(await cancellationsOf(assignment.id)).toEqual([]);
  });

  it("an order edit that removes 2 of 5 (orders/updated, current_quantity 3) cancels those 2", async () => {
    const { order, assignment } = await assignedOrder(5, true);
    await sendWebhook("orders/updated", { ...order, updated_at: later(order, 10), line_items: [{ ...order.line_items[0], current_quantity: 3 }] });
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ cause: "line_removed", whole: false, qty: 2 })]);
  });
});

describe("the order system's canceled, and the step 1 sweep", () => {
  it("the status file's canceled reaches the vendor through the order_sync feed", async () => {
    const { row, assignment } = await assignedOrder(2, true);
    const folder = path.join(root, "as400", (await import("../../app/orders/order-status-feed.server")).ORDER_STATUS_FOLDER);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, `status_${RUN}_${row.id}.csv`), `order_id,magento_status,updated_at\n${row.order_id},canceled,2026-11-28 09:00:00\n`);
    const outcome = await FEED_JOBS.order_sync.run({ progress: async () => {}, signal: new AbortController().signal, trigger: "manual" });
    expect(outcome.meta).toMatchObject({ rows_applied: 1, released: { orders: 1, taken_back: 2, released: 0 } });
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ cause: "order_system_canceled", whole: true })]);
  });

  it("Populate Ship Requests heals an order cancelled without its release (a crash in between), and only once", async () => {
    const { row, assignment } = await assignedOrder(2, true);
    const pending = await assignedOrder(1, false);
    await prisma.order.updateMany({ where: { id: { in: [row.id, pending.row.id] } }, data: { shopify_cancelled_at: new Date() } });
    await populateShipRequests();
    await populateShipRequests();
    expect(await cancellationsOf(assignment.id)).toEqual([expect.objectContaining({ cause: "order_cancelled", whole: true })]);
    expect(await prisma.assignment.count({ where: { id: pending.assignment.id } })).toBe(0);
    expect(await prisma.dropshipRequest.count({ where: { order_increment_id: pending.row.order_id } })).toBe(0);
  });
});

// Each order trigger reaches an 850 (BEG01 01) and a CSV vendor too, the CSV one over FTP.
describe.each([
  { label: "X12 850 over SFTP", overrides: { cancellation_format: "850" }, name: /^850_CANCEL_DSOC_/ },
  { label: "CSV over FTP", overrides: { edi_format: 0, transfer_mechanism_id: 2 }, name: /^CANCEL_DSOC_.*\.csv$/ },
] as const)("the order triggers, $label", ({ overrides, name }) => {
  const triggers: Array<{ label: string; fire: (order: OrderPayload, row: { order_id: string; id: number }) => Promise<unknown> }> = [
    { label: "orders/cancelled", fire: (order) => sendWebhook("orders/cancelled", { ...order, cancelled_at: later(order, 5), updated_at: later(order, 5) }) },
    {
      label: "refunds/create",
      fire: (order) =>
        sendWebhook("refunds/create", {
          id: order.id + 7,
          order_id: order.id,
          created_at: later(order, 10),
          refund_line_items: [{ id: 3, line_item_id: order.line_items[0].id, quantity: 2, restock_type: "cancel" }],
          transactions: [{ id: 3, kind: "refund", status: "success", amount: "40.00" }],
        }),
    },
    {
      label: "an order edit",
      fire: (order) => sendWebhook("orders/updated", { ...order, updated_at: later(order, 10), line_items: [{ ...order.line_items[0], current_quantity: 0 }] }),
    },
    {
      label: "the order system's canceled",
      fire: async (_order, row) => {
        await prisma.order.update({ where: { id: row.id }, data: { magento_status: "canceled" } });
        return FEED_JOBS.order_sync.run({ progress: async () => {}, signal: new AbortController().signal, trigger: "manual" });
      },
    },
  ];
  it.each(triggers)("$label: one cancellation file in the put folder", async ({ fire }) => {
    await prisma.vendor.update({ where: { id: vendor.id }, data: { ...overrides, ...("transfer_mechanism_id" in overrides ? { sftp_port: ftp.port } : {}) } });
    vendor = await prisma.vendor.findUniqueOrThrow({ where: { id: vendor.id } });
    const { order, row } = await assignedOrder(2, true);
    await fire(order, row);
    await sendShipRequests();
    await sendShipRequests();
    const files = readdirSync(path.join(root, "dsoc", "cancel_in"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(name);
    expect(await prisma.dropshipCancellation.count({ where: { status: "sent" } })).toBe(1);
  });
});
