// Fulfilling drop-shipped lines and pushing stock through the Shopify module,
// against the stand-in over our own database (databaseCatalog): what would
// have been sent to Shopify is read back from the stand-in's recorded calls.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import type { ShopifyAdmin } from "../../app/shopify/admin-client.server";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { useShopifyStandIn, type ShopifyModules, type ShopifyStandIn } from "../support/shopify-stand-in";

// Rows of this file carry this tag, so cleaning up never touches another file's.
const tag = `FI${randomBytes(3).toString("hex").toUpperCase()}`;
const shopifyOrderId = String(9_700_000_000_000 + Math.floor(Math.random() * 1_000_000));
const missingOrderId = String(Number(shopifyOrderId) + 1);
const skuA = `${tag}-A`;
const skuB = `${tag}-B`;
// Vendor stock goes to the vendor's location (the stand-in has one per dropshipper source).
const locationName = `${tag} Vendor`;

const suite = useShopifyStandIn({
  catalog: true,
  cleanUp: async (prisma) => {
    await prisma.order.deleteMany({ where: { order_id: { startsWith: tag } } });
    await prisma.inventorySource.deleteMany({ where: { source_code: { startsWith: tag } } });
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

const recorded = suite.recorded;
const levels = async () => (await (await fetch(`${standIn.url}/__inventory`)).json()) as Array<{ sku: string; location: string; quantity: number }>;
const productSkus = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${tag}-${prefix}${String(i).padStart(3, "0")}`);

beforeAll(async () => {
  ({ prisma, standIn } = suite);
  await prisma.order.create({
    data: {
      order_id: `${tag}-1000`,
      shopify_order_id: shopifyOrderId,
      items: {
        create: [
          { sku: skuA, name: "Trail Runner 2", qty_ordered: 2 },
          { sku: skuB, name: "Camp Mug", qty_ordered: 1 },
        ],
      },
    },
  });
  await prisma.inventorySource.createMany({
    data: [
      { source_code: `${tag}_wh`, name: locationName, type: "store" },
      { source_code: `${tag}_v`, name: locationName, type: "dropshipper" },
    ],
  });
  await prisma.product.createMany({
    data: [...productSkus(100, "P"), ...productSkus(260, "Q"), `${tag} "quoted" \\ sku`].map((sku) => ({ sku, name: `Product ${sku}` })),
  });

  shopify = {
    ...suite.modules,
    fulfillment: await import("../../app/shopify/fulfillment.server"),
    inventory: await import("../../app/shopify/inventory.server"),
  };
  admin = shopify.client.shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
});

describe("databaseCatalog", () => {
  it("reads orders, SKUs and locations from the rows", async () => {
    const catalog = databaseCatalog(prisma);
    expect(await catalog.order(shopifyOrderId)).toEqual({
      name: `#${tag}-1000`,
      lineItems: [
        { sku: skuA, quantity: 2 },
        { sku: skuB, quantity: 1 },
      ],
    });
    expect(await catalog.order(missingOrderId)).toBeNull();
    expect(await catalog.variants([skuA, `${tag}-P001`, `${tag}-NOPE`])).toEqual([`${tag}-P001`]);
    // The demo shop's store locations and a location per vendor; stores are read from Shopify, never served from our rows.
    const locations = await catalog.locations();
    expect(locations).toEqual(expect.arrayContaining([locationName, "Store 001 - Chicago", "Store 006 - St. Louis"]));
    expect(locations).not.toContain(`${tag} Warehouse`);
  });
});

describe("createFulfillmentOnce", () => {
  it("fulfils once; the same tracking number again creates nothing", async () => {
    const input = { shopifyOrderId, sku: skuA, quantity: 2, trackingNumber: "1Z999AA10123456784", carrier: "UPS" };
    const first = await shopify.fulfillment.createFulfillmentOnce(admin, input);
    expect(first.created).toBe(true);
    // As after a crash before our database was updated: numeric id or gid, the same answer.
    const again = await shopify.fulfillment.createFulfillmentOnce(admin, { ...input, shopifyOrderId: `gid://shopify/Order/${shopifyOrderId}` });
    expect(again).toEqual({ fulfillmentId: first.fulfillmentId, created: false });

    const calls = await recorded();
    expect(calls.map((call) => call.operation)).toEqual(["OrderFulfillmentState", "FulfillmentCreate", "OrderFulfillmentState"]);
    expect(calls[0].variables).toEqual({ id: `gid://shopify/Order/${shopifyOrderId}` });
    expect(calls.filter((call) => call.operation === "FulfillmentCreate")).toHaveLength(1);
    expect(calls[1].variables).toEqual({
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: `gid://shopify/FulfillmentOrder/${shopifyOrderId}`,
            fulfillmentOrderLineItems: [{ id: `gid://shopify/FulfillmentOrderLineItem/${shopifyOrderId}001`, quantity: 2 }],
          },
        ],
        trackingInfo: { number: "1Z999AA10123456784", company: "UPS" },
        notifyCustomer: false,
      },
    });
  });

  it("fulfils no more than remains on the line", async () => {
    const result = await shopify.fulfillment.createFulfillmentOnce(admin, {
      shopifyOrderId,
      sku: skuB,
      quantity: 5,
      trackingNumber: "9400100000000000000001",
      carrier: null,
      notifyCustomer: true,
    });
    expect(result.created).toBe(true);
    const [create] = (await recorded()).filter((call) => call.operation === "FulfillmentCreate");
    expect(create.variables).toMatchObject({
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderLineItems: [{ id: `gid://shopify/FulfillmentOrderLineItem/${shopifyOrderId}002`, quantity: 1 }] }],
        trackingInfo: { number: "9400100000000000000001", company: null },
        notifyCustomer: true,
      },
    });
    // The line is now fully shipped: another shipment of it has nothing to fulfil.
    const error = await shopify.fulfillment
      .createFulfillmentOnce(admin, { shopifyOrderId, sku: skuB, quantity: 1, trackingNumber: "9400100000000000000002", carrier: "USPS" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(shopify.client.ShopifyApiError);
    expect((error as Error).message).toBe(`No open line for SKU ${skuB} on order #${tag}-1000 in Shopify (already fulfilled?).`);
  });

  it("names an SKU the order does not have", async () => {
    const error = await shopify.fulfillment
      .createFulfillmentOnce(admin, { shopifyOrderId, sku: `${tag}-ZZZ`, quantity: 1, trackingNumber: "T-unknown", carrier: "UPS" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(shopify.fulfillment.ShopifyFulfillmentError);
    expect(error).toMatchObject({ failure: "no_open_line", message: `No open line for SKU ${tag}-ZZZ on order #${tag}-1000 in Shopify (already fulfilled?).` });
    expect((await recorded()).map((call) => call.operation)).toEqual(["OrderFulfillmentState"]);
  });

  it("says so when Shopify does not know the order", async () => {
    const error = await shopify.fulfillment
      .createFulfillmentOnce(admin, { shopifyOrderId: missingOrderId, sku: skuA, quantity: 1, trackingNumber: "T-missing", carrier: null })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: "order_not_found", message: `Order ${missingOrderId} was not found in Shopify.` });
  });

  it("passes on Shopify's userErrors when the line was fulfilled meanwhile", async () => {
    // Someone fulfils the line between our read and our create (another admin tab, a second worker).
    const racing: ShopifyAdmin = {
      async run(operation, variables) {
        if (operation.name === "FulfillmentCreate") await admin.run(operation, variables);
        return admin.run(operation, variables);
      },
    };
    const error = await shopify.fulfillment
      .createFulfillmentOnce(racing, { shopifyOrderId, sku: skuA, quantity: 2, trackingNumber: "T-race", carrier: "UPS" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      failure: "user_errors",
      message: `Shopify refused to fulfil SKU ${skuA} on order #${tag}-1000: Invalid fulfillment order line item quantity requested.`,
    });
  });
});

describe("setAvailableQuantities", () => {
  it("resolves 120 SKUs in three searches, reports the unknown ones and sets the rest", async () => {
    const known = productSkus(100, "P");
    const unknown = Array.from({ length: 20 }, (_, i) => `${tag}-X${i}`);
    const items = [...known, ...unknown].map((sku, i) => ({ sku, quantity: i % 7 }));

    const result = await shopify.inventory.setAvailableQuantities(admin, { locationName, items });
    expect(result.set).toBe(100);
    expect(result.unknownSkus).toEqual(unknown);
    expect(result.locationId).toMatch(/^gid:\/\/shopify\/Location\/\d+$/);

    const calls = await recorded();
    expect(calls.map((call) => call.operation)).toEqual(["Locations", "VariantsBySku", "VariantsBySku", "VariantsBySku", "InventorySetQuantities"]);
    const searches = calls.filter((call) => call.operation === "VariantsBySku").map((call) => String(call.variables.query).split(" OR "));
    expect(searches.map((terms) => terms.length)).toEqual([50, 50, 20]);
    expect(searches[0][0]).toBe(`sku:"${known[0]}"`);
    // As 2026-10 takes it: no compare (our stock is the truth) and an idempotency key.
    const set = calls.at(-1)!.variables.input as Record<string, unknown> & { quantities: Array<Record<string, unknown>> };
    expect(Object.keys(set).sort()).toEqual(["name", "quantities", "reason"]);
    expect(set).toMatchObject({ name: "available", reason: "correction" });
    expect(set.quantities).toHaveLength(100);
    expect(new Set(set.quantities.map((q) => q.locationId))).toEqual(new Set([result.locationId]));
    expect(set.quantities.every((q) => q.changeFromQuantity === null && !("compareQuantity" in q))).toBe(true);
    expect(calls.at(-1)!.variables.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(calls.every((call) => call.version === "2026-10")).toBe(true);

    const stored = await levels();
    expect(stored).toHaveLength(100);
    expect(stored).toContainEqual({ sku: known[8], location: locationName, quantity: 8 % 7 });
    expect(stored.some((level) => level.sku.startsWith(`${tag}-X`))).toBe(false);
  });

  it("sends at most 250 quantities per call and asks Shopify for locations once per admin", async () => {
    const skus = productSkus(260, "Q");
    const result = await shopify.inventory.setAvailableQuantities(admin, { locationName, items: skus.map((sku) => ({ sku, quantity: 3 })) });
    expect(result).toMatchObject({ set: 260, unknownSkus: [] });
    const calls = await recorded();
    const sets = calls.filter((call) => call.operation === "InventorySetQuantities");
    expect(sets.map((call) => (call.variables.input as { quantities: unknown[] }).quantities.length)).toEqual([250, 10]);
    // Two changes, two keys: a key is never reused for another change.
    expect(new Set(sets.map((call) => call.variables.idempotencyKey)).size).toBe(2);
    expect(calls.filter((call) => call.operation === "VariantsBySku")).toHaveLength(6);
    // The location was resolved by the previous test with the same admin.
    expect(calls.filter((call) => call.operation === "Locations")).toHaveLength(0);
    expect((await levels()).filter((level) => level.quantity === 3)).toHaveLength(260);
  });

  it("quotes SKUs with quotes and backslashes so Shopify finds them", async () => {
    const odd = `${tag} "quoted" \\ sku`;
    const result = await shopify.inventory.setAvailableQuantities(admin, { locationName, items: [{ sku: odd, quantity: 4 }] });
    expect(result).toMatchObject({ set: 1, unknownSkus: [] });
    expect(await levels()).toEqual([{ sku: odd, location: locationName, quantity: 4 }]);
  });

  it("is refused as 2026-10 refuses the 2025-10 input (ignoreCompareQuantity, compareQuantity), and changes nothing", async () => {
    const before = await shopify.inventory.setAvailableQuantities(admin, { locationName, items: [{ sku: `${tag}-P002`, quantity: 6 }] });
    expect(before.set).toBe(1);
    const [variant] = (await recorded()).filter((call) => call.operation === "VariantsBySku");
    const { productVariants } = await admin.run(shopify.operations.VariantsBySku, { query: String(variant.variables.query) });
    const legacy = {
      name: "InventorySetQuantities",
      document: `mutation InventorySetQuantities($input: InventorySetQuantitiesInput!) {
        inventorySetQuantities(input: $input) { inventoryAdjustmentGroup { reason } userErrors { code field message } }
      }`,
    };
    const input = {
      name: "available",
      reason: "correction",
      ignoreCompareQuantity: true,
      quantities: [{ inventoryItemId: productVariants.nodes[0].inventoryItem.id, locationId: before.locationId, quantity: 1, compareQuantity: 6 }],
    };
    const error = await admin.run(legacy, { input }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(shopify.client.ShopifyApiError);
    expect((error as Error).message).toContain("ignoreCompareQuantity (Field is not defined on InventorySetQuantitiesInput)");
    expect((error as Error).message).toContain("quantities.0.compareQuantity (Field is not defined on InventoryQuantityInput)");
    expect(await levels()).toEqual([{ sku: `${tag}-P002`, location: locationName, quantity: 6 }]);
  });

  it("names a location Shopify does not have", async () => {
    const fresh = shopify.client.shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
    const error = await shopify.inventory
      .setAvailableQuantities(fresh, { locationName: `${tag} Nowhere`, items: [{ sku: `${tag}-P001`, quantity: 1 }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(shopify.inventory.ShopifyInventoryError);
    expect((error as Error).message).toContain(`Shopify has no location named "${tag} Nowhere"`);
    expect((await recorded()).map((call) => call.operation)).toEqual(["Locations"]);
  });
});
