// Sales assignment over real HTTP to the built app, on a database of its own:
// every rule of the manual assignment, delete, reassign and DNH calls, the
// grids' answers, over-assignment under concurrent requests, and the two AS400
// files through a loopback SFTP server standing in for the AS400.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerAutoAssignmentFiles } from "../../app/demo/demo-as400-assignments";
import { startAs400Server, type LoopbackAs400 } from "../support/loopback-as400";
import { standInUrlOf, type RunningApp } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { followRun } from "../support/runs";
import type { TestDatabase } from "../support/test-database";

let database: TestDatabase;
let app: RunningApp;
let db: AppWithDatabase["db"];
let as400Root: string;
let sftp: LoopbackAs400;

beforeAll(async () => {
  as400Root = mkdtempSync(path.join(tmpdir(), "sales-as400-"));
  const as400 = await startAs400Server(as400Root);
  sftp = as400.sftp;
  ({ database, app, db } = await startAppWithDatabase("sales", { SEED_DEMO_DATA: "0", ...as400.env }));
  // The rules are checked against stores of this file's own, with stock set here: the stand-in's
  // shop closes its locations, so the stores the start-up's location_sync made from them are no
  // longer offered (D48), and this file's stores are linked to no location (no Shopify stock read).
  const standIn = standInUrlOf(app);
  for (const location of (await (await fetch(`${standIn}/__locations`)).json()) as Array<{ id: string }>) {
    await fetch(`${standIn}/__locations`, { method: "POST", body: JSON.stringify({ id: location.id, deleted: true }) });
  }
  expect((await followRun(app.url, await fetch(`${app.url}/api/feed_run?feed_name=location_sync`, { method: "POST" }))).body).toMatchObject({
    feed_status: "finished",
  });
  await db.inventorySource.createMany({
    data: [
      { source_code: "001", name: "Store 001 - Chicago", type: "store" },
      { source_code: "002", name: "Store 002 - Milwaukee", type: "store" },
      { source_code: "003", name: "Store 003 - Closed", type: "store", enabled: 0 },
      { source_code: "DS01", name: "Acme Outdoor Supply", type: "dropshipper" },
    ],
  });
  await db.vendor.create({ data: { name: "Acme Outdoor Supply", store_id: "DS01" } });
  await db.product.createMany({ data: ["SKU-A", "SKU-B", "SKU-C", "SKU-D", "SKU-E"].map((sku) => ({ sku, name: `Product ${sku}` })) });
}, 120_000);

afterAll(async () => {
  await stopAppWithDatabase({ db, app, database });
  await sftp?.stop();
  if (as400Root) rmSync(as400Root, { recursive: true, force: true });
});

// --- fixtures and calls ---------------------------------------------------------

let orderNumber = 500_000;
interface OrderOptions {
  status?: string | null;
  marketplace?: string | null;
  address?: boolean;
  items: Array<{ sku: string; qty: number }>;
}
async function makeOrder({ status = "processing", marketplace = null, address = true, items }: OrderOptions) {
  const order = await db.order.create({
    data: {
      order_id: String(++orderNumber),
      shopify_order_id: String(9_000_000 + orderNumber),
      magento_status: status,
      marketplace_source: marketplace,
      concat_ship_to_name: "Jane Roe",
      ship_street: address ? "12 Main St" : null,
      ship_city: "Chicago",
      ship_region: "IL",
      ship_postcode: "60601",
      ship_country_id: "US",
      shipping_description: "Standard - Ground",
      total_shippable_qty_ordered: items.reduce((sum, item) => sum + item.qty, 0),
      items: { create: items.map((item) => ({ sku: item.sku, name: `Product ${item.sku}`, qty_ordered: item.qty })) },
    },
    include: { items: { orderBy: { item_id: "asc" } } },
  });
  return { orderId: order.order_id, rowId: order.id, items: order.items.map((item) => item.item_id) };
}
async function stock(source: string, sku: string, quantity: number) {
  await db.sourceStock.upsert({
    where: { source_code_sku: { source_code: source, sku } },
    create: { source_code: source, sku, quantity },
    update: { quantity },
  });
}

const get = async (url: string) => {
  const response = await fetch(`${app.url}${url}`);
  return { status: response.status, body: await response.json() };
};
const post = async (url: string, fields: Record<string, string>, method = "POST") => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const response = await fetch(`${app.url}${url}`, { method, body: method === "DELETE" ? undefined : form });
  return { status: response.status, body: await response.json() };
};
function assignForm(orderId: string, rows: Array<[number, string, number | string]>) {
  const fields: Record<string, string> = { order_id: orderId };
  rows.forEach(([item, store, qty], index) => {
    fields[`assignments[${index}][item_id]`] = String(item);
    fields[`assignments[${index}][store_id]`] = store;
    fields[`assignments[${index}][qty_assigned]`] = String(qty);
  });
  return fields;
}
const assign = (orderId: string, rows: Array<[number, string, number | string]>) => post("/api/manual_assignment", assignForm(orderId, rows));
const totalAssigned = async (rowId: number) => (await db.order.findUniqueOrThrow({ where: { id: rowId } })).total_assigned;
const firstMessage = (body: { errors: Record<string, string[]> }) => Object.values(body.errors).flat()[0];

// --- manual assignment ------------------------------------------------------------

describe("manual assignment", () => {
  it("loads the order's unassigned items, the stores and what each has available", async () => {
    const order = await makeOrder({
      items: [
        { sku: "SKU-A", qty: 3 },
        { sku: "SKU-B", qty: 1 },
      ],
    });
    await stock("001", "SKU-A", 10);
    const { status, body } = await get(`/api/manual_assignment?order_id=${order.orderId}`);
    expect(status).toBe(200);
    expect(
      body.unassigned_order_items.map((item: { item_id: number; qty_unassigned: number; sku: string }) => [item.item_id, item.sku, item.qty_unassigned]),
    ).toEqual([
      [order.items[0], "SKU-A", 3],
      [order.items[1], "SKU-B", 1],
    ]);
    expect(body.available_stores.map((store: { source_code: string }) => store.source_code)).toEqual(["001", "002", "DS01"]);
    expect(body.available_qtys["SKU-A"]["001"]).toBe(10 - (await pendingAt("001", "SKU-A")));
    expect(body.available_qtys["SKU-B"]?.["001"]).toBeUndefined();
    expect((await get("/api/manual_assignment?order_id=no-such-order")).status).toBe(404);
  });

  it("creates Pending assignments, keeps total_assigned, and answers the spec's message", async () => {
    const order = await makeOrder({
      items: [
        { sku: "SKU-C", qty: 3 },
        { sku: "SKU-B", qty: 1 },
      ],
    });
    const { status, body } = await assign(order.orderId, [
      [order.items[0], "001", 2],
      [order.items[0], "DS01", 1],
      [order.items[1], "002", 1],
    ]);
    expect(status).toBe(200);
    expect(body).toMatchObject({ error: false, message: "Assignments created successfully" });
    const rows = await db.assignment.findMany({ where: { order_increment_id: order.orderId }, orderBy: { id: "asc" } });
    expect(rows.map((row) => [row.item_id, row.store_id, row.qty_assigned, row.assign_status, row.dropshipper_name])).toEqual([
      [order.items[0], "001", 2, 1, null],
      [order.items[0], "DS01", 1, 1, "Acme Outdoor Supply"],
      [order.items[1], "002", 1, 1, null],
    ]);
    expect(await totalAssigned(order.rowId)).toBe(4);
    // Fully assigned: off the unassigned orders, and nothing left to assign.
    const list = await get(`/api/unassigned_orders?increment_id=${order.orderId}`);
    expect(list.body.total).toBe(0);
    const again = await assign(order.orderId, [[order.items[1], "001", 1]]);
    expect(again.status).toBe(422);
    expect(again.body.errors["assignments.0.qty_assigned"]).toEqual([`Nothing of item ${order.items[1]} (SKU-B) is left to assign.`]);
  });

  it("refuses, per row and with a clear message, every broken rule, and creates nothing then", async () => {
    const order = await makeOrder({ items: [{ sku: "SKU-D", qty: 2 }] });
    const other = await makeOrder({ items: [{ sku: "SKU-D", qty: 1 }] });
    await stock("002", "SKU-D", 1);
    const item = order.items[0];
    const cases: Array<[Array<[number, string, number | string]>, string, string]> = [
      [[[item, "001", 0]], "assignments.0.qty_assigned", "Qty must be a whole number of 1 or more."],
      [[[item, "001", "two"]], "assignments.0.qty_assigned", "Qty must be a whole number of 1 or more."],
      [[[item, "001", -1]], "assignments.0.qty_assigned", "Qty must be a whole number of 1 or more."],
      [[[item, "001", 3]], "assignments.0.qty_assigned", `Only 2 of item ${item} (SKU-D) are left to assign; 3 cannot be assigned.`],
      [
        [
          [item, "001", 1],
          [item, "002", 2],
        ],
        "assignments.1.qty_assigned",
        `Only 1 of item ${item} (SKU-D) are left to assign; 2 cannot be assigned.`,
      ],
      [[[item, "002", 2]], "assignments.0.qty_assigned", "Store 002 - Milwaukee has 1 of SKU-D available; 2 cannot be assigned there."],
      [[[other.items[0], "001", 1]], "assignments.0.item_id", `Item ${other.items[0]} is not an item of order ${order.orderId}.`],
      [[[item, "999", 1]], "assignments.0.store_id", "999 is not a store or dropshipper."],
      [[[item, "003", 1]], "assignments.0.store_id", "Store 003 - Closed is disabled and takes no assignments."],
      [[[item, "", 1]], "assignments.0.store_id", "Choose the store or dropshipper."],
    ];
    for (const [rows, field, message] of cases) {
      const { status, body } = await assign(order.orderId, rows);
      expect(status, message).toBe(422);
      expect(body.errors[field], message).toEqual([message]);
    }
    const none = await post("/api/manual_assignment", { order_id: order.orderId });
    expect(none.body.errors.assignments).toEqual(["Add at least one assignment."]);
    const missing = await assign("no-such-order", [[item, "001", 1]]);
    expect(missing.status).toBe(404);
    const canceled = await makeOrder({ status: "canceled", items: [{ sku: "SKU-D", qty: 1 }] });
    const refused = await assign(canceled.orderId, [[canceled.items[0], "001", 1]]);
    expect(firstMessage(refused.body)).toBe(`Order ${canceled.orderId} is canceled: nothing of it can be assigned.`);
    expect(await db.assignment.count({ where: { order_increment_id: { in: [order.orderId, canceled.orderId] } } })).toBe(0);
    expect(await totalAssigned(order.rowId)).toBe(0);
  });

  it("takes the rows as JSON too, with the same checks", async () => {
    const order = await makeOrder({ items: [{ sku: "SKU-C", qty: 2 }] });
    const send = (body: unknown) =>
      fetch(`${app.url}/api/manual_assignment`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
        async (response) => ({ status: response.status, body: await response.json() }),
      );
    const bad = await send({
      order_id: order.orderId,
      assignments: [
        { item_id: order.items[0], store_id: "001", qty_assigned: 1.5 },
        { item_id: "x", store_id: 7, qty_assigned: 1 },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      "assignments.0.qty_assigned": ["Qty must be a whole number of 1 or more."],
      "assignments.1.item_id": ["Choose the SKU (order item)."],
    });
    const ok = await send({ order_id: order.orderId, assignments: [{ item_id: order.items[0], store_id: "001", qty_assigned: 2 }] });
    expect(ok.status).toBe(200);
    expect(ok.body.assignment_ids).toHaveLength(1);
  });

  it("sends all items of a marketplace order to one inventory source", async () => {
    const order = await makeOrder({
      marketplace: "AMAZON_US",
      items: [
        { sku: "SKU-A", qty: 1 },
        { sku: "SKU-B", qty: 1 },
        { sku: "SKU-C", qty: 1 },
      ],
    });
    const split = await assign(order.orderId, [
      [order.items[0], "001", 1],
      [order.items[1], "002", 1],
    ]);
    expect(split.status).toBe(422);
    expect(split.body.errors["assignments.1.store_id"]).toEqual([
      `Marketplace order ${order.orderId} must ship from one inventory source: it already goes to Store 001 - Chicago, not Store 002 - Milwaukee.`,
    ]);
    expect((await assign(order.orderId, [[order.items[0], "001", 1]])).status).toBe(200);
    const later = await assign(order.orderId, [[order.items[1], "DS01", 1]]);
    expect(later.body.errors["assignments.0.store_id"]).toEqual([
      `Marketplace order ${order.orderId} must ship from one inventory source: it already goes to Store 001 - Chicago, not Acme Outdoor Supply.`,
    ]);
    expect(
      (
        await assign(order.orderId, [
          [order.items[1], "001", 1],
          [order.items[2], "001", 1],
        ])
      ).status,
    ).toBe(200);
    // Reassigning one of them elsewhere would split it too.
    const [first] = await db.assignment.findMany({ where: { order_increment_id: order.orderId }, orderBy: { id: "asc" } });
    const moved = await post(`/api/reassignment/${first.id}`, { _method: "PUT", store_id: "002" });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.store_id[0]).toContain(`Marketplace order ${order.orderId} must ship from one inventory source`);
  });
});

async function pendingAt(source: string, sku: string) {
  const rows = await db.assignment.findMany({ where: { store_id: source, product_sku: sku, assign_status: { in: [1, 2] }, dnh: { none: {} } } });
  return rows.reduce((sum, row) => sum + row.qty_assigned, 0);
}

describe("over-assignment under concurrency", () => {
  it("never assigns more of an item than is left, whatever number of requests arrive at once", async () => {
    const order = await makeOrder({ items: [{ sku: "SKU-E", qty: 5 }] });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => assign(order.orderId, [[order.items[0], i % 2 ? "001" : "002", 1]])));
    expect(results.filter((result) => result.status === 200)).toHaveLength(5);
    for (const refused of results.filter((result) => result.status !== 200)) {
      expect(refused.status).toBe(422);
      expect(firstMessage(refused.body)).toBe(`Nothing of item ${order.items[0]} (SKU-E) is left to assign.`);
    }
    const rows = await db.assignment.findMany({ where: { item_id: order.items[0] } });
    expect(rows.reduce((sum, row) => sum + row.qty_assigned, 0)).toBe(5);
    expect(await totalAssigned(order.rowId)).toBe(5);
  });

  it("never assigns more at a source than it has, across orders", async () => {
    await stock("002", "SKU-A", 4);
    const held = await pendingAt("002", "SKU-A");
    await stock("002", "SKU-A", 4 + held);
    const orders = await Promise.all(Array.from({ length: 6 }, () => makeOrder({ items: [{ sku: "SKU-A", qty: 2 }] })));
    const results = await Promise.all(orders.map((order) => assign(order.orderId, [[order.items[0], "002", 2]])));
    expect(results.filter((result) => result.status === 200)).toHaveLength(2);
    expect(results.filter((result) => result.status === 422).map((result) => firstMessage(result.body))).toEqual(
      Array(4).fill("Store 002 - Milwaukee has 0 of SKU-A available; 2 cannot be assigned there."),
    );
    expect(await pendingAt("002", "SKU-A")).toBe(held + 4);
  });
});

// --- delete, reassign, DNH -----------------------------------------------------------

async function assignmentOf(status: number, store = "001", sku = "SKU-B") {
  const order = await makeOrder({ items: [{ sku, qty: 2 }] });
  expect((await assign(order.orderId, [[order.items[0], store, 2]])).status).toBe(200);
  const row = await db.assignment.findFirstOrThrow({ where: { item_id: order.items[0] } });
  if (status !== 1) await db.assignment.update({ where: { id: row.id }, data: { assign_status: status } });
  return { ...order, id: row.id };
}
const unassignedQty = async (orderId: string) =>
  (await get(`/api/manual_assignment?order_id=${orderId}`)).body.unassigned_order_items.reduce(
    (sum: number, item: { qty_unassigned: number }) => sum + item.qty_unassigned,
    0,
  );

/** A ship request of the assignment at Acme Outdoor Supply (DS01), in `transmissionId`'s file when given. */
async function shipRequest(a: { id: number; orderId: string }, transmissionId: number | null, status = "pending") {
  const vendor = await db.vendor.findFirstOrThrow({ where: { store_id: "DS01" } });
  return db.dropshipRequest.create({
    data: {
      vendor_id: vendor.id,
      vendor_name: vendor.name,
      assignment_id: a.id,
      po_number: `PO${a.orderId}-${a.id}`,
      order_increment_id: a.orderId,
      item_sku: "SKU-B",
      qty: 2,
      ship_name_first: "Jane",
      ship_name_last: "Roe",
      ship_address: "12 Main St",
      ship_city: "Chicago",
      ship_state: "IL",
      ship_zip: "60601",
      country_id: "US",
      status,
      transmission_id: transmissionId,
      needs_processing: transmissionId === null,
    },
  });
}
async function preparedFile(tag: number) {
  const vendor = await db.vendor.findFirstOrThrow({ where: { store_id: "DS01" } });
  return db.transmission.create({
    data: {
      vendor_id: vendor.id,
      direction: "out",
      file_name: `850_${tag}.edi`,
      transaction_control_numbers: [],
      content_hash: `h${tag}`,
      content: new Uint8Array([1]),
      size: 1,
      status: "prepared",
    },
  });
}

describe("delete", () => {
  it("deletes a Pending or Processing assignment and returns its quantity to unassigned", async () => {
    for (const status of [1, 2]) {
      const a = await assignmentOf(status);
      expect(await unassignedQty(a.orderId)).toBe(0);
      const { status: code, body } = await post(`/api/assignment/${a.id}`, {}, "DELETE");
      expect(code).toBe(200);
      expect(body).toEqual({ error: false, message: `Assignment ${a.id} deleted: 2 x SKU-B is unassigned again.` });
      expect(await db.assignment.count({ where: { id: a.id } })).toBe(0);
      expect(await unassignedQty(a.orderId)).toBe(2);
      expect(await totalAssigned(a.rowId)).toBe(0);
      expect((await get(`/api/unassigned_orders?increment_id=${a.orderId}`)).body.total).toBe(1);
    }
  });

  it("refuses a Sent store one (the store's shipping tool cancels it, then a DNH) and a Complete one", async () => {
    const sent = await assignmentOf(3);
    const refused = await post(`/api/assignment/${sent.id}`, {}, "DELETE");
    expect(refused.status).toBe(422);
    expect(refused.body.errors.id).toEqual([
      `Assignment ${sent.id} has been sent to Store 001 - Chicago: it can no longer be deleted ` +
        `or reassigned. Cancel it in the store's shipping tool first, then transfer it with a DNH.`,
    ]);
    const complete = await assignmentOf(4);
    expect((await post(`/api/assignment/${complete.id}`, {}, "DELETE")).body.errors.id).toEqual([
      `Assignment ${complete.id} is Complete (shipped): it cannot be deleted, reassigned or transferred.`,
    ]);
    expect(await db.assignment.count({ where: { id: { in: [sent.id, complete.id] } } })).toBe(2);
    expect((await post("/api/assignment/99999999", {}, "DELETE")).status).toBe(404);
    expect((await post(`/api/assignment/${sent.id}`, {})).status).toBe(405);
  });

  it("withdraws a Processing drop-ship assignment's unsent ship request; one already in a file gets a cancellation after it", async () => {
    const unsent = await assignmentOf(2, "DS01");
    await shipRequest(unsent, null);
    expect((await post(`/api/assignment/${unsent.id}`, {}, "DELETE")).status).toBe(200);
    expect(await db.dropshipRequest.count({ where: { assignment_id: unsent.id } })).toBe(0);
    expect(await db.dropshipLog.count({ where: { po_number: `PO${unsent.orderId}-${unsent.id}`, message: { contains: "withdrawn" } } })).toBe(1);
    expect(await db.dropshipCancellation.count({ where: { po_number: `PO${unsent.orderId}-${unsent.id}` } })).toBe(0);

    const inFile = await assignmentOf(2, "DS01");
    const file = await preparedFile(inFile.id);
    await shipRequest(inFile, file.id);
    const deleted = await post(`/api/assignment/${inFile.id}`, {}, "DELETE");
    expect(deleted).toEqual({
      status: 200,
      body: {
        error: false,
        message: `Assignment ${inFile.id} deleted: 2 x SKU-B is unassigned again. Acme Outdoor Supply is asked to cancel PO PO${inFile.orderId}-${inFile.id}.`,
      },
    });
    // The row stays with its request (the vendor will have the PO), Cancel Requested, and holds nothing.
    expect(await db.assignment.findUniqueOrThrow({ where: { id: inFile.id } })).toMatchObject({ assign_status: 5 });
    expect(await unassignedQty(inFile.orderId)).toBe(2);
    expect(await db.dropshipRequest.findFirstOrThrow({ where: { assignment_id: inFile.id } })).toMatchObject({ status: "pending" });
    expect(await db.dropshipCancellation.findMany({ where: { po_number: `PO${inFile.orderId}-${inFile.id}` } })).toEqual([
      expect.objectContaining({ qty: 2, whole: true, change_number: 1, cause: "deleted", status: "pending", transmission_id: null }),
    ]);
    expect((await db.dropshipLog.findFirstOrThrow({ where: { po_number: `PO${inFile.orderId}-${inFile.id}`, action: "cancel_requests" } })).message).toBe(
      `Cancellation 1 of PO PO${inFile.orderId}-${inFile.id} (2 of 2) to be sent to Acme Outdoor Supply ` +
        `once the file carrying the PO is uploaded: assignment ${inFile.id} was deleted.`,
    );
    // Asked once: a second delete is refused.
    expect((await post(`/api/assignment/${inFile.id}`, {}, "DELETE")).body.errors.id).toEqual([
      `Assignment ${inFile.id} is being cancelled at its vendor, or was: it can no longer be changed.`,
    ]);
  });

  it("asks the vendor to cancel a Sent drop-ship assignment, and refuses one the vendor shipped", async () => {
    const sent = await assignmentOf(3, "DS01");
    await shipRequest(sent, (await preparedFile(sent.id)).id, "acknowledged");
    expect((await post(`/api/assignment/${sent.id}`, {}, "DELETE")).status).toBe(200);
    expect(await db.dropshipRequest.findFirstOrThrow({ where: { assignment_id: sent.id } })).toMatchObject({ status: "cancel_requested" });
    expect(await db.dropshipCancellation.count({ where: { po_number: `PO${sent.orderId}-${sent.id}`, status: "pending", whole: true } })).toBe(1);
    expect(await totalAssigned(sent.rowId)).toBe(0);

    const shipped = await assignmentOf(3, "DS01");
    await shipRequest(shipped, (await preparedFile(shipped.id)).id, "shipped");
    expect((await post(`/api/assignment/${shipped.id}`, {}, "DELETE")).body.errors.id).toEqual([
      `Acme Outdoor Supply has already shipped PO PO${shipped.orderId}-${shipped.id} of assignment ${shipped.id}: it can no longer be changed.`,
    ]);
    expect(await db.dropshipCancellation.count({ where: { po_number: `PO${shipped.orderId}-${shipped.id}` } })).toBe(0);

    // A rejected request needs nothing sent: the assignment is done with, its units free.
    const rejected = await assignmentOf(3, "DS01");
    await shipRequest(rejected, (await preparedFile(rejected.id)).id, "rejected");
    expect((await post(`/api/assignment/${rejected.id}`, {}, "DELETE")).body).toEqual({
      error: false,
      message: `Assignment ${rejected.id} deleted: 2 x SKU-B is unassigned again.`,
    });
    expect(await db.assignment.findUniqueOrThrow({ where: { id: rejected.id } })).toMatchObject({ assign_status: 6 });
    expect(await unassignedQty(rejected.orderId)).toBe(2);
  });
});

describe("reassign", () => {
  it("loads the assignment with the stores, and moves it keeping the quantity", async () => {
    const a = await assignmentOf(2, "001", "SKU-C");
    const form = await get(`/api/reassignment?id=${a.id}`);
    expect(form.status).toBe(200);
    expect(form.body.data[0]).toMatchObject({
      id: a.id,
      order_increment_id: a.orderId,
      item_id: a.items[0],
      product_sku: "SKU-C",
      qty_assigned: 2,
      store_id: "001",
      assign_status: 2,
    });
    expect(form.body.available_stores.map((store: { source_code: string }) => store.source_code)).toContain("DS01");
    expect((await post(`/api/reassignment/${a.id}`, { store_id: "DS01" })).status).toBe(405);
    expect((await post(`/api/reassignment/${a.id}`, { _method: "PUT" })).body.errors.store_id).toEqual(["Choose the store or dropshipper."]);
    expect((await post(`/api/reassignment/${a.id}`, { _method: "PUT", store_id: "001" })).body.errors.store_id).toEqual([
      `Assignment ${a.id} already goes to Store 001 - Chicago: choose another store or dropshipper.`,
    ]);
    expect((await post(`/api/reassignment/${a.id}`, { _method: "PUT", store_id: "003" })).body.errors.store_id).toEqual([
      "Store 003 - Closed is disabled and takes no assignments.",
    ]);

    const saved = await post(`/api/reassignment/${a.id}`, { _method: "PUT", store_id: "DS01" });
    expect(saved).toEqual({ status: 200, body: { error: false, message: `Assignment ${a.id} now goes to Acme Outdoor Supply.`, assignment_id: a.id } });
    const row = await db.assignment.findUniqueOrThrow({ where: { id: a.id } });
    expect(row).toMatchObject({ store_id: "DS01", dropshipper_name: "Acme Outdoor Supply", qty_assigned: 2, assign_status: 1 });
    expect(await totalAssigned(a.rowId)).toBe(2);
    expect((await get("/api/reassignment?id=99999999")).status).toBe(404);
  });

  it("refuses a Sent store assignment and a source without enough available", async () => {
    const sent = await assignmentOf(3);
    expect((await post(`/api/reassignment/${sent.id}`, { _method: "PUT", store_id: "002" })).body.errors.id[0]).toContain(
      "it can no longer be deleted or reassigned. Cancel it in the store's shipping tool first, then transfer it with a DNH.",
    );
    const a = await assignmentOf(1, "001", "SKU-D");
    await stock("002", "SKU-D", (await pendingAt("002", "SKU-D")) + 1);
    expect((await post(`/api/reassignment/${a.id}`, { _method: "PUT", store_id: "002" })).body.errors.store_id).toEqual([
      "Store 002 - Milwaukee has 1 of SKU-D available; 2 cannot be assigned there.",
    ]);
  });

  it("moves a Sent drop-ship assignment to a new one at the new source, and asks the vendor to cancel the old", async () => {
    const sent = await assignmentOf(3, "DS01");
    await shipRequest(sent, (await preparedFile(sent.id)).id, "backordered");
    // The form's load says the vendor has it (its warning), and that it can be reassigned (D232).
    const form = await get(`/api/reassignment?id=${sent.id}`);
    expect(form.body).toMatchObject({
      vendor_request: { po_number: `PO${sent.orderId}-${sent.id}`, vendor_name: "Acme Outdoor Supply", status: "backordered", vendor_has_it: true },
      reassignable: true,
    });
    const saved = await post(`/api/reassignment/${sent.id}`, { _method: "PUT", store_id: "002" });
    expect(saved.status).toBe(200);
    const moved = await db.assignment.findFirstOrThrow({ where: { item_id: sent.items[0], id: { not: sent.id } } });
    expect(saved.body).toEqual({
      error: false,
      message:
        `Assignment ${sent.id} is being cancelled; assignment ${moved.id} now goes to Store 002 - Milwaukee. ` +
        `Acme Outdoor Supply is asked to cancel PO PO${sent.orderId}-${sent.id}.`,
      assignment_id: moved.id,
    });
    expect(moved).toMatchObject({ store_id: "002", qty_assigned: 2, assign_status: 1 });
    expect(await db.assignment.findUniqueOrThrow({ where: { id: sent.id } })).toMatchObject({ store_id: "DS01", assign_status: 5 });
    expect(await db.dropshipCancellation.findFirstOrThrow({ where: { po_number: `PO${sent.orderId}-${sent.id}` } })).toMatchObject({
      cause: "reassigned",
      qty: 2,
    });
    expect(await totalAssigned(sent.rowId)).toBe(2);
    // Being cancelled: the old one's form has nothing left to save.
    expect((await get(`/api/reassignment?id=${sent.id}`)).body).toMatchObject({
      vendor_request: { status: "cancel_requested", vendor_has_it: false },
      reassignable: false,
    });
  });
});

describe("DNH", () => {
  it("records the transfer number and reason and returns the item for reassignment", async () => {
    const a = await assignmentOf(3, "002", "SKU-B");
    const form = await get(`/api/dnh?assignment_id=${a.id}`);
    expect(form.body).toMatchObject({
      assignment_id: a.id,
      order_increment_id: a.orderId,
      product_sku: "SKU-B",
      qty_assigned: 2,
      store_id: "002",
      transfer_num: null,
    });
    const inProgress = await get(`/api/in_progress_assignment?assignment_id=${a.id}`);
    expect(inProgress.body.data.total).toBe(1);

    const missing = await post("/api/dnh", { assignment_id: String(a.id), transfer_num: " ", reason: "" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ transfer_num: ["Transfer Number is required."], reason: ["Reason is required."] });
    const long = await post("/api/dnh", { assignment_id: String(a.id), transfer_num: "T".repeat(51), reason: "x" });
    expect(long.body.errors).toEqual({ transfer_num: ["At most 50 characters."] });

    const dailyAt002 = async () => (await get("/api/daily_sales")).body.total_assignments["002"]?.assigned ?? 0;
    const before = await dailyAt002();
    const saved = await post("/api/dnh", { assignment_id: String(a.id), transfer_num: "T-0042", reason: "Damaged in store\nsend from another location" });
    expect(saved).toEqual({ status: 200, body: { error: false, message: "Transfer created successfully" } });
    const transfer = await db.dnhTransfer.findFirstOrThrow({ where: { assignment_id: a.id } });
    expect(transfer).toMatchObject({
      transfer_num: "T-0042",
      reason: "Damaged in store\nsend from another location",
      qty_assigned: 2,
      store_id: "002",
      product_sku: "SKU-B",
    });
    expect(await unassignedQty(a.orderId)).toBe(2);
    expect(await totalAssigned(a.rowId)).toBe(0);
    expect((await get(`/api/in_progress_assignment?assignment_id=${a.id}`)).body.data.total).toBe(0);
    expect((await get(`/api/assignment?id=${a.id}`)).body.total).toBe(0);
    expect((await get(`/api/dnh?assignment_id=${a.id}`)).body).toMatchObject({ transfer_num: "T-0042" });
    // Home's Daily Sales no longer counts it among the day's assignments.
    expect(await dailyAt002()).toBe(before - 1);

    const twice = await post("/api/dnh", { assignment_id: String(a.id), transfer_num: "T-0043", reason: "again" });
    expect(twice.body.errors.assignment_id).toEqual([`Assignment ${a.id} was already transferred (DNH T-0042).`]);
    // Reassigned anew by hand.
    expect((await assign(a.orderId, [[a.items[0], "001", 2]])).status).toBe(200);
  });

  it("transfers a Sent drop-ship assignment and asks its vendor to cancel it", async () => {
    const a = await assignmentOf(3, "DS01");
    await shipRequest(a, (await preparedFile(a.id)).id, "sent");
    const saved = await post("/api/dnh", { assignment_id: String(a.id), transfer_num: "T-77", reason: "Customer picks it up" });
    expect(saved.body).toEqual({
      error: false,
      message: `Transfer created successfully. Acme Outdoor Supply is asked to cancel PO PO${a.orderId}-${a.id}.`,
    });
    expect(await db.dropshipCancellation.findFirstOrThrow({ where: { po_number: `PO${a.orderId}-${a.id}` } })).toMatchObject({
      cause: "transferred",
      status: "pending",
    });
    expect((await db.dropshipLog.findFirstOrThrow({ where: { po_number: `PO${a.orderId}-${a.id}`, action: "cancel_requests" } })).message).toBe(
      `Cancellation 1 of PO PO${a.orderId}-${a.id} (2 of 2) to be sent to Acme Outdoor Supply: assignment ${a.id} was transferred (DNH T-77).`,
    );
  });

  it("refuses a Pending one (delete or reassign it) and a Complete one", async () => {
    const pending = await assignmentOf(1);
    expect((await post("/api/dnh", { assignment_id: String(pending.id), transfer_num: "T1", reason: "x" })).body.errors.assignment_id).toEqual([
      `Assignment ${pending.id} is Pending: nothing was handed over yet, so delete or reassign it instead of a DNH.`,
    ]);
    const complete = await assignmentOf(4);
    expect((await post("/api/dnh", { assignment_id: String(complete.id), transfer_num: "T1", reason: "x" })).status).toBe(422);
    expect((await post("/api/dnh", { assignment_id: "99999999", transfer_num: "T1", reason: "x" })).status).toBe(404);
    expect(await db.dnhTransfer.count({ where: { assignment_id: { in: [pending.id, complete.id] } } })).toBe(0);
  });
});

// --- grids ----------------------------------------------------------------------------

describe("grids", () => {
  it("lists unassigned orders by increment id, with eligibility labels and the Manually Assign link", async () => {
    const finished = await makeOrder({ status: "complete", items: [{ sku: "SKU-A", qty: 1 }] });
    const { status, body } = await get("/api/unassigned_orders?per_page=200");
    expect(status).toBe(200);
    expect(body).toMatchObject({ current_page: 1, last_page: 1 });
    const ids = body.data.map((row: { increment_id: string }) => row.increment_id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).not.toContain(finished.orderId);
    expect(body.total).toBe(
      await db.order.count({
        where: { total_assigned: { lt: db.order.fields.total_shippable_qty_ordered }, magento_status: { notIn: ["complete", "closed", "canceled", "fraud"] } },
      }),
    );
    const eligibility = body.columns.find((column: { key: string }) => column.key === "auto_assignment_eligible");
    expect(eligibility.options).toEqual({ 0: "Not Yet Calculated", 1: "No", 2: "Yes" });
    const actions = body.columns.find((column: { key: string }) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({
      path: "/sales/assignment/manual-assignment",
      field: "order_id",
      field_request_name: "order_id",
      label: "Manually Assign",
    });
    expect((await get("/api/unassigned_orders?sort=nope")).status).toBe(422);
  });

  it("lists assignments newest first with the spec's filters and status labels", async () => {
    const all = await get("/api/assignment");
    const ids = all.body.data.map((row: { id: number }) => row.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(all.body.total).toBe(await db.assignment.count({ where: { dnh: { none: {} }, assign_status: { notIn: [5, 6] } } }));
    const status = all.body.columns.find((column: { key: string }) => column.key === "assign_status");
    expect(status.options).toEqual({
      1: "Pending",
      2: "Processing",
      3: "Sent",
      4: "Complete",
      5: "Cancel Requested",
      6: "Cancelled",
      7: "Cancel Refused",
    });
    const bySku = await get("/api/assignment?product_sku=SKU-E&store_id=001");
    expect(bySku.body.data.every((row: { product_sku: string; store_id: string }) => row.product_sku === "SKU-E" && row.store_id === "001")).toBe(true);
    expect(bySku.body.total).toBe(await db.assignment.count({ where: { product_sku: "SKU-E", store_id: { contains: "001" }, dnh: { none: {} } } }));
    const sent = await get("/api/assignment?assign_status=3");
    expect(sent.body.total).toBe(await db.assignment.count({ where: { assign_status: 3, dnh: { none: {} } } }));
    const inProgress = await get("/api/in_progress_assignment");
    expect(inProgress.body.data.total).toBe(await db.assignment.count({ where: { assign_status: { in: [2, 3, 5, 7] }, dnh: { none: {} } } }));
    const keys = inProgress.body.data.data.map((row: { assignment_id: number }) => row.assignment_id);
    expect(keys).toEqual([...keys].sort((a: number, b: number) => b - a));
    expect(inProgress.body.columns.find((column: { key: string }) => column.key === "actions").settings.links[0]).toMatchObject({
      path: "/sales/in-progress-assignment/dnh",
      field_request_name: "assignment_id",
      label: "DNH",
    });
  });
});

// --- AS400 files ---------------------------------------------------------------------------

describe("AS400 files", () => {
  it("computes eligibility and writes the eligible orders' items left to assign to the AS400", async () => {
    const good = await makeOrder({
      items: [
        { sku: "SKU-A", qty: 2 },
        { sku: "SKU-B", qty: 1 },
      ],
    });
    expect((await assign(good.orderId, [[good.items[0], "001", 1]])).status).toBe(200);
    const noAddress = await makeOrder({ address: false, items: [{ sku: "SKU-A", qty: 1 }] });
    const unknownSku = await makeOrder({ items: [{ sku: "NOT-A-PRODUCT", qty: 1 }] });
    const onHold = await makeOrder({ status: "avs_pending", items: [{ sku: "SKU-A", qty: 1 }] });

    // Answered at once, run in the background, followed to its end (D93).
    const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/generate_auto_assignment_file`, { method: "POST" }));
    expect(startStatus).toBe(202);
    expect(body).toMatchObject({ status: "finished", error: false, message: "Auto-assignments file generated created successfully" });
    const eligible = async (rowId: number) => (await db.order.findUniqueOrThrow({ where: { id: rowId } })).auto_assignment_eligible;
    expect(await eligible(good.rowId)).toBe(2);
    expect(await eligible(noAddress.rowId)).toBe(1);
    expect(await eligible(unknownSku.rowId)).toBe(1);
    expect(await eligible(onHold.rowId)).toBe(1);

    // Read back from the AS400's side.
    const folder = path.join(as400Root, "as400", "auto-assignment");
    const [name] = readdirSync(folder).filter((file) => file === body.file_name);
    expect(name).toMatch(/^AUTO_ASSIGN_\d{14}\.csv$/);
    const lines = readFileSync(path.join(folder, name), "utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "order_id,shopify_order_id,item_id,sku,qty_unassigned,marketplace_source,marketplace_order_id,ship_name," +
        "ship_street,ship_city,ship_region,ship_postcode,ship_country_id,shipping_description,created_at",
    );
    const mine = lines.slice(1).filter((line) => line.startsWith(`${good.orderId},`));
    expect(mine.map((line) => line.split(",").slice(0, 5))).toEqual([
      [good.orderId, String(9_000_000 + Number(good.orderId)), String(good.items[0]), "SKU-A", "1"],
      [good.orderId, String(9_000_000 + Number(good.orderId)), String(good.items[1]), "SKU-B", "1"],
    ]);
    expect(mine[0].split(",").slice(7, 14)).toEqual(["Jane Roe", "12 Main St", "Chicago", "IL", "60601", "US", "Standard - Ground"]);
    for (const order of [noAddress, unknownSku, onHold]) expect(lines.some((line) => line.startsWith(`${order.orderId},`))).toBe(false);
    const stored = await db.transmission.findFirstOrThrow({ where: { partner: "as400", direction: "out", file_name: name } });
    expect(stored.status).toBe("sent");
    expect(Buffer.from(stored.content).toString("utf8")).toBe(readFileSync(path.join(folder, name), "utf8"));
  });

  it("imports the AS400's assignment file: good lines in one go, every bad line reported, the file stored and archived", async () => {
    const order = await makeOrder({
      items: [
        { sku: "SKU-C", qty: 3 },
        { sku: "SKU-D", qty: 1 },
      ],
    });
    const market = await makeOrder({
      marketplace: "EBAY_STORES",
      items: [
        { sku: "SKU-B", qty: 1 },
        { sku: "SKU-C", qty: 1 },
      ],
    });
    const [c, d] = order.items;
    const content = [
      "order_id,item_id,sku,source_code,qty,form_number",
      `${order.orderId},${c},SKU-C,001,2,F100200`,
      `${order.orderId},${c},SKU-C,002,2,`, // only 1 left after the line above
      `${order.orderId},${d},SKU-D,DS01,1,`,
      `${order.orderId},${d},SKU-X,001,1,`, // not the item's SKU
      `${order.orderId},abc,SKU-C,001,1,`, // not an item id
      `${order.orderId},${c},SKU-C,999,1,`, // unknown source
      `${market.orderId},${market.items[0]},SKU-B,002,1,`,
      `${market.orderId},${market.items[1]},SKU-C,001,1,`, // marketplace: one source
      "",
    ].join("\n");
    mkdirSync(path.join(as400Root, "as400", "assignments"), { recursive: true });
    writeFileSync(path.join(as400Root, "as400", "assignments", "ASSIGN_0001.csv"), content);

    const { status, body } = await post("/api/import_assignment", {});
    expect(status).toBe(200);
    expect(body).toMatchObject({ error: false, message: "Assignment file imported successfully", files: 1, created: 3 });
    expect(body.error_messages).toEqual([
      `ASSIGN_0001.csv, line 3: Only 1 of item ${c} (SKU-C) are left to assign; 2 cannot be assigned.`,
      `ASSIGN_0001.csv, line 5: Item ${d} is SKU-D, not SKU-X.`,
      `ASSIGN_0001.csv, line 6: item_id "abc" is not an item id`,
      `ASSIGN_0001.csv, line 7: 999 is not a store or dropshipper.`,
      `ASSIGN_0001.csv, line 9: Marketplace order ${market.orderId} must ship from one ` +
        `inventory source: it already goes to Store 002 - Milwaukee, not Store 001 - Chicago.`,
    ]);
    const created = await db.assignment.findMany({ where: { order_increment_id: { in: [order.orderId, market.orderId] } }, orderBy: { id: "asc" } });
    expect(created.map((row) => [row.item_id, row.store_id, row.qty_assigned, row.assign_status, row.form_number])).toEqual([
      [c, "001", 2, 3, "F100200"],
      [d, "DS01", 1, 1, null],
      [market.items[0], "002", 1, 3, null],
    ]);
    expect(await totalAssigned(order.rowId)).toBe(3);
    // Stored whole before anything else, then archived on the AS400.
    const stored = await db.transmission.findFirstOrThrow({ where: { partner: "as400", direction: "in", file_name: "ASSIGN_0001.csv" } });
    expect(Buffer.from(stored.content).toString("utf8")).toBe(content);
    expect(stored.status).toBe("processed");
    expect(stored.error).toContain("5 lines not applied");
    expect(readdirSync(path.join(as400Root, "as400", "assignments")).filter((file) => file.endsWith(".csv"))).toEqual([]);
    expect(readdirSync(path.join(as400Root, "as400", "assignments", "archive"))).toContain("ASSIGN_0001.csv");

    // The same content again under another name is a file of its own (D59): read, and refused line by
    // line, since what it assigns is assigned already; nothing is assigned twice.
    writeFileSync(path.join(as400Root, "as400", "assignments", "ASSIGN_0002.csv"), content);
    const again = await post("/api/import_assignment", {});
    expect(again.body).toMatchObject({ files: 1, created: 0 });
    expect(again.body.error_messages.join("\n")).toMatch(/ASSIGN_0002\.csv, line \d+: Nothing of item \d+ \(SKU-D\) is left to assign\./);
    expect(await db.assignment.count({ where: { order_increment_id: { in: [order.orderId, market.orderId] } } })).toBe(3);
  });

  it("refuses a file that is not an assignment file, keeps it, and reports it", async () => {
    writeFileSync(path.join(as400Root, "as400", "assignments", "BROKEN.csv"), "order,sku\n1,2\n");
    const { status, body } = await post("/api/import_assignment", {});
    expect(status).toBe(200);
    expect(body.error).toBe(true);
    expect(body.message).toBe("Something went wrong importing the assignment file from the AS400");
    expect(body.error_messages).toEqual([
      "BROKEN.csv refused: line 1: not an assignment file: missing required columns order_id, item_id, source_code, qty (the header row has: order, sku)",
    ]);
    const stored = await db.transmission.findFirstOrThrow({ where: { partner: "as400", direction: "in", file_name: "BROKEN.csv" } });
    expect(stored).toMatchObject({ status: "failed" });
    // Run as the assignment_import feed: its logs say so.
    expect(await db.feedLog.count({ where: { feed_name: "assignment_import", type: "starting" } })).toBe(3);
  });

  it("a second file in the same second gets its own name: no upload replaces a file on the AS400 (D196)", async () => {
    await makeOrder({ items: [{ sku: "SKU-A", qty: 1 }] });
    // Our files already hold the plain names of the next minute's seconds, as a run in the same second would.
    const start = Date.now();
    const stamps = Array.from({ length: 60 }, (_, i) => new Date(start + i * 1000).toISOString().replace(/[-:T]/g, "").slice(0, 14));
    const earlier = await Promise.all(
      stamps.map((stamp) =>
        db.transmission.create({
          data: {
            partner: "as400",
            direction: "out",
            file_name: `AUTO_ASSIGN_${stamp}.csv`,
            transaction_set: "auto_assignment",
            transaction_control_numbers: [],
            content_hash: "",
            content: new Uint8Array(0),
            size: 0,
            status: "sent",
          },
        }),
      ),
    );
    try {
      const { body } = await followRun(app.url, await fetch(`${app.url}/api/generate_auto_assignment_file`, { method: "POST" }));
      expect(body, JSON.stringify(body)).toMatchObject({ error: false });
      expect(body.file_name).toMatch(/^AUTO_ASSIGN_\d{14}_2\.csv$/);
      expect(readdirSync(path.join(as400Root, "as400", "auto-assignment"))).toContain(body.file_name);
    } finally {
      await db.transmission.deleteMany({ where: { id: { in: earlier.map((row) => row.id) } } });
    }
  });

  it("local mode's AS400 answers a generated file, and Retrieve New Assignments takes its lines", async () => {
    const order = await makeOrder({ items: [{ sku: "SKU-E", qty: 1 }] });
    await stock("002", "SKU-E", 500);
    const generated = await followRun(app.url, await fetch(`${app.url}/api/generate_auto_assignment_file`, { method: "POST" }));
    expect(generated.body.error, JSON.stringify(generated.body)).toBe(false);
    expect(await answerAutoAssignmentFiles(db, path.join(as400Root, "as400"))).toBeGreaterThanOrEqual(1);
    const imported = await post("/api/import_assignment", {});
    expect(imported.body).toMatchObject({ error: false, message: "Assignment file imported successfully" });
    const rows = await db.assignment.findMany({ where: { order_increment_id: order.orderId } });
    expect(rows.map((row) => [row.store_id, row.qty_assigned, row.assign_status, row.form_number])).toEqual([
      ["002", 1, 3, `F${String(order.items[0]).padStart(6, "0")}`],
    ]);
    expect((await get(`/api/in_progress_assignment?order_increment_id=${order.orderId}`)).body.data.total).toBe(1);
  });
});
