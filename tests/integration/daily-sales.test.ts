// Home's Daily Sales figures (spec 001 §3, docs/decisions.md D19) from crafted
// rows, on a database of this file's own: the order figures count every order,
// so rows other files leave behind must not be there.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import { dayIn } from "../../app/lib/app-time";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

type DailySalesModule = typeof import("../../app/orders/daily-sales.server");

let database: TestDatabase;
let db: PrismaClient;
let daily: DailySalesModule;
const previous = { url: process.env.DATABASE_URL, client: globalThis.__prisma };

const TZ = "America/New_York";
const DAY = "2026-11-20";
/** The figures the spec names, in its order: the answer's first six fields. */
const SPEC_FIELDS = ["total_invoices", "credit_memos", "shipping_invoices", "total_outstanding_orders", "total_pending_dropship_orders", "total_assignments"];
/** A local time in New York (EST, UTC−5, in November) as an instant. */
const newYork = (day: string, time: string) => new Date(`${day}T${time}:00-05:00`);
const shiftDay = (day: string, by: number) => new Date(Date.parse(`${day}T00:00:00Z`) + by * 86_400_000).toISOString().slice(0, 10);
const date = (day: string) => new Date(`${day}T00:00:00Z`);

beforeAll(async () => {
  database = await createTestDatabase("daily_sales");
  process.env.DATABASE_URL = database.url;
  globalThis.__prisma = undefined;
  daily = await import("../../app/orders/daily-sales.server");
  db = (await import("../../app/db.server")).prisma;
  const [{ name }] = await db.$queryRaw<Array<{ name: string }>>`SELECT current_database()::text AS name`;
  expect(name).toBe(database.name);

  await db.inventorySource.createMany({
    data: [
      { source_code: "001", name: "Store 001 - Chicago", type: "store" },
      { source_code: "002", name: "Store 002 - Milwaukee", type: "store" },
      { source_code: "DS01", name: "Acme Outdoor Supply", type: "dropshipper" },
    ],
  });

  // Orders: three outstanding (processing with items left, no status yet, avs_pending), the rest not.
  const orders = [
    { order_id: "1001", magento_status: "processing", total_shippable_qty_ordered: 3, total_shipped: 0, grand_total_purchased: 100 },
    { order_id: "1002", magento_status: "complete", total_shippable_qty_ordered: 1, total_shipped: 1, grand_total_purchased: 80 },
    { order_id: "1003", magento_status: "processing", total_shippable_qty_ordered: 2, total_shipped: 2, grand_total_purchased: 60 },
    { order_id: "1004", magento_status: null, total_shippable_qty_ordered: 1, total_shipped: 0, grand_total_purchased: 40 },
    { order_id: "1005", magento_status: "canceled", total_shippable_qty_ordered: 1, total_shipped: 0, grand_total_purchased: 11 },
    { order_id: "1006", magento_status: "closed", total_shippable_qty_ordered: 1, total_shipped: 0, grand_total_purchased: 12 },
    { order_id: "1007", magento_status: "fraud", total_shippable_qty_ordered: 1, total_shipped: 0, grand_total_purchased: 13 },
    { order_id: "1008", magento_status: "avs_pending", total_shippable_qty_ordered: 1, total_shipped: 0, grand_total_purchased: 25.5 },
  ];
  for (const order of orders) {
    await db.order.create({ data: { ...order, items: { create: [{ sku: `SKU-${order.order_id}`, name: "Item", qty_ordered: 3 }] } } });
  }
  const items = await db.orderItem.findMany({ include: { order: true } });
  const item = (orderId: string) => items.find((row) => row.order.order_id === orderId)!.item_id;
  const assignment = (
    orderId: string,
    store_id: string,
    qty_assigned: number,
    assign_status: number,
    created_time: Date,
    dropshipper_name: string | null = null,
  ) => ({
    order_increment_id: orderId,
    item_id: item(orderId),
    product_sku: `SKU-${orderId}`,
    qty_assigned,
    store_id,
    dropshipper_name,
    assign_status,
    created_time,
  });
  await db.assignment.createMany({
    data: [
      // The day in New York: from its first to its last minute.
      assignment("1001", "DS01", 2, 2, newYork(DAY, "00:30"), "Acme Outdoor Supply"),
      assignment("1001", "DS01", 1, 3, newYork(DAY, "23:30")), // 04:30 UTC the next day
      assignment("1002", "DS01", 1, 4, newYork(DAY, "12:00")),
      assignment("1008", "001", 3, 1, newYork(DAY, "09:15")),
      assignment("1003", "001", 2, 4, newYork(DAY, "10:00")),
      assignment("1003", "002", 5, 4, newYork(DAY, "11:00")),
      // Not the day: 23:59 the evening before (already the day in UTC), and 00:01 the day after.
      assignment("1004", "DS99", 1, 1, newYork(shiftDay(DAY, -1), "23:59"), "Vendor Without Source"),
      assignment("1006", "002", 4, 1, newYork(shiftDay(DAY, 1), "00:01")),
    ],
  });

  const record = (record_type: string, amount: number, day: string, order = "1001") => ({
    record_type,
    amount,
    record_date: date(day),
    order_increment_id: order,
  });
  await db.salesRecord.createMany({
    data: [
      record("invoice", 100.1, DAY),
      record("invoice", 200.2, DAY, "1002"),
      record("credit_memo", 50.05, DAY),
      record("shipping_invoice", 7.95, DAY),
      record("something_else", 1000, DAY), // not a type the figures know
      record("invoice", 999, shiftDay(DAY, -1)), // yesterday
      record("invoice", 500, shiftDay(DAY, 1)), // tomorrow
      record("credit_memo", 30, shiftDay(DAY, -2)),
      record("invoice", 10, shiftDay(DAY, -13)),
      record("shipping_invoice", 2.5, shiftDay(DAY, -13)),
      record("invoice", 77, shiftDay(DAY, -14)), // one day before the fourteen
    ],
  });
});

afterAll(async () => {
  await db?.$disconnect();
  globalThis.__prisma = previous.client;
  process.env.DATABASE_URL = previous.url;
  await database?.dispose();
});

describe("dailySales", () => {
  it("sums the day's invoices, credit memos and shipping invoices, and nets them", async () => {
    const figures = await daily.dailySales(DAY, { timeZone: TZ });
    expect(figures).toMatchObject({
      day: DAY,
      total_invoices: 300.3,
      credit_memos: 50.05,
      shipping_invoices: 7.95,
      net_sales: 242.3, // 300.30 − 50.05 − 7.95, computed as decimals
    });
  });

  it("answers the spec's fields, the spec's first", async () => {
    const figures = await daily.dailySales(DAY, { timeZone: TZ });
    expect(Object.keys(figures).slice(0, 6)).toEqual(SPEC_FIELDS);
  });

  it("values the outstanding orders and the orders waiting for a dropshipper", async () => {
    const figures = await daily.dailySales(DAY, { timeZone: TZ });
    // 1001 (processing, 3 to ship) + 1004 (no status yet) + 1008 (avs_pending).
    expect(figures.total_outstanding_orders).toBe(165.5);
    expect(figures.outstanding_order_count).toBe(3);
    // 1001 (two drop-ship assignments, counted once) + 1004 (dropshipper named); 1002's is Complete, 1008's is a store's.
    expect(figures.total_pending_dropship_orders).toBe(140);
    expect(figures.pending_dropship_order_count).toBe(2);
  });

  it("tables the assignments created that day in the app's time zone, per store", async () => {
    const figures = await daily.dailySales(DAY, { timeZone: TZ });
    expect(figures.total_assignments).toEqual({
      "001": { source_code: "001", qty_assigned: 5, assigned: 2, shipped: 1 },
      "002": { source_code: "002", qty_assigned: 5, assigned: 1, shipped: 1 },
      DS01: { source_code: "DS01", qty_assigned: 4, assigned: 3, shipped: 1 },
    });
    expect(Object.keys(figures.total_assignments)).toEqual(["001", "002", "DS01"]);
  });

  it("draws the day's bounds where the time zone puts them", async () => {
    // In UTC the evening-before assignment (04:59Z) is on the day and the 23:30 one (04:30Z next day) is not.
    const utc = await daily.dailySales(DAY, { timeZone: "UTC" });
    expect(utc.total_assignments.DS99).toEqual({ source_code: "DS99", qty_assigned: 1, assigned: 1, shipped: 0 });
    expect(utc.total_assignments.DS01).toEqual({ source_code: "DS01", qty_assigned: 3, assigned: 2, shipped: 1 });
    // "Today" is the date in the time zone: 03:00 UTC on the 21st is still the 20th in New York.
    expect(dayIn(TZ, new Date("2026-11-21T03:00:00Z"))).toBe(DAY);
    expect(dayIn("UTC", new Date("2026-11-21T03:00:00Z"))).toBe("2026-11-21");
    const today = await daily.dailySales(undefined, { timeZone: TZ, now: new Date("2026-11-21T03:00:00Z") });
    expect(today.day).toBe(DAY);
    expect(today.total_invoices).toBe(300.3);
  });

  it("answers zeros and an empty table for a day without anything", async () => {
    const figures = await daily.dailySales("2026-06-01", { timeZone: TZ });
    expect(figures).toMatchObject({ total_invoices: 0, credit_memos: 0, shipping_invoices: 0, net_sales: 0, total_assignments: {} });
  });

  it("refuses a day that is not a date", async () => {
    await expect(daily.dailySales("2026-02-30")).rejects.toThrow("The request has errors.");
    await expect(daily.dailySales("yesterday")).rejects.toThrow("The request has errors.");
  });
});

describe("netSalesHistory", () => {
  it("answers the fourteen days ending with the day, oldest first, zero where nothing happened", async () => {
    const history = await daily.netSalesHistory(14, DAY, { timeZone: TZ });
    expect(history).toHaveLength(14);
    expect(history.map((row) => row.date)).toEqual(Array.from({ length: 14 }, (_, i) => shiftDay(DAY, i - 13)));
    const byDate = Object.fromEntries(history.map((row) => [row.date, row.net_sales]));
    expect(byDate[shiftDay(DAY, -13)]).toBe(7.5); // 10 − 2.50 shipping
    expect(byDate[shiftDay(DAY, -2)]).toBe(-30); // a credit memo alone: negative
    expect(byDate[shiftDay(DAY, -1)]).toBe(999);
    expect(byDate[DAY]).toBe(242.3); // the same as dailySales' net_sales
    expect(history.filter((row) => row.net_sales === 0)).toHaveLength(10);
  });

  it("takes today in the time zone by default and other lengths", async () => {
    const history = await daily.netSalesHistory(3, undefined, { timeZone: TZ, now: new Date("2026-11-21T03:00:00Z") });
    expect(history).toEqual([
      { date: shiftDay(DAY, -2), net_sales: -30 },
      { date: shiftDay(DAY, -1), net_sales: 999 },
      { date: DAY, net_sales: 242.3 },
    ]);
    await expect(daily.netSalesHistory(0, DAY)).rejects.toThrow("The request has errors.");
  });
});

describe("GET /api/daily_sales", () => {
  it("answers today's figures in APP_TIMEZONE with the fourteen-day history", async () => {
    const { loader } = await import("../../app/routes/api.daily_sales");
    const response = await loader({ request: new Request("http://localhost/api/daily_sales"), params: {}, context: {} });
    expect(response.status).toBe(200);
    const body = await response.json();
    const today = dayIn(process.env.APP_TIMEZONE || TZ);
    expect(body.day).toBe(today);
    expect(Object.keys(body).slice(0, 6)).toEqual(SPEC_FIELDS);
    expect(body.total_outstanding_orders).toBe(165.5);
    expect(body.history).toHaveLength(14);
    expect(body.history[13]).toEqual({ date: today, net_sales: body.net_sales });
  });
});
