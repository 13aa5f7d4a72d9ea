// The Shopify module in local mode goes to the loopback stand-in, which
// answers the app's operations and records what was sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as operations from "../../app/shopify/operations";
import { postToStandIn } from "../support/shopify-stand-in";
import { skusInQuery, startShopifyStandIn, type RecordedCall, type StandInCatalog } from "../../app/shopify/stand-in.server";

let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;
beforeAll(async () => {
  standIn = await startShopifyStandIn({ shop: "demo-shop.myshopify.com" });
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;
});
afterAll(() => standIn.stop());
// Each test starts from a stand-in that has seen nothing.
beforeEach(async () => {
  await fetch(`${standIn.url}/__state`, { method: "DELETE" });
});

/** Sends one operation as the app's client would, returning the whole GraphQL answer. */
const graphql = async (url: string, query: string, variables: Record<string, unknown> = {}) => (await postToStandIn(url, query, variables)).body;
/** The app's own document of an operation (the stand-in validates every document against Shopify's schema). */
const named = (name: keyof typeof operations) => (operations[name] as { document: string }).document;
const mutation = named;
/** inventorySetQuantities as 2026-10 takes it: with its idempotency key. */
const setQuantities = named("InventorySetQuantities");

describe("Shopify Admin GraphQL through the stand-in", () => {
  it("runs typed operations and records each call", async () => {
    const { shopifyAdminFor } = await import("../../app/shopify/admin-client.server");
    const { OrderRead, ShopInfo } = await import("../../app/shopify/operations");
    const admin = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });

    const { shop } = await admin.run(ShopInfo, {});
    expect(shop.myshopifyDomain).toBe("demo-shop.myshopify.com");
    expect(shop.currencyCode).toBe("USD");

    const { order } = await admin.run(OrderRead, { id: "gid://shopify/Order/5812345670007" });
    expect(order?.name).toBe("#5812345670007");

    const recorded = (await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[];
    expect(recorded.map((call) => call.operation)).toEqual(["ShopInfo", "OrderRead"]);
    expect(recorded[1].variables).toEqual({ id: "gid://shopify/Order/5812345670007" });
    expect(recorded.map((call) => call.version)).toEqual(["2026-10", "2026-10"]);
  });

  it("fails clearly on an operation it does not know", async () => {
    const { shopifyAdminFor, ShopifyApiError } = await import("../../app/shopify/admin-client.server");
    const admin = shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
    const unknown = { name: "Nope", document: "query Nope { shop { name } }" };
    const error = await admin.run(unknown, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyApiError);
    expect((error as Error).message).toContain("does not answer Nope");
  });
});

describe("fulfilments kept by the stand-in", () => {
  it("answers fulfillment orders with stable ids and reduces what remains", async () => {
    const orderId = "gid://shopify/Order/5812345670014";
    const before = (await graphql(standIn.url, named("OrderFulfillmentState"), { id: orderId })).data.order;
    expect(before.name).toBe("#5812345670014");
    expect(before.fulfillments).toEqual([]);
    // One fulfillment order, routed to the shop's first location (D169), its lines one page.
    expect(before.fulfillmentOrders.nodes).toEqual([
      {
        id: "gid://shopify/FulfillmentOrder/5812345670014",
        status: "OPEN",
        assignedLocation: { location: { id: expect.stringMatching(/^gid:\/\/shopify\/Location\/\d+$/), name: "Shop location" } },
        lineItems: {
          pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
          nodes: [{ id: "gid://shopify/FulfillmentOrderLineItem/5812345670014001", remainingQuantity: 1, lineItem: { sku: "SKU-1001", quantity: 1 } }],
        },
      },
    ]);
    expect(before.fulfillmentOrders.pageInfo.hasNextPage).toBe(false);

    const created = await graphql(standIn.url, mutation("FulfillmentCreate"), {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: "gid://shopify/FulfillmentOrder/5812345670014",
            fulfillmentOrderLineItems: [{ id: "gid://shopify/FulfillmentOrderLineItem/5812345670014001", quantity: 1 }],
          },
        ],
        trackingInfo: { number: "1Z999AA10123456784", company: "UPS" },
        notifyCustomer: false,
      },
    });
    expect(created.data.fulfillmentCreate).toEqual({
      fulfillment: { id: "gid://shopify/Fulfillment/5812345670014001", status: "SUCCESS", trackingInfo: [{ number: "1Z999AA10123456784", company: "UPS" }] },
      userErrors: [],
    });

    const after = (await graphql(standIn.url, named("OrderFulfillmentState"), { id: orderId })).data.order;
    expect(after.fulfillments).toEqual([created.data.fulfillmentCreate.fulfillment]);
    expect(after.fulfillmentOrders.nodes[0].status).toBe("CLOSED");
    expect(after.fulfillmentOrders.nodes[0].lineItems.nodes[0].remainingQuantity).toBe(0);
    const read = (await graphql(standIn.url, named("OrderRead"), { id: orderId })).data.order;
    expect(read.displayFulfillmentStatus).toBe("FULFILLED");

    // Clearing the calls keeps what was fulfilled; clearing the state forgets it.
    await fetch(`${standIn.url}/__calls`, { method: "DELETE" });
    expect((await graphql(standIn.url, named("OrderFulfillmentState"), { id: orderId })).data.order.fulfillments).toHaveLength(1);
    await fetch(`${standIn.url}/__state`, { method: "DELETE" });
    expect(await (await fetch(`${standIn.url}/__calls`)).json()).toEqual([]);
    expect((await graphql(standIn.url, named("OrderFulfillmentState"), { id: orderId })).data.order.fulfillments).toEqual([]);
  });

  it("answers userErrors as Shopify does for too many units, unknown lines and unknown fulfillment orders", async () => {
    const create = (fulfillmentOrderId: string, id: string, quantity: number) =>
      graphql(standIn.url, mutation("FulfillmentCreate"), {
        fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId, fulfillmentOrderLineItems: [{ id, quantity }] }], trackingInfo: { number: "T1" } },
      });
    const tooMany = await create("gid://shopify/FulfillmentOrder/77", "gid://shopify/FulfillmentOrderLineItem/77001", 2);
    expect(tooMany.data.fulfillmentCreate).toEqual({
      fulfillment: null,
      userErrors: [{ field: ["fulfillment"], message: "Invalid fulfillment order line item quantity requested." }],
    });
    const unknownLine = await create("gid://shopify/FulfillmentOrder/77", "gid://shopify/FulfillmentOrderLineItem/77002", 1);
    expect(unknownLine.data.fulfillmentCreate.userErrors[0].message).toBe("Fulfillment order line item does not exist.");
    const unknownOrder = await create("gid://shopify/Nope/77", "gid://shopify/FulfillmentOrderLineItem/77001", 1);
    expect(unknownOrder.data.fulfillmentCreate.userErrors[0].message).toBe("Fulfillment order does not exist.");
    // Nothing was fulfilled by the refused calls.
    const state = (await graphql(standIn.url, named("OrderFulfillmentState"), { id: "gid://shopify/Order/77" })).data.order;
    expect(state.fulfillmentOrders.nodes[0].lineItems.nodes[0].remainingQuantity).toBe(1);
  });
});

describe("fulfillment orders moved between locations (D168)", () => {
  it("moves a whole fulfillment order, splits one for part of a line, and refuses as Shopify does", async () => {
    const { FulfillmentOrderMove, OrderFulfillmentState, FulfillmentCreate } = await import("../../app/shopify/operations");
    const catalog: StandInCatalog = {
      order: async (id) => ({ name: `#${id}`, lineItems: [{ sku: "MUG", quantity: 3 }] }),
      variants: async (skus) => skus,
      locations: async () => ["Store A", "Vendor B", "Vendor C"],
      // Vendor C stocks nothing.
      levels: async (skus) => skus.flatMap((sku) => ["Store A", "Vendor B"].map((location) => ({ sku, location, quantity: 10 }))),
    };
    const own = await startShopifyStandIn({ catalog });
    try {
      const locations = (await (await fetch(`${own.url}/__locations`)).json()) as Array<{ id: string; name: string }>;
      const at = (name: string) => locations.find((location) => location.name === name)!.id;
      const read = async (id: string) => (await graphql(own.url, OrderFulfillmentState.document, { id: `gid://shopify/Order/${id}` })).data.order;
      const move = (variables: Record<string, unknown>) => graphql(own.url, FulfillmentOrderMove.document, variables);

      // Whole: the fulfillment order itself changes location.
      const whole = (await move({ id: "gid://shopify/FulfillmentOrder/1", newLocationId: at("Vendor B") })).data.fulfillmentOrderMove;
      expect(whole.userErrors).toEqual([]);
      expect(whole.movedFulfillmentOrder).toMatchObject({ id: "gid://shopify/FulfillmentOrder/1", assignedLocation: { location: { name: "Vendor B" } } });
      expect(
        (await read("1")).fulfillmentOrders.nodes.map((fo: { assignedLocation: { location: { name: string } } }) => fo.assignedLocation.location.name),
      ).toEqual(["Vendor B"]);

      // Part of a line: a new fulfillment order at the new location, the rest stays.
      const line = (await read("2")).fulfillmentOrders.nodes[0].lineItems.nodes[0].id;
      const split = (
        await move({ id: "gid://shopify/FulfillmentOrder/2", newLocationId: at("Vendor B"), fulfillmentOrderLineItems: [{ id: line, quantity: 1 }] })
      ).data.fulfillmentOrderMove;
      expect(split.userErrors).toEqual([]);
      expect(split.movedFulfillmentOrder.id).not.toBe("gid://shopify/FulfillmentOrder/2");
      const after = await read("2");
      expect(
        after.fulfillmentOrders.nodes.map(
          (fo: { assignedLocation: { location: { name: string } }; lineItems: { nodes: Array<{ remainingQuantity: number }> } }) => [
            fo.assignedLocation.location.name,
            fo.lineItems.nodes[0].remainingQuantity,
          ],
        ),
      ).toEqual([
        ["Store A", 2],
        ["Vendor B", 1],
      ]);

      // Refusals: a location that does not stock the item, an unknown location, a closed (fulfilled) fulfillment order.
      const notStocked = (await move({ id: "gid://shopify/FulfillmentOrder/3", newLocationId: at("Vendor C") })).data.fulfillmentOrderMove;
      expect(notStocked).toMatchObject({ movedFulfillmentOrder: null, userErrors: [{ field: ["newLocationId"], code: null }] });
      expect(notStocked.userErrors[0].message).toBe("The location Vendor C does not stock the inventory item of SKU MUG.");
      const unknown = (await move({ id: "gid://shopify/FulfillmentOrder/3", newLocationId: "gid://shopify/Location/1" })).data.fulfillmentOrderMove;
      expect(unknown.userErrors).toEqual([{ field: ["newLocationId"], message: "Location does not exist or is not active.", code: null }]);
      await graphql(own.url, FulfillmentCreate.document, {
        fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: "gid://shopify/FulfillmentOrder/3" }], trackingInfo: { number: "T3" } },
      });
      const closed = (await move({ id: "gid://shopify/FulfillmentOrder/3", newLocationId: at("Vendor B") })).data.fulfillmentOrderMove;
      expect(closed.userErrors).toEqual([{ field: ["id"], message: "Fulfillment order 3 is closed and cannot be moved.", code: null }]);
      // The fulfilment took its 3 units at Store A, where that fulfillment order was.
      expect((await (await fetch(`${own.url}/__inventory`)).json()) as unknown[]).toEqual([{ sku: "MUG", location: "Store A", quantity: 7 }]);
    } finally {
      await own.stop();
    }
  });
});

describe("many orders in one nodes query (D130)", () => {
  it("answers each id in order, null for an unknown order, cuts lists at the query's first, and costs per id with the unused part given back", async () => {
    const { OrdersFulfillmentState } = await import("../../app/shopify/operations");
    const catalog: StandInCatalog = {
      order: async (id) =>
        id === "404" ? null : { name: `#${id}`, lineItems: Array.from({ length: id === "12" ? 12 : 1 }, (_, i) => ({ sku: `SKU-${id}-${i}`, quantity: 1 })) },
      variants: async (skus) => skus,
      locations: async () => ["Main warehouse"],
    };
    const own = await startShopifyStandIn({ catalog });
    try {
      const ids = ["gid://shopify/Order/7", "gid://shopify/Order/404", "gid://shopify/Product/5", "gid://shopify/Order/12"];
      const answer = await graphql(own.url, OrdersFulfillmentState.document, { ids });
      const [seven, unknown, product, twelve] = answer.data.nodes;
      expect(seven).toMatchObject({
        id: "gid://shopify/Order/7",
        name: "#7",
        fulfillments: [],
        fulfillmentOrders: { nodes: [{ id: "gid://shopify/FulfillmentOrder/7", status: "OPEN" }] },
      });
      expect(seven.fulfillmentOrders.nodes[0].lineItems.nodes).toEqual([
        { id: "gid://shopify/FulfillmentOrderLineItem/7001", remainingQuantity: 1, lineItem: { sku: "SKU-7-0", quantity: 1 } },
      ]);
      expect(unknown).toBeNull();
      // Another type's node: none of the Order fields.
      expect(product).not.toHaveProperty("id");
      // lineItems(first: 10): the order's other two lines are not in this answer.
      expect(twelve.fulfillmentOrders.nodes[0].lineItems.nodes).toHaveLength(10);
      // 1 + 4 ids × (1 + 7 + 5 + 5 + 12): what each connection asks for, once per id; the answer cost what it returned.
      expect(answer.extensions.cost.requestedQueryCost).toBe(1 + 4 * 30);
      expect(answer.extensions.cost.actualQueryCost).toBeLessThan(answer.extensions.cost.requestedQueryCost);
      expect(answer.extensions.cost.throttleStatus.currentlyAvailable).toBe(2000 - answer.extensions.cost.actualQueryCost);

      // More than the single-query limit of 1,000 is refused before anything runs, with the cost it would have had.
      const many = Array.from({ length: 40 }, (_, i) => `gid://shopify/Order/${i + 1}`);
      const refused = await graphql(own.url, OrdersFulfillmentState.document, { ids: many });
      expect(refused.data).toBeUndefined();
      expect(refused.errors).toEqual([
        {
          message: "Query cost is 1201, which exceeds the single query max cost limit (1000).",
          extensions: { code: "MAX_COST_EXCEEDED", cost: 1201, maxCost: 1000 },
        },
      ]);
    } finally {
      await own.stop();
    }
  });

  it("lets the app read a batch of orders in as few queries as the cost allows, and fulfil from what it read", async () => {
    const { shopifyAdminFor } = await import("../../app/shopify/admin-client.server");
    const { readFulfillmentViews, createFulfillmentFromView } = await import("../../app/shopify/fulfillment.server");
    const admin = shopifyAdminFor({ mode: "local", shop: "nodes-shop.myshopify.com" });
    // As in a fresh process: no order's cost reported yet.
    delete (globalThis as { __ordersFulfillmentStateCost?: number }).__ordersFulfillmentStateCost;
    const ids = Array.from({ length: 70 }, (_, i) => `gid://shopify/Order/${5812345680000 + i}`);
    const views = await readFulfillmentViews(admin, ids);
    expect([...views.keys()].sort()).toEqual([...ids].sort());
    const reads = (await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[];
    // 30 points an order: a first query of 25 orders alone, then, side by side, as many as fit in 1,000 points (33) and the rest.
    expect(reads.map((call) => call.operation)).toEqual(["OrdersFulfillmentState", "OrdersFulfillmentState", "OrdersFulfillmentState"]);
    expect((reads[0].variables.ids as string[]).length).toBe(25);
    expect(
      reads
        .slice(1)
        .map((call) => (call.variables.ids as string[]).length)
        .sort((a, b) => a - b),
    ).toEqual([12, 33]);
    // Two shipments of one order from one read: the second sees the first's fulfilment and what it left.
    const first = await createFulfillmentFromView(admin, views, {
      shopifyOrderId: ids[0],
      sku: "SKU-1001",
      quantity: 1,
      trackingNumber: "1Z-NODES-1",
      carrier: "UPS",
    });
    expect(first.created).toBe(true);
    const again = await createFulfillmentFromView(admin, views, {
      shopifyOrderId: ids[0],
      sku: "SKU-1001",
      quantity: 1,
      trackingNumber: "1Z-NODES-1",
      carrier: "UPS",
    });
    expect(again).toEqual({ fulfillmentId: first.fulfillmentId, created: false });
    const closed = await createFulfillmentFromView(admin, views, {
      shopifyOrderId: ids[0],
      sku: "SKU-1001",
      quantity: 1,
      trackingNumber: "1Z-NODES-2",
      carrier: "UPS",
    }).catch((error: unknown) => error);
    expect(closed).toMatchObject({ failure: "no_open_line" });
    const sent = ((await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[]).slice(3).map((call) => call.operation);
    // The one create; the refused third shipment read the order again (Shopify may have changed since) before giving up.
    expect(sent).toEqual(["FulfillmentCreate", "OrderFulfillmentState"]);
  });
});

describe("inventory kept by the stand-in", () => {
  it("answers variants and locations with stable ids and stores the levels set", async () => {
    const variants = (await graphql(standIn.url, named("VariantsBySku"), { query: 'sku:"A-1" OR sku:"B \\"2\\""' })).data.productVariants.nodes;
    expect(variants.map((v: { sku: string }) => v.sku)).toEqual(["A-1", 'B "2"']);
    const again = (await graphql(standIn.url, named("VariantsBySku"), { query: 'sku:"A-1"' })).data.productVariants.nodes;
    expect(again[0]).toEqual(variants[0]);
    expect(variants[0].id).toMatch(/^gid:\/\/shopify\/ProductVariant\/\d+$/);
    expect(variants[0].inventoryItem.id).toMatch(/^gid:\/\/shopify\/InventoryItem\/\d+$/);

    const locations = (await graphql(standIn.url, named("Locations"))).data.locations.nodes;
    expect(locations).toEqual([{ id: expect.stringMatching(/^gid:\/\/shopify\/Location\/\d+$/), name: "Shop location" }]);

    const set = await graphql(standIn.url, setQuantities, {
      input: {
        name: "available",
        reason: "correction",
        quantities: variants.map((v: { inventoryItem: { id: string } }, i: number) => ({
          inventoryItemId: v.inventoryItem.id,
          locationId: locations[0].id,
          quantity: 5 + i,
          changeFromQuantity: null,
        })),
      },
      idempotencyKey: "key-1",
    });
    expect(set.data.inventorySetQuantities.userErrors).toEqual([]);
    expect(set.data.inventorySetQuantities.inventoryAdjustmentGroup.changes).toEqual([
      { name: "available", delta: 5 },
      { name: "available", delta: 6 },
    ]);
    expect(await (await fetch(`${standIn.url}/__inventory`)).json()).toEqual([
      { sku: "A-1", location: "Shop location", quantity: 5 },
      { sku: 'B "2"', location: "Shop location", quantity: 6 },
    ]);
  });

  it(
    "refuses what Shopify 2026-10 refuses: the removed compare fields, no " + "idempotency key, no changeFromQuantity, unknown items, more than 250 quantities",
    async () => {
      const [location] = (await graphql(standIn.url, named("Locations"))).data.locations.nodes;
      const [variant] = (await graphql(standIn.url, named("VariantsBySku"), { query: 'sku:"A-1"' })).data.productVariants.nodes;
      const quantity = (extra: Record<string, unknown> = { changeFromQuantity: null }) => ({
        inventoryItemId: variant.inventoryItem.id,
        locationId: location.id,
        quantity: 1,
        ...extra,
      });
      let keys = 0;
      const set = (input: Record<string, unknown>, document = setQuantities) =>
        graphql(standIn.url, document, { input: { name: "available", reason: "correction", ...input }, idempotencyKey: `key-${++keys}` });

      // The 2025-10 shape fails validation as a whole: errors, no data.
      const old = await set({ ignoreCompareQuantity: true, quantities: [quantity({ compareQuantity: 0 })] });
      expect(old.data).toBeUndefined();
      expect(old.errors).toHaveLength(1);
      expect(old.errors[0].message).toContain("ignoreCompareQuantity (Field is not defined on InventorySetQuantitiesInput)");
      expect(old.errors[0].extensions.problems).toEqual([
        { path: ["ignoreCompareQuantity"], explanation: "Field is not defined on InventorySetQuantitiesInput" },
        { path: ["quantities", 0, "compareQuantity"], explanation: "Field is not defined on InventoryQuantityInput" },
      ]);
      const noKey = await set(
        { quantities: [quantity()] },
        "mutation InventorySetQuantities($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code } } }",
      );
      expect(noKey.errors[0].message).toContain("requires an idempotency key");
      const literalKey = await set(
        { quantities: [quantity()] },
        `mutation InventorySetQuantities($input: InventorySetQuantitiesInput!) {
          inventorySetQuantities(input: $input) @idempotent(key: "literal-1") { userErrors { code } }
        }`,
      );
      expect(literalKey.data.inventorySetQuantities.userErrors).toEqual([]);

      const noChangeFrom = await set({ quantities: [quantity({})] });
      expect(noChangeFrom.data.inventorySetQuantities.userErrors[0]).toMatchObject({
        code: "COMPARE_QUANTITY_REQUIRED",
        field: ["input", "quantities", "0", "changeFromQuantity"],
      });
      const stale = await set({ quantities: [quantity({ changeFromQuantity: 7 })] });
      expect(stale.data.inventorySetQuantities.userErrors[0]).toMatchObject({ code: "CHANGE_FROM_QUANTITY_STALE" });
      const current = await set({ quantities: [{ ...quantity({ changeFromQuantity: 1 }), quantity: 2 }] });
      expect(current.data.inventorySetQuantities.userErrors).toEqual([]);
      const unknownItem = await set({ quantities: [{ ...quantity(), inventoryItemId: "gid://shopify/InventoryItem/1" }] });
      expect(unknownItem.data.inventorySetQuantities.userErrors[0]).toMatchObject({
        code: "INVALID_INVENTORY_ITEM",
        field: ["input", "quantities", "0", "inventoryItemId"],
      });
      // More than 250 quantities is refused as a whole (no userError code of the schema fits it), a non-integer by the variable's type.
      const tooMany = await set({ quantities: Array.from({ length: 251 }, (_, i) => ({ ...quantity(), quantity: i })) });
      expect(tooMany.data).toBeUndefined();
      expect(tooMany.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(["MAX_INPUT_SIZE_EXCEEDED"]);
      const fraction = await set({ quantities: [{ ...quantity(), quantity: 1.5 }] });
      expect(fraction.data).toBeUndefined();
      expect(fraction.errors[0]).toMatchObject({
        message:
          "Variable $input of type InventorySetQuantitiesInput! was provided invalid value for quantities.0.quantity (Could not coerce value 1.5 to Int)",
        extensions: { code: "INVALID_VARIABLE" },
      });
      const tooHigh = await set({ quantities: [{ ...quantity(), quantity: 1_000_000_001 }] });
      expect(tooHigh.data.inventorySetQuantities.userErrors[0]).toMatchObject({
        code: "INVALID_QUANTITY_TOO_HIGH",
        field: ["input", "quantities", "0", "quantity"],
      });
      expect(await (await fetch(`${standIn.url}/__inventory`)).json()).toEqual([{ sku: "A-1", location: "Shop location", quantity: 2 }]);
    },
  );

  it("answers a resend with the same idempotency key as the first time, without setting again", async () => {
    const [location] = (await graphql(standIn.url, named("Locations"))).data.locations.nodes;
    const [variant] = (await graphql(standIn.url, named("VariantsBySku"), { query: 'sku:"A-1"' })).data.productVariants.nodes;
    const input = (quantity: number) => ({
      name: "available",
      reason: "correction",
      quantities: [{ inventoryItemId: variant.inventoryItem.id, locationId: location.id, quantity, changeFromQuantity: null }],
    });
    const first = await graphql(standIn.url, setQuantities, { input: input(4), idempotencyKey: "same" });
    // Meanwhile the level changes (a sale in Shopify, say).
    await graphql(standIn.url, setQuantities, { input: input(9), idempotencyKey: "other" });
    const resent = await graphql(standIn.url, setQuantities, { input: input(4), idempotencyKey: "same" });
    expect(resent.data).toEqual(first.data);
    expect(await (await fetch(`${standIn.url}/__inventory`)).json()).toEqual([{ sku: "A-1", location: "Shop location", quantity: 9 }]);
    const mismatch = await graphql(standIn.url, setQuantities, { input: input(5), idempotencyKey: "same" });
    expect(mismatch.data.inventorySetQuantities.userErrors[0].code).toBe("IDEMPOTENCY_KEY_PARAMETER_MISMATCH");
  });

  it("reads SKUs back from quoted search terms", () => {
    expect(skusInQuery('sku:"A" OR sku:"B\\"C" OR sku:plain OR sku:"back\\\\slash"')).toEqual(["A", 'B"C', "plain", "back\\slash"]);
  });
});

describe("a stand-in over a catalog", () => {
  it("knows only the catalog's orders, SKUs and locations", async () => {
    const catalog: StandInCatalog = {
      order: async (id) =>
        id === "42"
          ? {
              name: "#100042",
              lineItems: [
                { sku: "RED-S", quantity: 2 },
                { sku: "RED-M", quantity: 1 },
              ],
            }
          : null,
      variants: async (skus) => skus.filter((sku) => sku.startsWith("RED-")),
      locations: async () => ["Main warehouse", "Vendor ACME"],
    };
    const own = await startShopifyStandIn({ catalog });
    try {
      expect((await graphql(own.url, named("OrderRead"), { id: "gid://shopify/Order/43" })).data.order).toBeNull();
      expect((await graphql(own.url, named("OrderFulfillmentState"), { id: "gid://shopify/Order/43" })).data.order).toBeNull();
      const read = (await graphql(own.url, named("OrderRead"), { id: "gid://shopify/Order/42" })).data.order;
      expect(read.name).toBe("#100042");
      expect(read.displayFulfillmentStatus).toBe("UNFULFILLED");
      const state = (await graphql(own.url, named("OrderFulfillmentState"), { id: "gid://shopify/Order/42" })).data.order;
      expect(state.fulfillmentOrders.nodes[0].lineItems.nodes.map((line: { id: string }) => line.id)).toEqual([
        "gid://shopify/FulfillmentOrderLineItem/42001",
        "gid://shopify/FulfillmentOrderLineItem/42002",
      ]);
      const variants = (await graphql(own.url, named("VariantsBySku"), { query: 'sku:"RED-S" OR sku:"BLUE-S"' })).data.productVariants.nodes;
      expect(variants.map((v: { sku: string }) => v.sku)).toEqual(["RED-S"]);
      const locations = (await graphql(own.url, named("Locations"))).data.locations.nodes;
      expect(locations.map((l: { name: string }) => l.name)).toEqual(["Main warehouse", "Vendor ACME"]);
    } finally {
      await own.stop();
    }
  });

  it("answers a failing catalog as a server error, not as data", async () => {
    const broken: StandInCatalog = {
      order: async () => {
        throw new Error("database is down");
      },
      variants: async () => [],
      locations: async () => [],
    };
    const own = await startShopifyStandIn({ catalog: broken });
    try {
      const response = await fetch(`${own.url}/admin/api/2026-10/graphql.json`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: named("OrderRead"), variables: { id: "gid://shopify/Order/1" } }),
      });
      expect(response.status).toBe(500);
      expect(JSON.stringify(await response.json())).toContain("database is down");
    } finally {
      await own.stop();
    }
  });
});

describe("Shopify's rate limits in the stand-in", () => {
  const throttle = async (control: unknown) =>
    fetch(`${standIn.url}/__throttle`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(control) });
  const calls = async () => (await (await fetch(`${standIn.url}/__calls`)).json()) as RecordedCall[];

  it("reports the cost of every answer, as an idle shop's by default", async () => {
    const query = await graphql(standIn.url, "query ShopInfo { shop { name } }");
    expect(query.extensions.cost).toEqual({
      requestedQueryCost: 1,
      actualQueryCost: 1,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 },
    });
    const search = await graphql(standIn.url, "query VariantsBySku($query: String!) { productVariants(first: 100, query: $query) { nodes { id } } }", {
      query: 'sku:"A"',
    });
    expect(search.extensions.cost.requestedQueryCost).toBe(103);
    const set = await graphql(standIn.url, setQuantities, { input: { name: "available", reason: "correction", quantities: [] }, idempotencyKey: "k" });
    expect(set.extensions.cost.requestedQueryCost).toBe(10);
  });

  it("meters a leaky bucket: THROTTLED with the cost extension when a request costs more than is left, and nothing runs", async () => {
    const orderId = "gid://shopify/Order/5812345670099";
    const [line] = (await graphql(standIn.url, named("OrderFulfillmentState"), { id: orderId })).data.order.fulfillmentOrders.nodes[0].lineItems.nodes;
    expect(await (await throttle({ bucket: { maximumAvailable: 20, restoreRate: 2, currentlyAvailable: 5 } })).json()).toMatchObject({
      bucket: { metered: true, currentlyAvailable: 5 },
    });

    const fulfil = () =>
      graphql(standIn.url, mutation("FulfillmentCreate"), {
        fulfillment: {
          lineItemsByFulfillmentOrder: [
            { fulfillmentOrderId: "gid://shopify/FulfillmentOrder/5812345670099", fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] },
          ],
        },
      });
    const refused = await fulfil();
    expect(refused.data).toBeUndefined();
    expect(refused.errors).toEqual([{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }]);
    expect(refused.extensions.cost).toEqual({
      requestedQueryCost: 10,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 20, currentlyAvailable: 5, restoreRate: 2 },
    });
    const [recorded] = (await calls()).filter((call) => call.operation === "FulfillmentCreate");
    expect(recorded).toMatchObject({ throttled: "THROTTLED", retryAfterMs: 2500, inFlight: 1 });
    // Nothing was fulfilled; cheap queries still go through the 5 points left.
    const cheap = "query OrderFulfillmentState($id: ID!) { order(id: $id) { fulfillments(first: 1) { id } } }";
    const state = await graphql(standIn.url, cheap, { id: orderId });
    expect(state.data.order.fulfillments).toEqual([]);

    await fetch(`${standIn.url}/__throttle`, { method: "DELETE" });
    expect((await fulfil()).data.fulfillmentCreate.userErrors).toEqual([]);
  });

  it("answers HTTP 429 with Retry-After as many times as asked, then as usual", async () => {
    await throttle({ http429: { times: 2, retryAfterSeconds: 1.5 } });
    const post = () => fetch(`${standIn.url}/admin/api/2026-10/graphql.json`, { method: "POST", body: JSON.stringify({ query: named("ShopInfo") }) });
    for (let i = 0; i < 2; i += 1) {
      const response = await post();
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe("1.5");
      expect((await response.json()).errors).toContain("Exceeded");
    }
    expect((await post()).status).toBe(200);
    expect((await calls()).map((call) => call.throttled ?? "answered")).toEqual(["HTTP 429", "HTTP 429", "answered"]);
  });

  it("refuses a control it does not understand", async () => {
    const response = await throttle({ bucket: { maximumAvailable: -1, restoreRate: 1 }, tokens: 3 });
    expect(response.status).toBe(422);
  });
});
