// Every Shopify list the app reads is read to its end (D165), against a
// stand-in serving more than a page: 260 locations, 120 variants matching one
// search, an order with 60 fulfillment orders and 300 lines.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import type { ShopifyAdmin } from "../../app/shopify/admin-client.server";
import { useShopifyStandIn, type ShopifyModules, type ShopifyStandIn } from "../support/shopify-stand-in";

const tag = `PG${randomBytes(3).toString("hex").toUpperCase()}`;
const two = (n: number) => String(n).padStart(2, "0");
const three = (n: number) => String(n).padStart(3, "0");
// 259 locations before the vendor's by name: it is on the third page of 100.
const manyLocations = Array.from({ length: 259 }, (_, i) => `${tag} Location ${three(i + 1)}`);
const vendorLocation = `${tag} Zed Vendor`;
// One search for 50 SKUs matches 120 variants: P01 has 70 more (P01-X001…), so P31–P50 come on the second page of 100.
const wantedSkus = Array.from({ length: 50 }, (_, i) => `${tag}-P${two(i + 1)}`);
const extraSkus = Array.from({ length: 70 }, (_, i) => `${tag}-P01-X${three(i + 1)}`);
// 300 lines in 60 fulfillment orders: lines 1–54 one each, line 55–295 in the 55th, 296–300 one each.
const bigOrderId = String(9_600_000_000_000 + Math.floor(Math.random() * 1_000_000));
const lineSku = (n: number) => `${tag}-L${three(n)}`;
const foOfLine = (n: number) => (n < 55 ? n : n <= 295 ? 55 : n - 240);
const bigOrder = {
  name: `#${tag}-BIG`,
  lineItems: Array.from({ length: 300 }, (_, i) => ({ sku: lineSku(i + 1), quantity: 1, location: `${tag} FO site ${two(foOfLine(i + 1))}` })),
};

const suite = useShopifyStandIn({
  catalog: (database) => ({
    ...database,
    order: async (numericId) => (numericId === bigOrderId ? bigOrder : database.order(numericId)),
    locations: async () => [...(await database.locations()), ...manyLocations, vendorLocation],
  }),
  cleanUp: async (prisma) => {
    await prisma.product.deleteMany({ where: { sku: { startsWith: tag } } });
  },
});
let prisma: PrismaClient;
let standIn: ShopifyStandIn;
let admin: ShopifyAdmin;
let shopify: ShopifyModules & {
  fulfillment: typeof import("../../app/shopify/fulfillment.server");
  inventory: typeof import("../../app/shopify/inventory.server");
};
const levels = async () => (await (await fetch(`${standIn.url}/__inventory`)).json()) as Array<{ sku: string; location: string; quantity: number }>;
const operations = async () => (await suite.recorded()).map((call) => call.operation);

beforeAll(async () => {
  ({ prisma, standIn } = suite);
  await prisma.product.createMany({ data: [...wantedSkus, ...extraSkus].map((sku) => ({ sku, name: `Product ${sku}` })) });
  shopify = {
    ...suite.modules,
    fulfillment: await import("../../app/shopify/fulfillment.server"),
    inventory: await import("../../app/shopify/inventory.server"),
  };
  admin = shopify.client.shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
});

describe("260 locations", () => {
  it("finds the vendor's location on the third page and sets its stock there", async () => {
    const result = await shopify.inventory.setAvailableQuantities(admin, { locationName: vendorLocation, items: [{ sku: wantedSkus[0], quantity: 7 }] });
    expect(result).toMatchObject({ set: 1, unknownSkus: [] });
    expect((await levels()).filter((level) => level.sku === wantedSkus[0])).toEqual([{ sku: wantedSkus[0], location: vendorLocation, quantity: 7 }]);
    // 100 a page: the vendor's is on the third (more pages when the database holds more sources).
    expect((await operations()).filter((name) => name === "Locations").length).toBeGreaterThanOrEqual(3);
  });
});

describe("120 variants matching one search", () => {
  it("sets the stock of the SKUs on the second page too", async () => {
    const items = wantedSkus.map((sku, i) => ({ sku, quantity: i + 1 }));
    const result = await shopify.inventory.setAvailableQuantities(admin, { locationName: vendorLocation, items });
    expect(result).toMatchObject({ set: 50, unknownSkus: [] });
    const calls = (await suite.recorded()).filter((call) => call.operation === "VariantsBySku");
    // One search, read in two pages: the second one after the first page's cursor.
    expect(calls.map((call) => call.variables.query)).toEqual([calls[0].variables.query, calls[0].variables.query]);
    expect(calls[1].variables.after).toEqual(expect.any(String));
    const set = new Map((await levels()).filter((level) => level.location === vendorLocation).map((level) => [level.sku, level.quantity]));
    expect(set.get(`${tag}-P31`)).toBe(31);
    expect(set.get(`${tag}-P50`)).toBe(50);
    // The other variants the search matched are not ours: nothing set for them.
    expect(set.has(extraSkus[0])).toBe(false);
  });
});

describe("an order with 60 fulfillment orders and 300 lines", () => {
  const shipment = (sku: string, trackingNumber: string) => ({ shopifyOrderId: bigOrderId, sku, quantity: 1, trackingNumber, carrier: "UPS" });

  it("fulfils line 280, on the 55th fulfillment order, reading the order to its end", async () => {
    const outcome = await shopify.fulfillment.createFulfillmentOnce(admin, shipment(lineSku(280), "1ZPAGES280"));
    expect(outcome).toMatchObject({ created: true, location: { name: `${tag} FO site 55` } });
    const calls = await suite.recorded();
    // FO pages of 10, then 20: the 55th is on the fourth page; its line 226 is past its first 20 lines.
    expect(calls.filter((call) => call.operation === "OrderFulfillmentOrders")).toHaveLength(3);
    expect(calls.filter((call) => call.operation === "FulfillmentOrderLines").length).toBeGreaterThan(0);
    const created = calls.find((call) => call.operation === "FulfillmentCreate")!;
    const group = (created.variables.fulfillment as { lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderId: string }> }).lineItemsByFulfillmentOrder[0];
    expect(group.fulfillmentOrderId).toBe(`gid://shopify/FulfillmentOrder/${bigOrderId}054`);

    // Shopify now says that line is fulfilled, and the others are not.
    const view = await shopify.fulfillment.readOrderView(admin, `gid://shopify/Order/${bigOrderId}`);
    const lines = view!.fulfillmentOrders.nodes.flatMap((fo) => fo.lineItems.nodes);
    expect(view!.fulfillmentOrders.nodes).toHaveLength(60);
    expect(lines).toHaveLength(300);
    expect(lines.filter((line) => line.remainingQuantity === 0).map((line) => line.lineItem.sku)).toEqual([lineSku(280)]);
  });

  it("reads the order again alone, to its end, when the batch query's page is full, and fulfils line 300", async () => {
    const id = `gid://shopify/Order/${bigOrderId}`;
    const views = await shopify.fulfillment.readFulfillmentViews(admin, [id]);
    expect(views.get(id)!.fulfillmentOrders.nodes).toHaveLength(60);
    const outcome = await shopify.fulfillment.createFulfillmentFromView(admin, views, shipment(lineSku(300), "1ZPAGES300"));
    expect(outcome).toMatchObject({ created: true, location: { name: `${tag} FO site 60` } });
    expect(await operations()).toContain("OrdersFulfillmentState");
  });
});
