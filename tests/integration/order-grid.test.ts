// The Advanced Order Summary's server side over real HTTP (the built app in
// local mode on a database of its own, seeded with three dozen crafted
// orders): every filter of GET /api/advancedordergrid narrows to exactly the
// right rows, every sort orders them, paging and totals, 422s for bad values,
// the count strategy above the cap (D18), force-sync against the Shopify
// stand-in, and the saved views' naming rules (spec 000 §5).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { CountCache } from "../../app/grid/count-cache.server";
import { i18nServer } from "../../app/i18n/i18n.server";
import { renderAnswer } from "../../app/lib/validation.server";
import { forceSyncOrder } from "../../app/orders/force-sync.server";
import { orderCellText, type OrderGridRow } from "../../app/orders/order-grid";
import { COUNT_CAP, probeFor } from "../../app/orders/order-grid.server";
import { apiQueryForOrderState, orderStateFromSearch, searchForOrderState, stateForView, viewFiltersFromState } from "../../app/orders/order-grid-state";
import { ShopifyApiError } from "../../app/shopify/admin-client.server";
import { standInUrlOf, startAppServer, type RunningApp } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const FIRST = ["Ada", "Bruno", "Chloe", "Dmitri"];
const LAST = ["Lovelace", "Keller", "Okafor", "Novak", "Santos"];
const STATUSES = ["avs_pending", "processing", "canceled", "closed", "fraud", "complete"];
const SOURCES = [null, "", "AMAZON_US", "EBAY_STORES"];
const REFER = ["Amazon", "Salesforce", "Shopping", "Direct Revenue", "Ebay", "Facebook", "Organic Revenue", "Specials"];
const BASE = Date.UTC(2026, 9, 1, 12);
const HOUR = 3600_000;

interface Fixture {
  order_id: string;
  shopify_order_id: string | null;
  created_at: Date;
  updated_at: Date;
  shopify_updated_at: Date | null;
  customer_email: string | null;
  concat_bill_to_name: string;
  concat_ship_to_name: string;
  select_skus: string;
  grand_total_purchased: number;
  magento_status: string;
  fulfillment_status: string;
  financial_status: string;
  concat_billing_address: string;
  concat_shipping_address: string;
  marketplace_source: string | null;
  marketplace_order_id: string | null;
  ca_site_order_id: string | null;
  ca_order_id: string | null;
  refer_source_name: string;
  allocated_sources: string | null;
  gift_card_used: number;
}

const fixtures: Fixture[] = Array.from({ length: 36 }, (_, i) => {
  const source = SOURCES[i % 4];
  return {
    order_id: `ORD-${1000 + i}`,
    shopify_order_id: i % 7 === 6 ? null : String(5812000000000 + i * 11),
    // Pairs share a purchase date: ties are broken by id.
    created_at: new Date(BASE + Math.floor(i / 2) * HOUR),
    updated_at: new Date(BASE + ((i * 7) % 36) * HOUR),
    shopify_updated_at: i % 5 === 0 ? null : new Date(BASE + ((i * 5) % 36) * HOUR),
    customer_email: i === 35 ? null : `${FIRST[i % 4]}.${LAST[i % 5]}${i}@Example.com`,
    concat_bill_to_name: i === 20 ? "Ann_Marie 100% Okafor" : `${FIRST[i % 4]} ${LAST[i % 5]}`,
    concat_ship_to_name: `${FIRST[(i + 1) % 4]} ${LAST[i % 5]}`,
    select_skus: `SKU-${100 + (i % 5)}${i % 3 === 0 ? `,SKU-${200 + (i % 4)}` : ""}`,
    grand_total_purchased: 10 + i * 7.5,
    magento_status: STATUSES[i % 6],
    fulfillment_status: i % 2 ? "fulfilled" : "unfulfilled",
    financial_status: i % 3 ? "paid" : "pending",
    concat_billing_address: `${100 + i} Elm St, Springfield, IL 62701, US`,
    concat_shipping_address: i % 2 ? `${100 + i} Oak Ave, Portland, OR 97201, US` : `${100 + i} Elm St, Springfield, IL 62701, US`,
    marketplace_source: source,
    marketplace_order_id: source ? `MKT-${i}` : null,
    ca_site_order_id: source ? `CAS${i % 9}` : null,
    ca_order_id: source ? `CAO-${500 + i}` : null,
    refer_source_name: REFER[i % 8],
    allocated_sources: i % 2 ? "STORE1,STORE2" : null,
    gift_card_used: i % 4 === 1 ? 1 : 0,
  };
});

/** A row of the answer: its id and every field a fixture stores (each of Fixture's 22), no other. */
const ROW_FIELDS = ["id", ...Object.keys(fixtures[0])];

/** What the search (queryValue, globalFilter) looks in. */
const searchedValues = (o: Fixture) => [
  o.order_id,
  o.shopify_order_id,
  o.customer_email,
  o.concat_bill_to_name,
  o.concat_ship_to_name,
  o.select_skus,
  o.concat_billing_address,
  o.concat_shipping_address,
  o.marketplace_order_id,
];

let database: TestDatabase;
let db: PrismaClient;
let app: RunningApp;
/** order_id → row id */
const idOf = new Map<string, number>();

beforeAll(async () => {
  database = await createTestDatabase("ordergrid");
  db = createPrismaClient(database.url, 2);
  await db.order.createMany({ data: fixtures });
  for (const row of await db.order.findMany({ select: { id: true, order_id: true } })) idOf.set(row.order_id, row.id);
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

interface Answer {
  data: Array<Record<string, unknown>>;
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
  total_exact: boolean;
}

async function get(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${app.url}/api/advancedordergrid?${query}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function list(query: string): Promise<Answer> {
  const { status, body } = await get(query);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as unknown as Answer;
}

const orderIds = (answer: Answer) => answer.data.map((row) => row.order_id as string);
/** The fixtures `predicate` picks, as the API answers them by default: newest first, ties by id. */
const expected = (predicate: (order: Fixture, i: number) => boolean) =>
  fixtures
    .map((order, i) => ({ order, i }))
    .filter(({ order, i }) => predicate(order, i))
    .sort((a, b) => b.order.created_at.getTime() - a.order.created_at.getTime() || idOf.get(b.order.order_id)! - idOf.get(a.order.order_id)!)
    .map(({ order }) => order.order_id);
const contains = (value: string | null, part: string) => (value ?? "").toLowerCase().includes(part.toLowerCase());

describe("GET /api/advancedordergrid: shape, paging and sorts", () => {
  it("answers page 1 of 20, newest first, with the spec's row fields and totals at the top level", async () => {
    const answer = await list("");
    expect(answer).toMatchObject({ current_page: 1, per_page: 20, last_page: 2, total: 36, total_exact: true });
    expect(orderIds(answer)).toEqual(expected(() => true).slice(0, 20));
    expect(Object.keys(answer.data[0]).sort()).toEqual([...ROW_FIELDS].sort());
    const first = answer.data.find((row) => row.order_id === "ORD-1035")!;
    expect(first).toMatchObject({
      grand_total_purchased: "272.50",
      gift_card_used: 0,
      customer_email: null,
      created_at: fixtures[35].created_at.toISOString(),
    });
  });

  it("tells how long the app took in Server-Timing, as every API answer does", async () => {
    const response = await fetch(`${app.url}/api/advancedordergrid`);
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/^app;dur=\d+\.\d{2}$/);
  });

  it("pages without overlap: page 2 holds the rest, a page past the end is empty with the same total", async () => {
    const [one, two, three] = await Promise.all([list("page=1"), list("page=2"), list("page=3")]);
    expect(two).toMatchObject({ current_page: 2, last_page: 2, total: 36 });
    expect([...orderIds(one), ...orderIds(two)]).toEqual(expected(() => true));
    expect(three).toMatchObject({ data: [], current_page: 3, total: 36, last_page: 2 });
    const small = await list("per_page=5&page=8");
    expect(small).toMatchObject({ last_page: 8, total: 36 });
    expect(orderIds(small)).toEqual(expected(() => true).slice(35));
  });

  it.each(["created_at", "order_id", "shopify_order_id", "customer_email", "updated_at", "shopify_updated_at"] as const)(
    "sorts by %s both ways, nulls first when descending, ties broken by id",
    async (key) => {
      const value = (order: Fixture) => {
        const raw = order[key];
        return raw === null ? null : raw instanceof Date ? raw.getTime() : raw;
      };
      for (const dir of ["asc", "desc"] as const) {
        const answer = await list(`sort=${key}&sort_dir=${dir}&per_page=200`);
        const sign = dir === "asc" ? 1 : -1;
        const want = [...fixtures]
          .sort((a, b) => {
            const [x, y] = [value(a), value(b)];
            // PostgreSQL: NULLS LAST ascending, NULLS FIRST descending.
            if (x === null || y === null) return x === y ? 0 : x === null ? 1 * sign : -1 * sign;
            return (x < y ? -1 : x > y ? 1 : 0) * sign;
          })
          .map((order) => order.order_id);
        // Equal values: by id in the same direction.
        const got = orderIds(answer);
        expect(got.map((id) => value(fixtures.find((order) => order.order_id === id)!))).toEqual(
          want.map((id) => value(fixtures.find((order) => order.order_id === id)!)),
        );
        for (let i = 1; i < got.length; i++) {
          const [a, b] = [fixtures.find((order) => order.order_id === got[i - 1])!, fixtures.find((order) => order.order_id === got[i])!];
          if (value(a) === value(b)) expect(Math.sign(idOf.get(b.order_id)! - idOf.get(a.order_id)!)).toBe(sign);
        }
      }
    },
  );
});

describe("GET /api/advancedordergrid: each filter picks exactly the right rows", () => {
  const cases: Array<[string, (order: Fixture, i: number) => boolean]> = [
    ["shopifyOrderId=5812000000" + "1", (o) => contains(o.shopify_order_id, "58120000001")],
    ["orderId=ord-101", (o) => contains(o.order_id, "ORD-101")],
    ["customerEmail=KELLER1", (o) => contains(o.customer_email, "keller1")],
    ["customerEmail=Ada.Santos24@example.com", (o) => contains(o.customer_email, "ada.santos24@example.com")],
    ["billToName=novak", (o) => contains(o.concat_bill_to_name, "novak")],
    ["billToName=100%25", (o) => contains(o.concat_bill_to_name, "100%")],
    ["billToName=n_m", (o) => contains(o.concat_bill_to_name, "n_m")],
    ["shipToName=chloe%20santos", (o) => contains(o.concat_ship_to_name, "chloe santos")],
    ["skus=SKU-102", (o) => contains(o.select_skus, "SKU-102")],
    ["skus=sku-20", (o) => contains(o.select_skus, "sku-20")],
    ["grandTotalFrom=100", (o) => o.grand_total_purchased >= 100],
    ["grandTotalTo=47.5", (o) => o.grand_total_purchased <= 47.5],
    ["grandTotalFrom=55&grandTotalTo=130", (o) => o.grand_total_purchased >= 55 && o.grand_total_purchased <= 130],
    ["magentoOrderStatus=fraud", (o) => o.magento_status === "fraud"],
    ["magentoOrderStatus=processing&magentoOrderStatus=complete", (o) => ["processing", "complete"].includes(o.magento_status)],
    ["magentoOrderStatus=processing,closed", (o) => ["processing", "closed"].includes(o.magento_status)],
    ["magentoOrderStatus[]=avs_pending&magentoOrderStatus[]=canceled", (o) => ["avs_pending", "canceled"].includes(o.magento_status)],
    ["billToAddress=112%20elm", (o) => contains(o.concat_billing_address, "112 elm")],
    ["shipToAddress=oak%20ave", (o) => contains(o.concat_shipping_address, "oak ave")],
    ["marketplaceSource=AMAZON_US", (o) => o.marketplace_source === "AMAZON_US"],
    // Houser is the empty value: no marketplace source, null or ''.
    ["marketplaceSource=", (o) => !o.marketplace_source],
    ["marketplaceSource=Houser&marketplaceSource=EBAY_STORES", (o) => !o.marketplace_source || o.marketplace_source === "EBAY_STORES"],
    ["marketplaceOrderId=mkt-1", (o) => contains(o.marketplace_order_id, "MKT-1")],
    ["caSiteOrderId=CAS3", (o) => contains(o.ca_site_order_id, "CAS3")],
    ["caOrderId=cao-51", (o) => contains(o.ca_order_id, "CAO-51")],
    ["referSourceName=Direct%20Revenue", (o) => o.refer_source_name === "Direct Revenue"],
    ["referSourceName=Ebay&referSourceName=Specials", (o) => ["Ebay", "Specials"].includes(o.refer_source_name)],
    ["giftCardUsed=1", (o) => o.gift_card_used === 1],
    ["giftCardUsed=0", (o) => o.gift_card_used === 0],
    ["status=any&magentoOrderStatus=closed", (o) => o.magento_status === "closed"],
    // Filters combine with AND.
    [
      "magentoOrderStatus=processing&giftCardUsed=1&billToName=bruno",
      (o) => o.magento_status === "processing" && o.gift_card_used === 1 && contains(o.concat_bill_to_name, "bruno"),
    ],
  ];
  it.each(cases)("%s", async (query, predicate) => {
    const want = expected(predicate);
    expect(want.length, "the fixture must hold matches").toBeGreaterThan(0);
    expect(want.length, "and non-matches").toBeLessThan(fixtures.length);
    const answer = await list(`${query}&per_page=200`);
    expect(orderIds(answer)).toEqual(want);
    expect(answer.total).toBe(want.length);
  });

  it("ignores blank filters", async () => {
    const answer = await list("orderId=&customerEmail=%20%20&magentoOrderStatus=&grandTotalFrom=&queryValue=&globalFilter=&per_page=200");
    expect(answer.total).toBe(36);
  });

  it("searches order id, Shopify id, e-mail, names, SKUs, addresses and marketplace order id (queryValue or globalFilter)", async () => {
    const searched = (term: string) => (o: Fixture) => searchedValues(o).some((value) => contains(value, term));
    for (const term of ["okafor", "SKU-203", "oak ave", "mkt-2", "ORD-1007", "5812000000121", "dmitri.keller"]) {
      const want = expected(searched(term));
      expect(want.length, term).toBeGreaterThan(0);
      expect(orderIds(await list(`queryValue=${encodeURIComponent(term)}&per_page=200`)), term).toEqual(want);
      expect(orderIds(await list(`globalFilter=${encodeURIComponent(term)}&per_page=200`)), term).toEqual(want);
    }
    // Search and filters combine.
    expect(orderIds(await list("queryValue=okafor&magentoOrderStatus=fraud&per_page=200"))).toEqual(
      expected((o) => searched("okafor")(o) && o.magento_status === "fraud"),
    );
    expect(await list("queryValue=nothing-like-this")).toMatchObject({ data: [], total: 0, last_page: 1 });
  });

  it("matches terms of one or two characters at the start of a word (the trigram index cannot serve 'contains' for them)", async () => {
    expect(orderIds(await list("billToName=ok&per_page=200"))).toEqual(expected((o) => /(^|\s)ok/i.test(o.concat_bill_to_name)));
    expect(orderIds(await list("queryValue=Ch&per_page=200"))).toEqual(expected((o) => searchedValues(o).some((value) => /(^|\s)ch/i.test(value ?? ""))));
  });

  it("looks long values up by their digits first, then checks the whole value", () => {
    expect(probeFor("customer500003@example.com")).toBe("500003");
    expect(probeFor("SKU-10004")).toBe("10004");
    expect(probeFor("Main St")).toBe("Main St");
    expect(probeFor("114-1234567-7654321")).toBe("1234567");
  });
});

describe("GET /api/advancedordergrid: bad values are a 422 with one message per parameter", () => {
  it("names each bad parameter", async () => {
    const { status, body } = await get("grandTotalFrom=abc&sort=nope&page=0&sort_dir=sideways&per_page=500");
    expect(status).toBe(422);
    expect(body.errors).toEqual({
      grandTotalFrom: ["'abc' is not a number."],
      sort: ["Cannot sort by 'nope'. Sortable columns: created_at, order_id, shopify_order_id, customer_email, updated_at, shopify_updated_at."],
      page: ["The page must be a whole number of 1 or more."],
      sort_dir: ["The sort direction must be asc or desc."],
      per_page: ["The page size must be a whole number from 1 to 200."],
    });
  });

  it.each([
    ["magentoOrderStatus=processing&magentoOrderStatus=shipped", "magentoOrderStatus", "'shipped' is not one of"],
    ["marketplaceSource=ETSY", "marketplaceSource", "'ETSY' is not one of: Houser, AMAZON_US, EBAY_STORES."],
    ["referSourceName=Radio", "referSourceName", "'Radio' is not one of"],
    ["giftCardUsed=yes", "giftCardUsed", "'yes' is not one of: 1, 0."],
    ["grandTotalTo=12,50", "grandTotalTo", "'12,50' is not a number."],
    ["grandTotalFrom=50&grandTotalTo=10", "grandTotalTo", "must not be less than"],
    ["status=open", "status", "status only accepts 'any'."],
    [`orderId=${"9".repeat(201)}`, "orderId", "At most 200 characters."],
  ])("%s", async (query, field, message) => {
    const { status, body } = await get(query);
    expect(status).toBe(422);
    const errors = body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field][0]).toContain(message);
  });

  it("translates the messages (?locale=de)", async () => {
    const { status, body } = await get("grandTotalFrom=abc&locale=de");
    expect(status).toBe(422);
    expect((body.errors as Record<string, string[]>).grandTotalFrom[0]).not.toBe("'abc' is not a number.");
  });
});

describe("GET /api/advancedordergrid_forcesync", () => {
  it("re-reads the order from Shopify (the stand-in) and updates its Shopify fields", async () => {
    const order = fixtures[12]; // pending, unfulfilled
    expect(order).toMatchObject({ financial_status: "pending", fulfillment_status: "unfulfilled" });
    const id = idOf.get(order.order_id)!;
    const before = Date.now();
    const orderSystemTime = (await db.order.findUniqueOrThrow({ where: { id } })).updated_at;
    const response = await fetch(`${app.url}/api/advancedordergrid_forcesync?id=${id}`);
    const body = (await response.json()) as { error: boolean; message: string; order: Record<string, unknown> };
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ error: false, message: `Order ${order.order_id} synced from Shopify.` });
    const row = await db.order.findUniqueOrThrow({ where: { id } });
    // The stand-in answers PAID, FULFILLED (an order with no open line), its own e-mail and total.
    expect(row.financial_status).toBe("paid");
    expect(row.fulfillment_status).toBe("fulfilled");
    expect(row.customer_email).toBe(`customer${order.shopify_order_id}@example.com`);
    expect(row.grand_total_purchased.toFixed(2)).toBe("129.95");
    expect(row.shopify_updated_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.updated_at).toEqual(orderSystemTime);
    expect(body.order).toMatchObject({ id, financial_status: "paid", grand_total_purchased: "129.95" });

    const standIn = standInUrlOf(app);
    const calls = (await (await fetch(`${standIn}/__calls`)).json()) as Array<{ operation: string; variables: { id: string } }>;
    expect(calls.filter((call) => call.operation === "OrderRead").map((call) => call.variables.id)).toContain(`gid://shopify/Order/${order.shopify_order_id}`);
  });

  it("answers 404 for an unknown id, 422 for a bad id or an order without a Shopify id", async () => {
    const unknown = await fetch(`${app.url}/api/advancedordergrid_forcesync?id=999999`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: true, message: "Order grid row 999999 was not found." });

    const bad = await fetch(`${app.url}/api/advancedordergrid_forcesync?id=abc`);
    expect(bad.status).toBe(422);

    const withoutShopify = fixtures.find((order) => order.shopify_order_id === null)!;
    const response = await fetch(`${app.url}/api/advancedordergrid_forcesync?id=${idOf.get(withoutShopify.order_id)}`);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.message).toBe(`Order ${withoutShopify.order_id} has no Shopify order id, so it cannot be synced from Shopify.`);
    expect(body.errors.id).toEqual([body.message]);
  });

  it("answers { error: true, message } when Shopify fails, and changes nothing", async () => {
    const t = await i18nServer.getFixedT("en", "common");
    const row = await prisma.order.create({ data: { order_id: "FS-1", shopify_order_id: "777", financial_status: "pending" } });
    try {
      const failing = { run: async () => Promise.reject(new ShopifyApiError("OrderRead", [{ message: "Throttled" }])) };
      const synced = await forceSyncOrder(String(row.id), { mode: "local", shop: "demo-shop.myshopify.com" }, failing);
      const result = { ...synced, body: renderAnswer(t, synced.body) };
      expect(result.status).toBe(502);
      expect(result.body).toMatchObject({ error: true });
      expect(result.body.message).toContain("Shopify could not be read for order FS-1");
      const missing = { run: async () => ({ order: null }) } as never;
      const gone = { body: renderAnswer(t, (await forceSyncOrder(String(row.id), { mode: "local", shop: "demo-shop.myshopify.com" }, missing)).body) };
      expect(gone.body).toEqual({ error: true, message: "Shopify does not know order FS-1 (Shopify id 777)." });
      expect((await prisma.order.findUniqueOrThrow({ where: { id: row.id } })).financial_status).toBe("pending");
    } finally {
      await prisma.order.delete({ where: { id: row.id } });
    }
  });
});

describe("an order with nothing to fulfil (Shopify 2026-10: FULFILLMENT_NOT_REQUIRED)", () => {
  it("shows Not Required in the grid after a force sync, not Unfulfilled", async () => {
    const row = await prisma.order.create({ data: { order_id: "FS-NR", shopify_order_id: "778", fulfillment_status: "unfulfilled" } });
    try {
      const order = {
        id: "gid://shopify/Order/778",
        name: "#778",
        email: null,
        createdAt: "2026-11-01T10:00:00Z",
        updatedAt: new Date().toISOString(),
        displayFinancialStatus: "VOIDED",
        displayFulfillmentStatus: "FULFILLMENT_NOT_REQUIRED",
        totalPriceSet: { shopMoney: { amount: "0.00", currencyCode: "USD" } },
        lineItems: { nodes: [] },
      };
      const shopify = { run: async () => ({ order }) } as never;
      const synced = await forceSyncOrder(String(row.id), { mode: "local", shop: "demo-shop.myshopify.com" }, shopify);
      expect(synced.status).toBe(200);
      expect(synced.body.order?.fulfillment_status).toBe("not_required");
      // The row as the grid reads it, and the cell it shows.
      const stored = await prisma.order.findUniqueOrThrow({ where: { id: row.id } });
      expect(stored.fulfillment_status).toBe("not_required");
      const shown = { fulfillment_status: stored.fulfillment_status } as OrderGridRow;
      expect(orderCellText("fulfillment_status", shown, { timeZone: "UTC", yes: "Yes", no: "No", viewOrder: "View" })).toBe("Not Required");
    } finally {
      await prisma.order.delete({ where: { id: row.id } });
    }
  });
});

describe("saved views (/api/saved_views)", () => {
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${app.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return {
      status: response.status,
      body: (await response.json()) as {
        data?: { id: number; name: string; filters: Record<string, unknown> };
        message?: string;
        errors?: Record<string, string[]>;
      },
    };
  };

  it("creates, lists, renames, updates, duplicates and deletes views of the shop", async () => {
    const created = await post("/api/saved_views", { name: "  Big fraud  ", filters: { magentoOrderStatus: ["fraud"], grandTotalFrom: "100" } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "Big fraud", filters: { magentoOrderStatus: ["fraud"], grandTotalFrom: "100" } });
    const id = created.body.data!.id;

    const second = await post("/api/saved_views", { name: "Houser", filters: { marketplaceSource: [""] } });
    expect(second.status).toBe(201);
    expect(second.body.data!.filters).toEqual({ marketplaceSource: [""] });

    const listed = (await (await fetch(`${app.url}/api/saved_views?grid=advancedorder`)).json()) as { data: Array<{ name: string }> };
    expect(listed.data.map((view) => view.name)).toEqual(["Big fraud", "Houser"]);

    const renamed = await post(`/api/saved_views/${id}`, { _method: "PUT", name: "Fraud over 100" });
    expect(renamed).toMatchObject({ status: 200, body: { data: { name: "Fraud over 100" } } });
    // A change of case is a new name.
    expect((await post(`/api/saved_views/${id}`, { _method: "PUT", name: "fraud over 100" })).status).toBe(200);

    const updated = await post(`/api/saved_views/${id}`, { _method: "PUT", filters: { magentoOrderStatus: ["fraud", "closed"], queryValue: "okafor" } });
    expect(updated.body.data!.filters).toEqual({ magentoOrderStatus: ["fraud", "closed"], queryValue: "okafor" });

    const copy = await post(`/api/saved_views/${id}`, { _action: "duplicate", name: "Fraud copy" });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ name: "Fraud copy", filters: { magentoOrderStatus: ["fraud", "closed"], queryValue: "okafor" } });

    const deleted = await post(`/api/saved_views/${copy.body.data!.id}`, { _method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect((await fetch(`${app.url}/api/saved_views/${copy.body.data!.id}`)).status).toBe(404);
    const viaDelete = await fetch(`${app.url}/api/saved_views/${second.body.data!.id}`, { method: "DELETE" });
    expect(viaDelete.status).toBe(200);
  });

  it.each([
    ["", "Enter a name for the view."],
    ["   ", "Enter a name for the view."],
    ["All", "A view named 'All' already exists."],
    [" all ", "A view named 'all' already exists."],
    ["  FRAUD OVER 100 ", "A view named 'FRAUD OVER 100' already exists."],
    ["x".repeat(41), "A view name can have at most 40 characters."],
  ])("refuses the name %j with a 422", async (name, message) => {
    const { status, body } = await post("/api/saved_views", { name, filters: {} });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ name: [message] });
    expect(body.message).toBe(message);
  });

  it("takes a name of exactly 40 characters, and refuses a rename that changes nothing or takes another view's name", async () => {
    const forty = await post("/api/saved_views", { name: "y".repeat(40), filters: {} });
    expect(forty.status).toBe(201);
    const id = forty.body.data!.id;
    const same = await post(`/api/saved_views/${id}`, { _method: "PUT", name: ` ${"y".repeat(40)} ` });
    expect(same).toMatchObject({ status: 422, body: { errors: { name: ["Enter a new name to rename the view."] } } });
    const taken = await post(`/api/saved_views/${id}`, { _method: "PUT", name: "Fraud Over 100" });
    expect(taken).toMatchObject({ status: 422, body: { errors: { name: ["A view named 'Fraud Over 100' already exists."] } } });
    const duplicateName = await post(`/api/saved_views/${id}`, { _action: "duplicate", name: "ALL" });
    expect(duplicateName.status).toBe(422);
  });

  it("refuses filters the grid would refuse, and views of other grids", async () => {
    const badKey = await post("/api/saved_views", { name: "Bad key", filters: { colour: "red" } });
    expect(badKey).toMatchObject({ status: 422, body: { errors: { filters: ["'colour' is not a filter of this grid."] } } });
    const badValue = await post("/api/saved_views", { name: "Bad value", filters: { magentoOrderStatus: ["lost"] } });
    expect(badValue.status).toBe(422);
    expect(badValue.body.errors!["filters.magentoOrderStatus"][0]).toContain("'lost' is not one of");
    const otherGrid = await fetch(`${app.url}/api/saved_views?grid=dropship_log`);
    expect(otherGrid.status).toBe(422);
    expect((await fetch(`${app.url}/api/saved_views/424242`)).status).toBe(404);
  });
});

describe("totals above the cap (D18)", () => {
  it("keeps the unit rules: a figure is served until it is too old, refreshed in the background once it ages", async () => {
    let now = 0;
    const cache = new CountCache({ ttlMs: 60_000, refreshAfterMs: 20_000, maxEntries: 2, maxRunning: 1 }, () => now);
    let counted = 0;
    const count = async () => ++counted * 100;
    expect(cache.lookup("a", count)).toBeNull();
    await cache.refresh("a", count);
    expect(cache.lookup("a", count)).toBe(100);
    now = 25_000; // aged: served, recounted behind
    expect(cache.lookup("a", count)).toBe(100);
    await cache.settled();
    expect(cache.lookup("a", count)).toBe(200);
    now = 25_000 + 60_000; // too old: never served
    expect(cache.lookup("a", count)).toBeNull();
    cache.store("b", 1);
    cache.store("c", 2);
    cache.store("d", 3);
    expect(cache.lookup("b", count)).toBeNull(); // the oldest went first
  });

  it("answers the cap as a lower bound at first, then the exact total from the background count", async () => {
    await db.$executeRawUnsafe(
      `INSERT INTO order_grid (order_id, created_at, updated_at, magento_status, refer_source_name, marketplace_source, customer_email)
       SELECT 'BULK-' || g, now() - g * interval '1 minute', now(), 'complete', 'Specials', 'EBAY_STORES', 'bulk' || g || '@example.com'
         FROM generate_series(1, ${COUNT_CAP + 500}) AS g`,
    );
    const query = "customerEmail=bulk&per_page=50";
    const first = await list(query);
    expect(first).toMatchObject({ total: COUNT_CAP, total_exact: false, last_page: COUNT_CAP / 50 });
    expect(first.data).toHaveLength(50);
    let later = first;
    for (let i = 0; i < 50 && !later.total_exact; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      later = await list(query);
    }
    expect(later).toMatchObject({ total: COUNT_CAP + 500, total_exact: true, last_page: Math.ceil((COUNT_CAP + 500) / 50) });
    // The last page is reachable and holds the oldest rows.
    const last = await list(`${query}&page=${later.last_page}`);
    expect(last.data.map((row) => row.order_id)).toEqual(Array.from({ length: 50 }, (_, i) => `BULK-${COUNT_CAP + 500 - 49 + i}`));
    // A small result stays exact on every request.
    expect(await list("customerEmail=bulk12@&per_page=50")).toMatchObject({ total: 1, total_exact: true });
  });
});

describe("the page's list state (URL, API query, saved views)", () => {
  it("reads the URL, keeps Houser, drops blanks and writes only what differs from the defaults", () => {
    const state = orderStateFromSearch(
      new URLSearchParams(
        "page=3&sort=order_id&sort_dir=asc&queryValue=%20ada%20&orderId=%20&marketplaceSource=&magentoOrderStatus=processing,fraud&view=4&locale=de",
      ),
    );
    expect(state).toEqual({
      page: 3,
      sort: "order_id",
      sort_dir: "asc",
      queryValue: "ada",
      filters: { magentoOrderStatus: ["processing", "fraud"], marketplaceSource: [""] },
      view: 4,
    });
    const search = searchForOrderState({ ...state, page: 1, sort: "created_at", sort_dir: "desc" }, new URLSearchParams("locale=de&host=abc&page=3"));
    expect(search.toString()).toBe("locale=de&host=abc&view=4&queryValue=ada&magentoOrderStatus=processing&magentoOrderStatus=fraud&marketplaceSource=");
    expect(apiQueryForOrderState(state, "fr").toString()).toBe(
      "page=3&sort=order_id&sort_dir=asc&status=any&queryValue=ada&magentoOrderStatus=processing&magentoOrderStatus=fraud&marketplaceSource=&locale=fr",
    );
    expect(orderStateFromSearch(new URLSearchParams("sort=nope&sort_dir=up&page=-1"))).toMatchObject({ page: 1, sort: "created_at", sort_dir: "desc" });
  });

  it("saves filters, search and a non-default sort in a view, and shows a view's state on page 1", () => {
    const state = orderStateFromSearch(new URLSearchParams("page=5&sort=customer_email&sort_dir=asc&grandTotalFrom=10&giftCardUsed=1&queryValue=x"));
    const saved = viewFiltersFromState(state);
    expect(saved).toEqual({ grandTotalFrom: ["10"], giftCardUsed: ["1"], queryValue: "x", sort: "customer_email", sort_dir: "asc" });
    expect(stateForView({ id: 9, filters: saved })).toEqual({ ...state, page: 1, view: 9 });
    expect(stateForView({ id: 2, filters: { magentoOrderStatus: ["processing"] } })).toMatchObject({
      filters: { magentoOrderStatus: ["processing"] },
      sort: "created_at",
      view: 2,
    });
  });
});
