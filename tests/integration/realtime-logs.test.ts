// GET /api/realtime_sales_log and /api/realtime_shipping_log over real HTTP
// (the built app in local mode on a database of its own, with crafted rows):
// the generic grid answer, id descending by default, each filter narrowing to
// exactly the right rows, sorts both ways, paging, and 422s for bad values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let db: PrismaClient;
let app: RunningApp;

const AS400 = (i: number) => (i < 10 ? "sent" : i < 20 ? "pending" : i < 25 ? "failed" : null);
const BASE = Date.UTC(2026, 10, 1, 12);
const HOUR = 3600_000;

interface SalesRow {
  id: number;
  event: string;
  order_increment_id: string | null;
  shopify_order_id: string;
  amount: string;
  status: string;
  as400_status: string | null;
  as400_file_name: string | null;
  created_at: string;
  message: string | null;
  payload: unknown;
}

beforeAll(async () => {
  database = await createTestDatabase("realtimelogs");
  db = createPrismaClient(database.url);
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
  await db.realtimeSalesLog.createMany({
    data: Array.from({ length: 30 }, (_, i) => ({
      event: i % 3 === 2 ? "refund" : "sale",
      order_increment_id: `RT-${100 + i}`,
      shopify_order_id: String(6_100_000 + i),
      amount: (10 + ((i * 37) % 50)).toFixed(2),
      status: i % 10 === 9 ? "error" : "success",
      message: i % 10 === 9 ? `Webhook of order RT-${100 + i} ignored: the payload is not usable` : `Invoice for order RT-${100 + i} created`,
      payload: { as400: { record_key: `order:${6_100_000 + i}/invoice` } },
      as400_status: AS400(i),
      as400_file_name: AS400(i) === "sent" ? `SALES_20261101T120000Z_${i < 5 ? "1-5" : "6-10"}.csv` : null,
      as400_sent_at: AS400(i) === "sent" ? new Date(BASE + 40 * HOUR) : null,
      as400_error: AS400(i) === "failed" ? "Could not reach the AS400: connect ECONNREFUSED" : null,
      // Not in id order: sorting by date must differ from sorting by id.
      created_at: new Date(BASE + ((i * 7) % 30) * HOUR),
    })),
  });
  await db.realtimeShippingLog.createMany({
    data: Array.from({ length: 12 }, (_, i) => ({
      order_increment_id: `RS-${200 + i}`,
      shopify_order_id: String(6_200_000 + i),
      tracking_number: `1Z${String(900 + ((i * 5) % 12)).padStart(4, "0")}`,
      tracking_carrier: ["UPS", "FedEx", "USPS"][i % 3],
      status: i === 11 ? "error" : "success",
      message: i === 11 ? "the order is not in the order grid yet" : `Fulfillment ${i}: success`,
      as400_status: i === 11 ? null : i < 6 ? "sent" : "pending",
      created_at: new Date(BASE + i * HOUR),
    })),
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

async function get(path: string, query = "") {
  const response = await fetch(`${app.url}${path}?${query}`);
  return {
    status: response.status,
    body: (await response.json()) as {
      data: { data: SalesRow[]; last_page: number; total: number; current_page: number };
      columns: Array<{ key: string; label: string; filter: string; sortable: boolean; options?: Record<string, string> }>;
      errors?: Record<string, string[]>;
    },
  };
}
const sales = (query = "") => get("/api/realtime_sales_log", query);
const shipping = (query = "") => get("/api/realtime_shipping_log", query);
const orders = (rows: SalesRow[]) => rows.map((row) => row.order_increment_id);
/** The columns both logs end with: the export's status and the AS400 delivery. */
const STATUS_COLUMNS = ["status", "as400_status", "as400_file_name", "as400_sent_at", "message", "as400_error", "payload"];

describe("GET /api/realtime_sales_log", () => {
  it("answers the generic grid: id descending, 20 rows a page, columns from the server", async () => {
    const { status, body } = await sales();
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total: 30, last_page: 2, current_page: 1 });
    expect(orders(body.data.data)).toEqual(Array.from({ length: 20 }, (_, i) => `RT-${129 - i}`));
    const second = await sales("page=2");
    expect(orders(second.body.data.data)).toEqual(Array.from({ length: 10 }, (_, i) => `RT-${109 - i}`));
    expect(body.columns.map((column) => column.key)).toEqual([
      "id",
      "created_at",
      "event",
      "order_increment_id",
      "shopify_order_id",
      "amount",
      ...STATUS_COLUMNS,
    ]);
    expect(body.columns.find((column) => column.key === "as400_status")).toMatchObject({
      label: "AS400",
      filter: "select",
      options: { pending: "Pending", sent: "Sent", failed: "Failed" },
    });
    expect(body.columns.find((column) => column.key === "payload")).toMatchObject({ filter: "none", sortable: false });
    const first = body.data.data[0];
    expect(first).toMatchObject({
      event: "refund",
      shopify_order_id: "6100029",
      status: "error",
      as400_status: null,
      payload: { as400: { record_key: "order:6100029/invoice" } },
    });
    expect(Number(first.amount)).toBe(10 + ((29 * 37) % 50));
  });

  it("filters by event, status and AS400 status (options), alone and together", async () => {
    const refunds = await sales("event=refund&per_page=50");
    expect(orders(refunds.body.data.data)).toEqual([29, 26, 23, 20, 17, 14, 11, 8, 5, 2].map((i) => `RT-${100 + i}`));
    const failed = await sales("as400_status=failed");
    expect(orders(failed.body.data.data)).toEqual(["RT-124", "RT-123", "RT-122", "RT-121", "RT-120"]);
    expect(failed.body.data.data.every((row) => (row as unknown as { as400_error: string }).as400_error.includes("ECONNREFUSED"))).toBe(true);
    const errors = await sales("status=error");
    expect(orders(errors.body.data.data)).toEqual(["RT-129", "RT-119", "RT-109"]);
    const pendingRefunds = await sales("as400_status=pending&event=refund");
    expect(orders(pendingRefunds.body.data.data)).toEqual(["RT-117", "RT-114", "RT-111"]);
    const either = await sales("as400_status[]=failed&as400_status[]=sent&event=refund");
    expect(orders(either.body.data.data)).toEqual(["RT-123", "RT-120", "RT-108", "RT-105", "RT-102"]);
  });

  it("filters text columns by 'contains, any case', ids exactly, and searches messages", async () => {
    expect(orders((await sales("order_increment_id=rt-11")).body.data.data)).toEqual(Array.from({ length: 10 }, (_, i) => `RT-${119 - i}`));
    expect(orders((await sales("shopify_order_id=6100007")).body.data.data)).toEqual(["RT-107"]);
    expect(orders((await sales("as400_file_name=1-5.csv")).body.data.data)).toEqual(["RT-104", "RT-103", "RT-102", "RT-101", "RT-100"]);
    const [row] = (await sales("order_increment_id=RT-115")).body.data.data;
    expect(orders((await sales(`id=${row.id}`)).body.data.data)).toEqual(["RT-115"]);
    expect(orders((await sales("queryValue=PAYLOAD IS NOT USABLE")).body.data.data)).toEqual(["RT-129", "RT-119", "RT-109"]);
    expect((await sales("message=no such text")).body.data).toMatchObject({ total: 0, last_page: 1, data: [] });
  });

  it("sorts by any sortable column both ways, ties broken by id", async () => {
    const byDate = (await sales("sort=created_at&sort_dir=asc&per_page=30")).body.data.data;
    const dates = byDate.map((row) => Date.parse(row.created_at));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(orders(byDate)).not.toEqual(orders([...byDate].sort((a, b) => a.id - b.id)));
    const byOrderDesc = (await sales("sort=order_increment_id&sort_dir=desc&per_page=5")).body.data.data;
    expect(orders(byOrderDesc)).toEqual(["RT-129", "RT-128", "RT-127", "RT-126", "RT-125"]);
    const byAmount = (await sales("sort=amount&sort_dir=asc&per_page=30")).body.data.data;
    const amounts = byAmount.map((row) => Number(row.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    // Equal amounts in id order (the tie-break follows the direction).
    for (let i = 1; i < byAmount.length; i++) if (amounts[i] === amounts[i - 1]) expect(byAmount[i].id).toBeGreaterThan(byAmount[i - 1].id);
    const byFile = (await sales("sort=as400_file_name&sort_dir=asc&as400_status=sent")).body.data.data;
    expect(orders(byFile)).toEqual(["RT-100", "RT-101", "RT-102", "RT-103", "RT-104", "RT-105", "RT-106", "RT-107", "RT-108", "RT-109"]);
  });

  it("answers 422 with one message per bad parameter", async () => {
    const { status, body } = await sales("sort=payload&sort_dir=sideways&event=gift&as400_status=lost&id=abc");
    expect(status).toBe(422);
    expect(Object.keys(body.errors!).sort()).toEqual(["as400_status", "event", "id", "sort", "sort_dir"]);
    expect(body.errors!.event[0]).toContain("gift");
    expect(body.errors!.as400_status[0]).toContain("pending, sent, failed");
  });
});

describe("GET /api/realtime_shipping_log", () => {
  it("answers id descending with its own columns", async () => {
    const { status, body } = await shipping();
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ total: 12, last_page: 1 });
    expect(orders(body.data.data)).toEqual(Array.from({ length: 12 }, (_, i) => `RS-${211 - i}`));
    expect(body.columns.map((column) => column.key)).toEqual([
      "id",
      "created_at",
      "order_increment_id",
      "shopify_order_id",
      "tracking_number",
      "tracking_carrier",
      ...STATUS_COLUMNS,
    ]);
  });

  it("filters by tracking number, carrier and AS400 status, and sorts by tracking number", async () => {
    expect(orders((await shipping("tracking_carrier=fedex")).body.data.data)).toEqual(["RS-210", "RS-207", "RS-204", "RS-201"]);
    expect(orders((await shipping("tracking_number=1Z0905")).body.data.data)).toEqual(["RS-201"]);
    expect(orders((await shipping("as400_status=pending&tracking_carrier=UPS")).body.data.data)).toEqual(["RS-209", "RS-206"]);
    expect(orders((await shipping("status=error")).body.data.data)).toEqual(["RS-211"]);
    const sorted = (await shipping("sort=tracking_number&sort_dir=desc")).body.data.data as unknown as Array<{ tracking_number: string }>;
    const numbers = sorted.map((row) => row.tracking_number);
    expect(numbers).toEqual([...numbers].sort().reverse());
  });

  it("answers 422 for a column it does not have", async () => {
    const { status, body } = await shipping("sort=amount");
    expect(status).toBe(422);
    expect(Object.keys(body.errors!)).toEqual(["sort"]);
  });
});
