// Fulfilled where it ships from (D169): an assignment moves the order's
// Shopify fulfillment order lines to its source's location, and the vendor's
// shipment is then fulfilled there, taking the stock at the vendor's location,
// not at the store Shopify first routed the order to. A refused move and a
// source without location are recorded on the assignment and shown on its grid.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "../../app/db/client.server";
import type { ShopifyAdmin } from "../../app/shopify/admin-client.server";
import { DEMO_STORE_LOCATIONS } from "../../app/shopify/stand-in-shop";
import { useShopifyStandIn, type ShopifyModules, type ShopifyStandIn } from "../support/shopify-stand-in";

const tag = `FS${randomBytes(3).toString("hex").toUpperCase()}`;
const routedStore = DEMO_STORE_LOCATIONS[0].name;
const vendorName = `${tag} Vendor`;
const bareVendorName = `${tag} Bare Vendor`;
let orderNumber = 0;

const suite = useShopifyStandIn({
  catalog: true,
  cleanUp: async (prisma) => {
    await prisma.assignment.deleteMany({ where: { order_increment_id: { startsWith: tag } } });
    await prisma.order.deleteMany({ where: { order_id: { startsWith: tag } } });
    await prisma.inventorySource.deleteMany({ where: { source_code: { startsWith: tag } } });
    await prisma.product.deleteMany({ where: { sku: { startsWith: tag } } });
  },
});
let prisma: PrismaClient;
let standIn: ShopifyStandIn;
let admin: ShopifyAdmin;
let modules: ShopifyModules & {
  assignments: typeof import("../../app/sales/assignments.server");
  changes: typeof import("../../app/sales/assignment-changes.server");
  grids: typeof import("../../app/sales/grids.server");
  gridServer: typeof import("../../app/grid/grid.server");
  fulfillment: typeof import("../../app/shopify/fulfillment.server");
  locations: typeof import("../../app/shopify/locations.server");
};

const locationId = async (name: string) => {
  const served = (await (await fetch(`${standIn.url}/__locations`)).json()) as Array<{ id: string; name: string }>;
  return served
    .find((location) => location.name === name)!
    .id.split("/")
    .pop()!;
};
const setLevels = (levels: Array<{ sku: string; location: string; quantity: number }>) =>
  fetch(`${standIn.url}/__levels`, { method: "PUT", body: JSON.stringify(levels) });
/** What Shopify has available of the SKU, per location name. */
async function available(sku: string): Promise<Record<string, number>> {
  const byId = (await modules.locations.readAvailableBySku(admin, [sku])).get(sku) ?? new Map<string, number>();
  const served = (await (await fetch(`${standIn.url}/__locations`)).json()) as Array<{ id: string; name: string }>;
  return Object.fromEntries(
    served.filter((location) => byId.has(location.id.split("/").pop()!)).map((location) => [location.name, byId.get(location.id.split("/").pop()!)!]),
  );
}
async function makeOrder(sku: string, qty: number) {
  const shopifyOrderId = String(9_500_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
  const order = await prisma.order.create({
    data: {
      order_id: `${tag}-${++orderNumber}`,
      shopify_order_id: shopifyOrderId,
      magento_status: "processing",
      total_shippable_qty_ordered: qty,
      items: { create: [{ sku, name: `Product ${sku}`, qty_ordered: qty }] },
    },
    include: { items: true },
  });
  return { orderId: order.order_id, shopifyOrderId, itemId: order.items[0].item_id };
}
const assignment = (id: number) => prisma.assignment.findUniqueOrThrow({ where: { id } });
/** The assignment's row of the grid as a reader of `language` sees it (stored notes rendered from their codes, D114). */
const gridRow = async (id: number, language: "en" | "de" = "en") => {
  const answer = await modules.gridServer.runGrid(modules.grids.assignmentGrid, new URLSearchParams({ queryValue: tag, per_page: "100" }));
  const { i18nServer } = await import("../../app/i18n/i18n.server");
  const { renderForReader } = await import("../../app/i18n/messages");
  const rendered = renderForReader(await i18nServer.getFixedT(language, "common"), modules.grids.flatAnswer(answer));
  return (rendered.data as Array<Record<string, unknown>>).find((row) => row.id === id);
};

beforeAll(async () => {
  ({ prisma, standIn } = suite);
  await prisma.inventorySource.createMany({
    data: [
      { source_code: `${tag}_v`, name: vendorName, type: "dropshipper" },
      { source_code: `${tag}_b`, name: bareVendorName, type: "dropshipper" },
      { source_code: `${tag}_s`, name: `${tag} Hand-made Store`, type: "store" },
    ],
  });
  await prisma.product.createMany({ data: ["A", "B", "C", "D"].map((letter) => ({ sku: `${tag}-${letter}`, name: `Product ${letter}` })) });
  modules = {
    ...suite.modules,
    assignments: await import("../../app/sales/assignments.server"),
    changes: await import("../../app/sales/assignment-changes.server"),
    grids: await import("../../app/sales/grids.server"),
    gridServer: await import("../../app/grid/grid.server"),
    fulfillment: await import("../../app/shopify/fulfillment.server"),
    locations: await import("../../app/shopify/locations.server"),
  };
  admin = modules.client.shopifyAdminFor({ mode: "local", shop: "demo-shop.myshopify.com" });
  // The vendors' sources linked to their Shopify locations, as the location sync links them (D48).
  await prisma.inventorySource.update({ where: { source_code: `${tag}_v` }, data: { shopify_location_id: await locationId(vendorName) } });
  await prisma.inventorySource.update({ where: { source_code: `${tag}_b` }, data: { shopify_location_id: await locationId(bareVendorName) } });
});

describe("an item assigned to a vendor", () => {
  it("is moved to the vendor's location, and its shipment takes the stock there, not at the store", async () => {
    const sku = `${tag}-A`;
    // The vendor's 846 stock, as step 4 pushes it to the vendor's location.
    await setLevels([{ sku, location: vendorName, quantity: 10 }]);
    const { orderId, shopifyOrderId, itemId } = await makeOrder(sku, 2);
    const before = await available(sku);
    expect(before[vendorName]).toBe(10);
    expect(before[routedStore]).toBeGreaterThan(0);

    const {
      assignment_ids: [id],
    } = await modules.assignments.createManualAssignments({
      order_id: orderId,
      assignments: [{ item_id: itemId, store_id: `${tag}_v`, qty_assigned: 2 }],
    });
    expect(await assignment(id)).toMatchObject({ shopify_location_status: "moved", shopify_location_message: `2 moved to ${vendorName} in Shopify.` });
    const moves = (await suite.recorded()).filter((call) => call.operation === "FulfillmentOrderMove");
    expect(moves).toHaveLength(1);
    expect(moves[0].variables).toMatchObject({ newLocationId: `gid://shopify/Location/${await locationId(vendorName)}` });

    // The vendor's 856: fulfilled from the vendor's location.
    const outcome = await modules.fulfillment.createFulfillmentOnce(admin, {
      shopifyOrderId,
      sku,
      quantity: 2,
      trackingNumber: `1Z${tag}A`,
      carrier: "UPS",
      locationId: await locationId(vendorName),
    });
    expect(outcome).toMatchObject({ created: true, elsewhere: false, location: { name: vendorName } });
    const after = await available(sku);
    expect(after[vendorName]).toBe(8);
    expect(after[routedStore]).toBe(before[routedStore]);

    // Moving again changes nothing in Shopify: the lines are there (or fulfilled).
    await fetch(`${standIn.url}/__calls`, { method: "DELETE" });
    const { moveToSourceLocations } = await import("../../app/sales/shopify-location.server");
    await moveToSourceLocations([id], admin);
    expect((await suite.recorded()).filter((call) => call.operation === "FulfillmentOrderMove")).toEqual([]);
  });

  it("moves only the quantity assigned: Shopify splits the fulfillment order", async () => {
    const sku = `${tag}-B`;
    await setLevels([{ sku, location: vendorName, quantity: 10 }]);
    const { orderId, shopifyOrderId, itemId } = await makeOrder(sku, 3);
    await modules.assignments.createManualAssignments({ order_id: orderId, assignments: [{ item_id: itemId, store_id: `${tag}_v`, qty_assigned: 1 }] });
    const view = await modules.fulfillment.readOrderView(admin, `gid://shopify/Order/${shopifyOrderId}`);
    const held = view!.fulfillmentOrders.nodes.map((fo) => [fo.assignedLocation.location?.name, fo.lineItems.nodes[0]?.remainingQuantity]);
    expect(held).toEqual([
      [routedStore, 2],
      [vendorName, 1],
    ]);
  });

  it("records a move Shopify refuses (the vendor's location does not stock the item), shows it, and still fulfils from where Shopify routed it", async () => {
    const sku = `${tag}-C`;
    const { orderId, shopifyOrderId, itemId } = await makeOrder(sku, 1);
    const {
      assignment_ids: [id],
    } = await modules.assignments.createManualAssignments({ order_id: orderId, assignments: [{ item_id: itemId, store_id: `${tag}_b`, qty_assigned: 1 }] });
    const row = await assignment(id);
    expect(row.shopify_location_status).toBe("refused");
    expect(row.shopify_location_message).toContain(`does not stock the inventory item of SKU ${sku}`);
    expect(await gridRow(id)).toMatchObject({ shopify_location_status: "refused", shopify_location_message: row.shopify_location_message });

    const before = await available(sku);
    const outcome = await modules.fulfillment.createFulfillmentOnce(admin, {
      shopifyOrderId,
      sku,
      quantity: 1,
      trackingNumber: `1Z${tag}C`,
      carrier: null,
      locationId: await locationId(bareVendorName),
    });
    expect(outcome).toMatchObject({ created: true, elsewhere: true, location: { name: routedStore } });
    expect((await available(sku))[routedStore]).toBe(before[routedStore] - 1);
  });

  it("records a Shopify call that fails, and the assignment is made all the same", async () => {
    const sku = `${tag}-A`;
    const { orderId, itemId } = await makeOrder(sku, 1);
    // Shopify answers 429 more often than the client retries.
    standIn.throttle({ http429: { times: 20, retryAfterSeconds: 0 } });
    try {
      const created = await modules.assignments.createManualAssignments({
        order_id: orderId,
        assignments: [{ item_id: itemId, store_id: `${tag}_v`, qty_assigned: 1 }],
      });
      expect(created.error).toBe(false);
      const [id] = created.assignment_ids;
      const row = await assignment(id);
      expect(row.shopify_location_status).toBe("failed");
      expect(row.shopify_location_message).toMatch(/OrderFulfillmentState/);
      expect(await gridRow(id)).toMatchObject({ shopify_location_status: "failed" });
    } finally {
      standIn.unthrottle();
    }
  });

  it("records a source with no Shopify location, and moves nothing", async () => {
    const sku = `${tag}-D`;
    const { orderId, itemId } = await makeOrder(sku, 1);
    const {
      assignment_ids: [id],
    } = await modules.assignments.createManualAssignments({ order_id: orderId, assignments: [{ item_id: itemId, store_id: `${tag}_s`, qty_assigned: 1 }] });
    expect(await assignment(id)).toMatchObject({
      shopify_location_status: "no_location",
      shopify_location_message: `${tag} Hand-made Store has no Shopify location: Shopify ships it from where it routed it.`,
    });
    expect(await gridRow(id)).toMatchObject({ shopify_location_status: "no_location" });
    // A German reader reads the note in German.
    expect((await gridRow(id, "de"))?.shopify_location_message).toBe(
      `${tag} Hand-made Store hat keinen Shopify-Standort: Shopify versendet von dort, wohin es die Bestellung geleitet hat.`,
    );
    expect((await suite.recorded()).filter((call) => call.operation === "FulfillmentOrderMove")).toEqual([]);

    // Reassigned to the vendor: the old outcome goes, the lines follow to the vendor's location.
    await setLevels([{ sku, location: vendorName, quantity: 3 }]);
    await modules.changes.reassignAssignment(id, { store_id: `${tag}_v` });
    expect(await assignment(id)).toMatchObject({ shopify_location_status: "moved" });
  });
});
