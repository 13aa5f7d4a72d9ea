// Drop-ship requests and responses over real HTTP on the demo data: the grids'
// answers, the revise forms' load and save, and the 422s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let app: RunningApp;
let db: ReturnType<typeof createPrismaClient>;

beforeAll(async () => {
  database = await createTestDatabase("test");
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1" });
  db = createPrismaClient(database.url);
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await app?.stop();
  await database?.dispose();
});

const get = async (path: string) => {
  const response = await fetch(`${app.url}${path}`);
  return { status: response.status, body: await response.json() };
};
const put = async (path: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("_method", "PUT");
  const response = await fetch(`${app.url}${path}`, { method: "POST", body: form });
  return { status: response.status, body: await response.json() };
};

describe("drop-ship requests", () => {
  it("lists requests newest first in the spec's shape, with links to the revise form", async () => {
    const { status, body } = await get("/api/dropship_request");
    expect(status).toBe(200);
    const total = await db.dropshipRequest.count();
    expect(body.data).toMatchObject({ total, current_page: 1, last_page: Math.ceil(total / 20) });
    const ids = body.data.data.map((row: { request_id: number }) => row.request_id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const actions = body.columns.find((column: { key: string }) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({ path: "/dropship/requests/revise", field: "request_id", field_request_name: "id", label: "Revise" });
    const pending = await get("/api/dropship_request?status=pending");
    expect(pending.body.data.total).toBe(await db.dropshipRequest.count({ where: { status: "pending" } }));
  });

  it("loads a request's form fields, and revises it for the next run", async () => {
    const request = await db.dropshipRequest.findFirstOrThrow({ where: { status: "sent" }, orderBy: { request_id: "asc" } });
    const form = await get(`/api/dropship_request/${request.request_id}`);
    expect(form.body).toMatchObject({ vendor_name: request.vendor_name, po_number: request.po_number, assignment_id: request.assignment_id, ship_city: request.ship_city });

    const saved = await put(`/api/dropship_request/${request.request_id}`, {
      po_number: "PO-NOT-CHANGEABLE", item_sku: request.item_sku, qty: "3", ship_name_first: "Jane", ship_name_last: "Roe",
      ship_address: "12 Main St\nApt 4\nBuilding C\nc/o Front Desk", ship_city: "Evanston", ship_state: "IL", ship_zip: "60201", country_id: "us",
    });
    expect(saved).toEqual({ status: 200, body: { error: false, message: null } });
    const after = await db.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } });
    expect(after).toMatchObject({ qty: 3, ship_city: "Evanston", country_id: "US", po_number: request.po_number, needs_processing: true, status: "pending" });
  });

  it("answers 422 per field for a bad revision, and 404 for an unknown request", async () => {
    const request = await db.dropshipRequest.findFirstOrThrow();
    const bad = await put(`/api/dropship_request/${request.request_id}`, { item_sku: "", qty: "two", ship_address: "1\n2\n3\n4\n5", country_id: "USA" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.item_sku[0]).toBe("SKU is required");
    expect(bad.body.errors.qty[0]).toBe("Qty must be a whole number from 1 to 100000");
    expect(bad.body.errors.ship_address[0]).toBe("The address has at most 4 lines");
    expect(bad.body.errors.country_id[0]).toBe("Country must be at most 2 characters");
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["ship_name_first", "ship_name_last", "ship_city", "ship_state", "ship_zip"]));
    expect((await get("/api/dropship_request/99999999")).status).toBe(404);
    expect((await fetch(`${app.url}/api/dropship_request`, { method: "POST", body: new FormData() })).status).toBe(405);
  });
});

describe("drop-ship responses", () => {
  it("lists responses newest first and revises one for the next run", async () => {
    const list = await get("/api/dropship_response?response_type=856");
    expect(list.body.data.total).toBe(await db.dropshipResponse.count({ where: { response_type: "856" } }));
    const response = await db.dropshipResponse.findFirstOrThrow({ where: { status: "processed" } });
    const form = await get(`/api/dropship_response/${response.id}`);
    expect(form.body).toMatchObject({ id: response.id, tracking_number: response.tracking_number, po_number: response.po_number });
    const saved = await put(`/api/dropship_response/${response.id}`, { item_sku: response.item_sku ?? "SKU", qty: "1", tracking_number: "1Z999AA10123456784", tracking_carrier: "UPS" });
    expect(saved.status).toBe(200);
    expect(await db.dropshipResponse.findUniqueOrThrow({ where: { id: response.id } })).toMatchObject({ tracking_number: "1Z999AA10123456784", needs_processing: true, status: "received", processed_at: null });
    const bad = await put(`/api/dropship_response/${response.id}`, { item_sku: "S", qty: "1", tracking_number: "", tracking_carrier: "" });
    expect(Object.keys(bad.body.errors).sort()).toEqual(["tracking_carrier", "tracking_number"]);
  });
});
