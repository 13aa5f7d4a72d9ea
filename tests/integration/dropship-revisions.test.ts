// Drop-ship requests and responses over real HTTP on the demo data: the grids'
// answers, the revise forms' load and save, and the 422s.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";
import { REQUEST_SHIP_TO_FIELDS } from "../support/dropship-request-form";

const suite = useAppWithDatabase("test", { SEED_DEMO_DATA: "1" });

const get = async (path: string) => {
  const response = await fetch(`${suite.app.url}${path}`);
  return { status: response.status, body: await response.json() };
};
const put = async (path: string, fields: Record<string, string>) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("_method", "PUT");
  const response = await fetch(`${suite.app.url}${path}`, { method: "POST", body: form });
  return { status: response.status, body: await response.json() };
};

describe("drop-ship requests", () => {
  it("lists requests newest first in the spec's shape, with links to the revise form", async () => {
    const { status, body } = await get("/api/dropship_request");
    expect(status).toBe(200);
    const total = await suite.db.dropshipRequest.count();
    expect(body.data).toMatchObject({ total, current_page: 1, last_page: Math.ceil(total / 20) });
    const ids = body.data.data.map((row: { request_id: number }) => row.request_id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const actions = body.columns.find((column: { key: string }) => column.key === "actions");
    expect(actions.settings.links[0]).toMatchObject({ path: "/dropship/requests/revise", field: "request_id", field_request_name: "id", label: "Revise" });
    const pending = await get("/api/dropship_request?status=pending");
    expect(pending.body.data.total).toBe(await suite.db.dropshipRequest.count({ where: { status: "pending" } }));
  });

  it("loads a request's form fields, and revises it for the next run", async () => {
    const request = await suite.db.dropshipRequest.findFirstOrThrow({ where: { status: "sent" }, orderBy: { request_id: "asc" } });
    const form = await get(`/api/dropship_request/${request.request_id}`);
    expect(form.body).toMatchObject({
      vendor_name: request.vendor_name,
      po_number: request.po_number,
      assignment_id: request.assignment_id,
      ship_city: request.ship_city,
    });

    const saved = await put(`/api/dropship_request/${request.request_id}`, {
      po_number: "PO-NOT-CHANGEABLE",
      item_sku: request.item_sku,
      qty: "3",
      ship_name_first: "Jane",
      ship_name_last: "Roe",
      ship_address: "12 Main St\nApt 4\nBuilding C\nc/o Front Desk",
      ship_city: "Evanston",
      ship_state: "IL",
      ship_zip: "60201",
      country_id: "us",
    });
    expect(saved).toEqual({ status: 200, body: { error: false, message: null } });
    const after = await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } });
    expect(after).toMatchObject({ qty: 3, ship_city: "Evanston", country_id: "US", po_number: request.po_number, needs_processing: true, status: "pending" });
  });

  it("offers 'Send to another source' on rejected and backordered rows, and shows the vendor's answer and the cancellations (D231)", async () => {
    const { body } = await get("/api/dropship_request?locale=de");
    const links = body.columns.find((column: { key: string }) => column.key === "actions").settings.links;
    expect(links.filter((link: { path: string }) => link.path === "/sales/awaiting-assignment/reassign")).toEqual(
      ["rejected", "backordered"].map((value) => ({
        path: "/sales/awaiting-assignment/reassign",
        field: "assignment_id",
        field_request_name: "id",
        label: "An eine andere Quelle senden",
        target: "_self",
        condition: { operator: "=", field: "status", value },
      })),
    );
    const statuses = body.columns.find((column: { key: string }) => column.key === "status").options;
    expect(Object.keys(statuses)).toEqual(expect.arrayContaining(["cancel_requested", "cancelled", "cancel_refused"]));

    const request = await suite.db.dropshipRequest.findFirstOrThrow({ where: { status: "sent" }, orderBy: { request_id: "desc" } });
    const before = await get(`/api/dropship_request/${request.request_id}`);
    expect(before.body).toMatchObject({ status: "sent", vendor_answer: { expected_date: null, codes: [], note: null }, cancellations: [] });
    await suite.db.dropshipRequest.update({
      where: { request_id: request.request_id },
      data: { status: "backordered", vendor_expected_date: new Date("2026-12-24T00:00:00Z"), vendor_codes: ["IB", "BP"], vendor_note: "Late" },
    });
    const cancellation = await suite.db.dropshipCancellation.create({
      data: {
        request_id: request.request_id,
        vendor_id: request.vendor_id,
        po_number: request.po_number,
        qty: 1,
        whole: false,
        change_number: 1,
        cause: "line_removed",
        status: "refused",
        answer_codes: ["R2"],
        answer_note: "Already picked",
      },
    });
    const after = await get(`/api/dropship_request/${request.request_id}`);
    expect(after.body).toMatchObject({
      status: "backordered",
      qty_cancelled: 0,
      vendor_answer: { expected_date: "2026-12-24", codes: ["IB", "BP"], note: "Late" },
      cancellations: [
        { change_number: 1, qty: 1, whole: false, cause: "line_removed", status: "refused", answer_codes: ["R2"], answer_note: "Already picked" },
      ],
    });
    expect(after.body.cancellations[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await suite.db.dropshipCancellation.delete({ where: { id: cancellation.id } });
    await suite.db.dropshipRequest.update({
      where: { request_id: request.request_id },
      data: { status: "sent", vendor_expected_date: null, vendor_codes: [], vendor_note: null },
    });
  });

  it("refuses to revise a request asked back from its vendor: it would go out again", async () => {
    const request = await suite.db.dropshipRequest.findFirstOrThrow({ where: { status: "sent" }, orderBy: { request_id: "desc" } });
    await suite.db.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "cancel_requested" } });
    try {
      const refused = await put(`/api/dropship_request/${request.request_id}`, {
        item_sku: request.item_sku,
        qty: String(request.qty),
        ship_name_first: request.ship_name_first,
        ship_name_last: request.ship_name_last,
        ship_address: request.ship_address,
        ship_city: request.ship_city,
        ship_state: request.ship_state,
        ship_zip: request.ship_zip,
        country_id: request.country_id,
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.status).toEqual([
        `PO ${request.po_number} is being cancelled at its vendor: it is not sent again. Send the item to another source instead.`,
      ]);
      expect(await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "cancel_requested" });
    } finally {
      await suite.db.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: request.status } });
    }
  });

  it("answers 422 per field for a bad revision, and 404 for an unknown request", async () => {
    const request = await suite.db.dropshipRequest.findFirstOrThrow();
    const bad = await put(`/api/dropship_request/${request.request_id}`, { item_sku: "", qty: "two", ship_address: "1\n2\n3\n4\n5", country_id: "USA" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.item_sku[0]).toBe("SKU is required");
    expect(bad.body.errors.qty[0]).toBe("Qty must be a whole number from 1 to 100000");
    expect(bad.body.errors.ship_address[0]).toBe("The address has at most 4 lines");
    expect(bad.body.errors.country_id[0]).toBe("Country must be at most 2 characters");
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(["ship_name_first", "ship_name_last", "ship_city", "ship_state", "ship_zip"]));
    expect((await get("/api/dropship_request/99999999")).status).toBe(404);
  });

  it("creates a request by hand for a drop-ship assignment without one (POST without an id), validated as a revision is", async () => {
    const vendor = await suite.db.vendor.findFirstOrThrow({ where: { enabled: 1, archived_at: null }, orderBy: { id: "asc" } });
    const order = await suite.db.order.create({
      data: { order_id: "700000001", items: { create: { sku: "HAND-1", name: "By hand", qty_ordered: 2 } } },
      include: { items: true },
    });
    const assignment = await suite.db.assignment.create({
      data: {
        order_increment_id: "700000001",
        item_id: order.items[0].item_id,
        product_sku: "HAND-1",
        qty_assigned: 2,
        store_id: vendor.store_id,
        assign_status: 1,
      },
    });
    const post = async (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      const response = await fetch(`${suite.app.url}/api/dropship_request`, { method: "POST", body: form });
      return { status: response.status, body: await response.json() };
    };
    const fields = { item_sku: "HAND-1", ...REQUEST_SHIP_TO_FIELDS };

    const bad = await post({ assignment_id: "", item_sku: "", qty: "0" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.assignment_id[0]).toBe("Assignment ID is required");
    expect(bad.body.errors.item_sku[0]).toBe("SKU is required");
    expect((await post({ ...fields, assignment_id: "99999999" })).body.errors.assignment_id[0]).toBe("Assignment 99999999 does not exist");

    const created = await post({ ...fields, assignment_id: String(assignment.id) });
    expect(created.status).toBe(200);
    const request = await suite.db.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } });
    expect(created.body).toEqual({ error: false, message: null, request_id: request.request_id, po_number: request.po_number });
    expect(request).toMatchObject({
      vendor_id: vendor.id,
      vendor_name: vendor.name,
      order_increment_id: "700000001",
      qty: 2,
      country_id: "US",
      status: "pending",
      needs_processing: true,
      po_number: `PO700000001-${assignment.id}`,
    });
    expect(await suite.db.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({
      assign_status: 2,
      purchase_order: request.po_number,
    });

    const again = await post({ ...fields, assignment_id: String(assignment.id) });
    expect(again.status).toBe(422);
    expect(again.body.errors.assignment_id[0]).toBe(`Assignment ${assignment.id} already has a ship request: revise that one`);

    // And a shipment entered by hand for it, fulfilled at the next run.
    const shipment = new FormData();
    for (const [key, value] of Object.entries({
      po_number: request.po_number,
      item_sku: "HAND-1",
      qty: "2",
      tracking_number: "1Z999AA10123456784",
      tracking_carrier: "UPS",
    }))
      shipment.set(key, value);
    const shipped = await fetch(`${suite.app.url}/api/dropship_response`, { method: "POST", body: shipment });
    expect(shipped.status).toBe(200);
    const response = await suite.db.dropshipResponse.findFirstOrThrow({ where: { request_id: request.request_id } });
    expect(await shipped.json()).toEqual({ error: false, message: null, id: response.id });
    expect(response).toMatchObject({
      response_type: "856",
      status: "received",
      needs_processing: true,
      tracking_number: "1Z999AA10123456784",
      vendor_id: vendor.id,
    });
    expect((await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).status).toBe("shipped");
    const unknown = new FormData();
    for (const [key, value] of Object.entries({ po_number: "NO-SUCH-PO", item_sku: "X", qty: "1", tracking_number: "1Z", tracking_carrier: "UPS" }))
      unknown.set(key, value);
    const refused = await fetch(`${suite.app.url}/api/dropship_response`, { method: "POST", body: unknown });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.po_number[0]).toBe("No ship request has PO number NO-SUCH-PO");
  });
});

describe("drop-ship responses", () => {
  it("lists responses newest first and revises one for the next run", async () => {
    const list = await get("/api/dropship_response?response_type=856");
    expect(list.body.data.total).toBe(await suite.db.dropshipResponse.count({ where: { response_type: "856" } }));
    const response = await suite.db.dropshipResponse.findFirstOrThrow({ where: { status: "processed" } });
    const form = await get(`/api/dropship_response/${response.id}`);
    expect(form.body).toMatchObject({ id: response.id, tracking_number: response.tracking_number, po_number: response.po_number });
    const saved = await put(`/api/dropship_response/${response.id}`, {
      item_sku: response.item_sku ?? "SKU",
      qty: "1",
      tracking_number: "1Z999AA10123456784",
      tracking_carrier: "UPS",
    });
    expect(saved.status).toBe(200);
    expect(await suite.db.dropshipResponse.findUniqueOrThrow({ where: { id: response.id } })).toMatchObject({
      tracking_number: "1Z999AA10123456784",
      needs_processing: true,
      status: "received",
      processed_at: null,
    });
    const bad = await put(`/api/dropship_response/${response.id}`, { item_sku: "S", qty: "1", tracking_number: "", tracking_carrier: "" });
    expect(Object.keys(bad.body.errors).sort()).toEqual(["tracking_carrier", "tracking_number"]);
  });
});
