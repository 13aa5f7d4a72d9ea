// Stores from where they live (docs/decisions.md D48–D52), over real HTTP to
// the built app on a fresh database of its own, in local mode with
// SEED_DEMO_DATA=0 (the Shopify stand-in serves the demo shop's locations and
// levels), and in embedded mode for the locations/* webhooks: the location
// sync, stock from inventory levels (by the feed and on demand), the Stores
// screen's API, vendors as dropshippers, and the stand-in itself.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { DEMO_STORE_LOCATIONS } from "../../app/shopify/stand-in-shop";
import { startShopifyStandIn, type StandInCatalog } from "../../app/shopify/stand-in.server";
import { standInUrlOf, startAppServer, type RunningApp } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { followRun } from "../support/runs";
import { webhookAppEnv, webhookHeaders } from "../support/embedded-app";
import type { TestDatabase } from "../support/test-database";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

let database: TestDatabase;
let app: RunningApp;
let db: AppWithDatabase["db"];
let standIn: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "stores-data-"));
  ({ database, app, db } = await startAppWithDatabase("stores", {
    SEED_DEMO_DATA: "0",
    DATA_DIR: dataDir,
    APP_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"),
  }));
  standIn = standInUrlOf(app);
}, 120_000);

afterAll(async () => {
  await stopAppWithDatabase({ db, app, database });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const get = async (url: string) => {
  const response = await fetch(`${app.url}${url}`);
  return { status: response.status, body: (await response.json()) as Json };
};
const send = async (url: string, body: Json, base = app.url) => {
  const response = await fetch(`${base}${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
};
const shop = {
  locations: async () => (await (await fetch(`${standIn}/__locations`)).json()) as Array<{ id: string; name: string; isActive: boolean }>,
  change: async (change: Json) => (await send("/__locations", change, standIn)).body as { id: string; legacyResourceId: string; name: string },
  levels: async (levels: Array<{ sku: string; location: string; quantity: number }>) =>
    expect((await fetch(`${standIn}/__levels`, { method: "PUT", body: JSON.stringify(levels) })).status).toBe(200),
};
const runSync = async () => {
  // Run Feed answers at once; the run is followed to its end (D93).
  const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/feed_run?feed_name=location_sync`, { method: "POST" }));
  expect(startStatus).toBe(202);
  expect(body).toMatchObject({ error: false, status: "finished", feed_status: "finished" });
  return body.detail as string;
};
const storeNamed = (name: string) => db.inventorySource.findFirstOrThrow({ where: { name } });

let orderNumber = 700_000;
async function makeOrder(items: Array<{ sku: string; qty: number }>) {
  const order = await db.order.create({
    data: {
      order_id: String(++orderNumber),
      shopify_order_id: String(8_800_000 + orderNumber),
      magento_status: "processing",
      total_shippable_qty_ordered: items.reduce((sum, item) => sum + item.qty, 0),
      items: { create: items.map((item) => ({ sku: item.sku, name: `Product ${item.sku}`, qty_ordered: item.qty })) },
    },
    include: { items: { orderBy: { item_id: "asc" } } },
  });
  return { orderId: order.order_id, items: order.items.map((item) => item.item_id) };
}
const assign = (orderId: string, rows: Array<[number, string, number]>) =>
  send("/api/manual_assignment", { order_id: orderId, assignments: rows.map(([item_id, store_id, qty_assigned]) => ({ item_id, store_id, qty_assigned })) });
const offered = async (orderId: string) => {
  const { status, body } = await get(`/api/manual_assignment?order_id=${orderId}`);
  expect(status).toBe(200);
  return body as {
    available_stores: Array<{ source_code: string; name: string; type: string; on_time_30: number | null }>;
    available_qtys: Record<string, Record<string, number>>;
  };
};

describe("a fresh install in local mode (SEED_DEMO_DATA=0)", () => {
  it("offers the stand-in's locations in Manual Assignment after one run of location_sync", async () => {
    // Nothing but the start-up's one run of the feed has written the stores.
    const runs = await db.feedLog.findMany({ where: { feed_name: "location_sync" }, orderBy: { id: "asc" } });
    expect(runs.map((log) => log.type)).toEqual(["starting", "finished"]);
    const order = await makeOrder([{ sku: "SKU-FRESH-1", qty: 1 }]);

    const locations = await shop.locations();
    expect(locations.map((location) => location.name)).toEqual(expect.arrayContaining(DEMO_STORE_LOCATIONS.map((store) => store.name)));
    const { available_stores: stores } = await offered(order.orderId);
    expect(stores.map((store) => store.name).sort()).toEqual(locations.map((location) => location.name).sort());
    // Each under its default code until staff set the AS400's (D49).
    for (const location of locations) {
      expect(stores).toContainEqual({ source_code: `L${location.id.split("/").pop()}`, name: location.name, type: "store", on_time_30: null });
    }
  });
});

describe("location_sync", () => {
  it("adds, renames and stops offering what Shopify deactivated or deleted; the rows and their history stay", async () => {
    // An assignment to the store that will close: it keeps showing the store's name.
    const closing = await storeNamed("Store 006 - St. Louis");
    const before = await makeOrder([{ sku: "SKU-CLOSE-1", qty: 1 }]);
    expect((await assign(before.orderId, [[before.items[0], closing.source_code, 1]])).status).toBe(200);
    const assignment = await db.assignment.findFirstOrThrow({ where: { order_increment_id: before.orderId } });

    const outlet = await shop.change({ name: "Lakefront Outlet" });
    await shop.change({ name: "Store 006 - St. Louis", isActive: false });
    const renamed = await shop.change({ name: "Store 005 - Minneapolis" });
    await shop.change({ id: renamed.id, name: "Store 005 - Minneapolis North" });
    await shop.change({ name: "Store 004 - Detroit", deleted: true });
    const sourcesBefore = await db.inventorySource.count();

    expect(await runSync()).toMatch(/1 store added, 1 updated, 2 no longer offered/);
    expect(await db.inventorySource.count()).toBe(sourcesBefore + 1);
    expect(await storeNamed("Lakefront Outlet")).toMatchObject({
      source_code: `L${outlet.legacyResourceId}`,
      type: "store",
      enabled: 1,
      shopify_location_id: outlet.legacyResourceId,
    });
    expect(await storeNamed("Store 005 - Minneapolis North")).toMatchObject({ enabled: 1, shopify_location_id: renamed.legacyResourceId });
    expect(await storeNamed("Store 006 - St. Louis")).toMatchObject({ enabled: 0, source_code: closing.source_code });
    expect(await storeNamed("Store 004 - Detroit")).toMatchObject({ enabled: 0 });

    const order = await makeOrder([{ sku: "SKU-CLOSE-2", qty: 1 }]);
    const names = (await offered(order.orderId)).available_stores.map((store) => store.name);
    expect(names).toEqual(expect.arrayContaining(["Lakefront Outlet", "Store 005 - Minneapolis North", "Store 001 - Chicago"]));
    expect(names).not.toContain("Store 006 - St. Louis");
    expect(names).not.toContain("Store 004 - Detroit");
    // Not offered, not assignable, and its assignment still shows where it went.
    expect((await assign(order.orderId, [[order.items[0], closing.source_code, 1]])).body.errors["assignments.0.store_id"]).toEqual([
      "Store 006 - St. Louis is disabled and takes no assignments.",
    ]);
    const reassign = await get(`/api/reassignment?id=${assignment.id}`);
    expect(reassign.body.data[0]).toMatchObject({ id: assignment.id, store_id: closing.source_code, store_name: "Store 006 - St. Louis" });
    expect(reassign.body.available_stores.map((store: Json) => store.source_code)).not.toContain(closing.source_code);

    // Activated again in Shopify: offered again at the next run.
    await shop.change({ name: "Store 006 - St. Louis", isActive: true });
    await runSync();
    expect(await storeNamed("Store 006 - St. Louis")).toMatchObject({ enabled: 1, source_code: closing.source_code });
  });

  it("takes the stores' stock of the open orders' SKUs from Shopify's inventory levels", async () => {
    await db.product.createMany({
      data: [
        { sku: "SKU-LVL-1", name: "Trail Runner" },
        { sku: "SKU-LVL-2", name: "Camp Mug" },
      ],
    });
    const order = await makeOrder([
      { sku: "SKU-LVL-1", qty: 2 },
      { sku: "SKU-LVL-2", qty: 1 },
      { sku: "SKU-NOT-IN-SHOPIFY", qty: 1 },
    ]);
    await shop.levels([
      { sku: "SKU-LVL-1", location: "Store 001 - Chicago", quantity: 12 },
      { sku: "SKU-LVL-1", location: "Lakefront Outlet", quantity: 4 },
    ]);
    await runSync();
    const chicago = await storeNamed("Store 001 - Chicago");
    const outlet = await storeNamed("Lakefront Outlet");
    const stockOf = async (code: string, sku: string) =>
      (await db.sourceStock.findUnique({ where: { source_code_sku: { source_code: code, sku } } }))?.quantity;
    expect(await stockOf(chicago.source_code, "SKU-LVL-1")).toBe(12);
    expect(await stockOf(outlet.source_code, "SKU-LVL-1")).toBe(4);
    // Known to Shopify but not stocked at the outlet: none there. Unknown to Shopify: no known quantity anywhere.
    expect(await stockOf(outlet.source_code, "SKU-LVL-2")).toBe(0);
    expect(await db.sourceStock.count({ where: { sku: "SKU-NOT-IN-SHOPIFY" } })).toBe(0);
    // The demo shop's own levels (app/shopify/stand-in-shop.ts) come the same way.
    expect(await stockOf(chicago.source_code, "SKU-LVL-2")).toBeGreaterThanOrEqual(5);
    // A deleted location's stock is not read.
    const closed = await storeNamed("Store 004 - Detroit");
    expect(await db.sourceStock.count({ where: { source_code: closed.source_code, sku: "SKU-LVL-1" } })).toBe(0);

    const qtys = (await offered(order.orderId)).available_qtys;
    expect(qtys["SKU-LVL-1"]).toMatchObject({ [chicago.source_code]: 12, [outlet.source_code]: 4 });
    expect(qtys["SKU-NOT-IN-SHOPIFY"]).toBeUndefined();
  });

  it("reads the order's SKUs from Shopify again when Manual Assignment and Reassign load, and the rules count with it", async () => {
    const chicago = await storeNamed("Store 001 - Chicago");
    const order = await makeOrder([{ sku: "SKU-LVL-1", qty: 5 }]);
    await shop.levels([{ sku: "SKU-LVL-1", location: "Store 001 - Chicago", quantity: 3 }]);
    expect((await offered(order.orderId)).available_qtys["SKU-LVL-1"][chicago.source_code]).toBe(3);

    const over = await assign(order.orderId, [[order.items[0], chicago.source_code, 4]]);
    expect(over.status).toBe(422);
    expect(over.body.errors["assignments.0.qty_assigned"]).toEqual(["Store 001 - Chicago has 3 of SKU-LVL-1 available; 4 cannot be assigned there."]);
    expect((await assign(order.orderId, [[order.items[0], chicago.source_code, 3]])).status).toBe(200);
    // Shopify does not know of our Pending assignment: what it holds still counts against the store.
    expect((await offered(order.orderId)).available_qtys["SKU-LVL-1"][chicago.source_code]).toBe(0);

    await shop.levels([{ sku: "SKU-LVL-1", location: "Store 001 - Chicago", quantity: 10 }]);
    const assignment = await db.assignment.findFirstOrThrow({ where: { order_increment_id: order.orderId } });
    const reassign = await get(`/api/reassignment?id=${assignment.id}`);
    expect(reassign.body.available_qtys["SKU-LVL-1"][chicago.source_code]).toBe(7);
  });

  it("a location named as a vendor is where the vendor's stock goes, not a store", async () => {
    const saved = await send("/api/dropship_vendor", vendorBody({ name: "Harbor Marine Supply", store_id: "DS40" }));
    expect(saved.status).toBe(200);
    // The stand-in's shop has a location per vendor (docs/dropship.md): the sync links it to the vendor's source.
    await runSync();
    expect(await db.inventorySource.count({ where: { name: "Harbor Marine Supply" } })).toBe(1);
    const source = await db.inventorySource.findUniqueOrThrow({ where: { source_code: "DS40" } });
    expect(source).toMatchObject({ type: "dropshipper", enabled: 1 });
    expect(source.shopify_location_id).toMatch(/^\d+$/);
  });
});

function vendorBody(overrides: Json = {}) {
  return {
    name: "Keystone Pet Supply",
    store_id: "DS30",
    enabled: 1,
    transfer_mechanism_id: 1,
    sftp_host: "edi.keystone.example.com",
    sftp_port: 22,
    sftp_user: "keystone_ops",
    sftp_pass: "Keyst0ne-secret",
    sftp_incoming_folder: "/outbound",
    sftp_outcoming_folder: "/inbound",
    edi_format: 1,
    edi_identifier: "KEYSTONEEDI",
    edi_qualifier: "ZZ",
    output_delimiter: "*",
    output_segmenter: "~",
    test_mode: 0,
    is_legacy: 0,
    ...VENDOR_DOCUMENT_FLAGS,
    ...overrides,
  };
}

describe("vendors are the dropshippers", () => {
  it("a saved vendor can be assigned to at once; disabled, it is no longer offered; a store's code is refused", async () => {
    const order = await makeOrder([{ sku: "SKU-VND-1", qty: 2 }]);
    const created = await send("/api/dropship_vendor", vendorBody());
    expect(created.status).toBe(200);
    expect((await offered(order.orderId)).available_stores).toContainEqual({
      source_code: "DS30",
      name: "Keystone Pet Supply",
      type: "dropshipper",
      on_time_30: null,
    });
    expect((await assign(order.orderId, [[order.items[0], "DS30", 1]])).status).toBe(200);
    expect(await db.assignment.findFirstOrThrow({ where: { order_increment_id: order.orderId } })).toMatchObject({
      store_id: "DS30",
      dropshipper_name: "Keystone Pet Supply",
    });

    // Renamed and moved to another code: the new one is offered under the new name, the old one stays for its history.
    const id = created.body.id as number;
    expect((await send(`/api/dropship_vendor/${id}`, { ...vendorBody({ name: "Keystone Pets", store_id: "DS31" }), _method: "PUT" })).status).toBe(200);
    const stores = (await offered(order.orderId)).available_stores;
    expect(stores).toContainEqual({ source_code: "DS31", name: "Keystone Pets", type: "dropshipper", on_time_30: null });
    expect(stores.map((store) => store.source_code)).not.toContain("DS30");
    expect(await db.inventorySource.findUniqueOrThrow({ where: { source_code: "DS30" } })).toMatchObject({ enabled: 0, name: "Keystone Pet Supply" });

    expect((await send(`/api/dropship_vendor/${id}`, { ...vendorBody({ name: "Keystone Pets", store_id: "DS31", enabled: 0 }), _method: "PUT" })).status).toBe(
      200,
    );
    expect((await offered(order.orderId)).available_stores.map((store) => store.source_code)).not.toContain("DS31");

    const chicago = await storeNamed("Store 001 - Chicago");
    const clash = await send("/api/dropship_vendor", vendorBody({ name: "Clash Co", store_id: chicago.source_code }));
    expect(clash.status).toBe(422);
    expect(clash.body.errors.store_id).toEqual([
      `${chicago.source_code} is the source code of the store Store 001 - Chicago: a vendor needs a code of its own.`,
    ]);
    expect(await db.vendor.count({ where: { name: "Clash Co" } })).toBe(0);
  });
});

describe("the Stores screen's API", () => {
  it("lists every source with its location, type and state, and filters by type", async () => {
    const { status, body } = await get("/api/store?type=store&sort=name&sort_dir=asc&per_page=200");
    expect(status).toBe(200);
    expect(body.columns.map((column: Json) => column.key)).toEqual(["source_code", "name", "shopify_location_id", "type", "enabled", "updated_at", "actions"]);
    const rows = body.data.data as Json[];
    expect(rows.every((row) => row.type === "store")).toBe(true);
    expect(rows.map((row) => row.name)).toEqual([...rows.map((row) => row.name)].sort((a, b) => (a < b ? -1 : 1)));
    expect(rows.find((row) => row.name === "Store 004 - Detroit")).toMatchObject({ enabled: 0 });
    expect(body.columns.find((column: Json) => column.key === "actions").settings.links[0]).toMatchObject({
      path: "/stores/edit",
      field: "id",
      condition: { operator: "=", field: "type", value: "store" },
    });
    expect((await get("/api/store?type=warehouse")).status).toBe(422);
  });

  it("sets a store's AS400 source code: 422 per field, then saved with its stock; refused once assignments use it", async () => {
    const milwaukee = await storeNamed("Store 002 - Milwaukee");
    const form = await get(`/api/store/${milwaukee.id}`);
    expect(form.body).toEqual({
      id: milwaukee.id,
      source_code: milwaukee.source_code,
      name: "Store 002 - Milwaukee",
      type: "store",
      shopify_location_id: milwaukee.shopify_location_id,
      default_source_code: `L${milwaukee.shopify_location_id}`,
      enabled: 1,
    });
    const save = (source_code: unknown) => send(`/api/store/${milwaukee.id}`, { _method: "PUT", source_code });
    const cases: Array<[unknown, string]> = [
      ["", "AS400 Source Code is a required field."],
      [undefined, "AS400 Source Code is a required field."],
      ["0 02!", "AS400 Source Code may only contain letters, digits, '-' and '_' (at most 20)."],
      ["X".repeat(21), "AS400 Source Code may only contain letters, digits, '-' and '_' (at most 20)."],
      [
        (await storeNamed("Lakefront Outlet")).source_code,
        `Source code ${(await storeNamed("Lakefront Outlet")).source_code} is already the code of Lakefront Outlet.`,
      ],
      ["DS31", "Source code DS31 is already the code of Keystone Pets."],
    ];
    for (const [value, message] of cases) {
      const refused = await save(value);
      expect(refused.status, String(value)).toBe(422);
      expect(refused.body.errors).toEqual({ source_code: [message] });
    }
    // A vendor's code without a source yet (the vendor saved before this release) is taken too.
    await db.vendor.create({ data: { name: "Legacy Vendor", store_id: "DS90" } });
    expect((await save("DS90")).body.errors.source_code).toEqual(["Source code DS90 is the store ID of the vendor Legacy Vendor."]);
    expect((await db.inventorySource.findUniqueOrThrow({ where: { id: milwaukee.id } })).source_code).toBe(milwaukee.source_code);

    const stockBefore = await db.sourceStock.count({ where: { source_code: milwaukee.source_code } });
    const saved = await save(" 002 ");
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ error: false, message: "Store saved", data: { id: milwaukee.id, source_code: "002", name: "Store 002 - Milwaukee" } });
    expect(await db.sourceStock.count({ where: { source_code: "002" } })).toBe(stockBefore);
    expect(await db.sourceStock.count({ where: { source_code: milwaukee.source_code } })).toBe(0);

    // The next sync keeps staff's code: the store is known by its location.
    await runSync();
    expect((await db.inventorySource.findUniqueOrThrow({ where: { id: milwaukee.id } })).source_code).toBe("002");

    const order = await makeOrder([{ sku: "SKU-LVL-1", qty: 1 }]);
    expect((await assign(order.orderId, [[order.items[0], "002", 1]])).status).toBe(200);
    const inUse = await save("202");
    expect(inUse.status).toBe(422);
    expect(inUse.body.errors.source_code).toEqual(["Source code 002 cannot be changed: assignments already use it, and the AS400 knows them by it."]);

    // Dropshippers are edited on the vendor form; unknown ids are 404.
    const vendor = await db.inventorySource.findUniqueOrThrow({ where: { source_code: "DS31" } });
    expect((await get(`/api/store/${vendor.id}`)).status).toBe(404);
    expect((await send(`/api/store/${vendor.id}`, { _method: "PUT", source_code: "X1" })).status).toBe(404);
    expect((await get("/api/store/999999")).status).toBe(404);
  });
});

// --- embedded mode: the locations/* webhooks ------------------------------------------

const API_KEY = "stores-api-key";
const SECRET = "stores-api-secret";
const SHOP = "stores-shop.myshopify.com";

describe("locations/* webhooks (embedded mode)", () => {
  let embedded: RunningApp;
  beforeAll(async () => {
    embedded = await startAppServer(webhookAppEnv({ apiKey: API_KEY, secret: SECRET, shop: SHOP }, database.url));
  }, 90_000);
  afterAll(() => embedded?.stop());

  const webhook = async (topic: string, payload: Json, options: { shop?: string; secret?: string } = {}) => {
    const body = JSON.stringify(payload);
    const response = await fetch(`${embedded.url}/webhooks/${topic}`, {
      method: "POST",
      body,
      headers: webhookHeaders(body, topic, { shop: options.shop ?? SHOP, secret: options.secret ?? SECRET }),
    });
    return { status: response.status, body: response.status === 200 ? ((await response.json()) as Json) : null };
  };
  const location = (id: number, overrides: Json = {}) => ({
    id,
    name: "Riverside Store",
    address1: "1 River Rd",
    city: "Chicago",
    country_code: "US",
    active: true,
    legacy: false,
    created_at: "2026-11-20T10:00:00-05:00",
    updated_at: "2026-11-20T10:00:00-05:00",
    admin_graphql_api_id: `gid://shopify/Location/${id}`,
    ...overrides,
  });
  const riverside = () => db.inventorySource.findUnique({ where: { shopify_location_id: "7770001" } });

  it("create, update, deactivate, activate and delete change the store; an older update changes nothing", async () => {
    expect((await webhook("locations/create", location(7770001))).status).toBe(200);
    expect(await riverside()).toMatchObject({ source_code: "L7770001", name: "Riverside Store", type: "store", enabled: 1 });

    await webhook("locations/update", location(7770001, { name: "Riverside Flagship", updated_at: "2026-11-21T10:00:00-05:00" }));
    expect(await riverside()).toMatchObject({ name: "Riverside Flagship", enabled: 1 });
    // Delivered late: older than what was applied.
    await webhook("locations/update", location(7770001, { name: "Riverside (old)", updated_at: "2026-11-20T12:00:00-05:00" }));
    expect(await riverside()).toMatchObject({ name: "Riverside Flagship" });

    await webhook("locations/deactivate", location(7770001, { name: "Riverside Flagship", active: false, updated_at: "2026-11-22T10:00:00-05:00" }));
    expect(await riverside()).toMatchObject({ enabled: 0 });
    await webhook("locations/activate", location(7770001, { name: "Riverside Flagship", active: true, updated_at: "2026-11-23T10:00:00-05:00" }));
    expect(await riverside()).toMatchObject({ enabled: 1 });

    const deleted = await webhook("locations/delete", { id: 7770001 });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, disabled: true } });
    expect(await riverside()).toMatchObject({ source_code: "L7770001", name: "Riverside Flagship", enabled: 0 });

    // A payload it cannot use is answered 200 (Shopify would retry it for days) and changes nothing.
    expect(await webhook("locations/create", { id: "not a number" })).toMatchObject({ status: 200, body: { ok: false } });
    // A fulfilment service's own location is no store.
    await webhook("locations/create", location(7770002, { name: "3PL Warehouse", legacy: true }));
    expect(await db.inventorySource.count({ where: { shopify_location_id: "7770002" } })).toBe(0);
  });

  it("refuses another shop (403) and a bad signature (401), writing nothing", async () => {
    const sourcesBefore = await db.inventorySource.count();
    expect((await webhook("locations/create", location(7770099, { name: "Intruder" }), { shop: "other-shop.myshopify.com" })).status).toBe(403);
    expect((await webhook("locations/create", location(7770099, { name: "Intruder" }), { secret: "wrong-secret" })).status).toBe(401);
    expect((await webhook("locations/delete", { id: 7770001 }, { shop: "other-shop.myshopify.com" })).status).toBe(403);
    expect(await db.inventorySource.count()).toBe(sourcesBefore);
    expect(await db.inventorySource.count({ where: { name: "Intruder" } })).toBe(0);
  });
});

// --- the stand-in -----------------------------------------------------------------------

describe("the Shopify stand-in's locations and inventory levels", () => {
  const names = Array.from({ length: 260 }, (_, i) => `Location ${String(i).padStart(3, "0")}`);
  const catalog: StandInCatalog = {
    order: async () => null,
    variants: async (skus) => skus.filter((sku) => sku.startsWith("KNOWN-")),
    locations: async () => names,
    // A "wide" SKU is stocked everywhere; the others at the first location only.
    levels: async (skus) =>
      skus.flatMap((sku) =>
        sku.startsWith("KNOWN-WIDE") ? names.map((location) => ({ sku, location, quantity: 2 })) : [{ sku, location: "Location 000", quantity: 9 }],
      ),
  };
  let own: Awaited<ReturnType<typeof startShopifyStandIn>>;
  beforeAll(async () => {
    own = await startShopifyStandIn({ catalog });
  });
  afterAll(() => own?.stop());
  const graphql = async (query: string, variables: Json = {}) =>
    ((await (await fetch(`${own.url}/admin/api/2026-10/graphql.json`, { method: "POST", body: JSON.stringify({ query, variables }) })).json()) as Json).data;

  it("pages the locations 250 at a time, inactive ones included, and answers levels as set", async () => {
    const { ShopLocations, InventoryLevelsBySku, InventorySetQuantities, VariantsBySku } = await import("../../app/shopify/operations");
    await fetch(`${own.url}/__locations`, { method: "POST", body: JSON.stringify({ name: "Location 001", isActive: false }) });
    const first = await graphql(ShopLocations.document);
    expect(first.locations.nodes).toHaveLength(250);
    expect(first.locations.pageInfo.hasNextPage).toBe(true);
    const second = await graphql(ShopLocations.document, { after: first.locations.pageInfo.endCursor });
    expect(second.locations.nodes).toHaveLength(10);
    expect(second.locations.pageInfo.hasNextPage).toBe(false);
    const all = [...first.locations.nodes, ...second.locations.nodes];
    expect(all.map((location: Json) => location.name).sort()).toEqual(names);
    expect(all.find((location: Json) => location.name === "Location 001")).toMatchObject({ isActive: false, legacyResourceId: expect.stringMatching(/^\d+$/) });

    const query = 'sku:"KNOWN-1" OR sku:"KNOWN-2" OR sku:"UNKNOWN-3"';
    const levels = await graphql(InventoryLevelsBySku.document, { query });
    expect(levels.inventoryItems.nodes.map((item: Json) => item.sku)).toEqual(["KNOWN-1", "KNOWN-2"]);
    const location000 = all.find((location: Json) => location.name === "Location 000").id;
    expect(levels.inventoryItems.nodes[0].inventoryLevels.nodes).toEqual([{ location: { id: location000 }, quantities: [{ name: "available", quantity: 9 }] }]);

    // What InventorySetQuantities sets is what the levels answer.
    const variants = await graphql(VariantsBySku.document, { query: 'sku:"KNOWN-1"' });
    const location002 = all.find((location: Json) => location.name === "Location 002").id;
    const set = await graphql(InventorySetQuantities.document, {
      input: {
        name: "available",
        reason: "correction",
        quantities: [{ inventoryItemId: variants.productVariants.nodes[0].inventoryItem.id, locationId: location002, quantity: 31, changeFromQuantity: null }],
      },
      idempotencyKey: randomUUID(),
    });
    expect(set.inventorySetQuantities.userErrors).toEqual([]);
    const after = await graphql(InventoryLevelsBySku.document, { query: 'sku:"KNOWN-1"' });
    expect(after.inventoryItems.nodes[0].inventoryLevels.nodes).toHaveLength(2);
    expect(after.inventoryItems.nodes[0].inventoryLevels.nodes).toEqual(
      expect.arrayContaining([
        { location: { id: location000 }, quantities: [{ name: "available", quantity: 9 }] },
        { location: { id: location002 }, quantities: [{ name: "available", quantity: 31 }] },
      ]),
    );
  });

  it("is read by the Shopify module: every location page, and an item's levels beyond the first 25", async () => {
    const { readAvailableBySku, readShopLocations } = await import("../../app/shopify/locations.server");
    const asked: string[] = [];
    const admin = {
      run: async (operation: { name: string; document: string }, variables: unknown) => {
        asked.push(operation.name);
        return graphql(operation.document, variables as Json);
      },
    } as unknown as import("../../app/shopify/admin-client.server").ShopifyAdmin;
    expect(await readShopLocations(admin)).toHaveLength(260);
    expect(asked).toEqual(["ShopLocations", "ShopLocations"]);

    asked.length = 0;
    const available = await readAvailableBySku(admin, ["KNOWN-WIDE-1", "KNOWN-1", "UNKNOWN-1"]);
    // Location 001 was deactivated above: its levels are not answered.
    expect(available.get("KNOWN-WIDE-1")!.size).toBe(259);
    expect([...available.get("KNOWN-WIDE-1")!.values()].every((quantity) => quantity === 2)).toBe(true);
    expect([...available.get("KNOWN-1")!.values()].sort((a, b) => a - b)).toEqual([9, 31]); // 31 set by the test above
    expect(available.get("UNKNOWN-1")).toBeNull();
    expect(asked).toEqual(["InventoryLevelsBySku", "InventoryItemLevels"]);
  });
});

// --- Shopify failing on demand (in this process, on the run's shared database) ----------

describe("the on-demand refresh when Shopify fails", () => {
  it("keeps the stored quantities and the page answers", async () => {
    const shared = createPrismaClient(process.env.DATABASE_URL!);
    const tag = `F${randomUUID().slice(0, 6).toUpperCase()}`;
    const { manualAssignmentData } = await import("../../app/sales/assignments.server");
    const { refreshStoreStockQuietly } = await import("../../app/sales/stores.server");
    const { ShopifyApiError } = await import("../../app/shopify/admin-client.server");
    try {
      await shared.inventorySource.create({ data: { source_code: tag, name: `${tag} Store`, type: "store", shopify_location_id: `99${Date.now()}` } });
      await shared.sourceStock.create({ data: { source_code: tag, sku: `${tag}-SKU`, quantity: 6 } });
      await shared.order.create({
        data: {
          order_id: `${tag}-1`,
          magento_status: "processing",
          total_shippable_qty_ordered: 1,
          items: { create: [{ sku: `${tag}-SKU`, name: "Camp Mug", qty_ordered: 1 }] },
        },
      });
      let asked = 0;
      const down = {
        run: async () => {
          asked++;
          throw new ShopifyApiError("InventoryLevelsBySku", "HTTP 503");
        },
      };
      const data = await manualAssignmentData(`${tag}-1`, (skus) => refreshStoreStockQuietly(down, skus));
      expect(asked).toBe(1);
      expect(data.available_stores).toContainEqual({ source_code: tag, name: `${tag} Store`, type: "store", on_time_30: null });
      expect(data.available_qtys[`${tag}-SKU`][tag]).toBe(6);
    } finally {
      await shared.order.deleteMany({ where: { order_id: `${tag}-1` } });
      await shared.inventorySource.deleteMany({ where: { source_code: tag } });
      await shared.$disconnect();
    }
  });
});
