// The vendor API over real HTTP to the running app (local mode, own database):
// create, read, update, delete/archive, validation, and the password kept secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "S3cret-Pa55-vendor!";
const NEW_PASSWORD = "An0ther-Secret-Word";
let database: TestDatabase;
let app: RunningApp;
let db: ReturnType<typeof createPrismaClient>;

const validVendor = (overrides: Record<string, unknown> = {}) => ({
  name: "Acme Outdoor Supply",
  store_id: "DS01",
  enabled: 1,
  test_mode: 0,
  is_legacy: 0,
  transfer_mechanism_id: 1,
  sftp_host: "edi.acme.example.com",
  sftp_port: 22,
  sftp_user: "acme_ops",
  sftp_pass: PASSWORD,
  sftp_incoming_folder: "/outbound",
  sftp_outcoming_folder: "/inbound",
  edi_format: 1,
  edi_identifier: "ACMEEDI",
  edi_qualifier: "01",
  output_delimiter: "*",
  output_segmenter: "~",
  sort_files_by_file_contents: 0,
  is_archiving_files: 1,
  use_cost: 0,
  "997_enabled": 1,
  "846_enabled": 0,
  unwrap_846: 0,
  "810_enabled": 0,
  "850_segments": "REF*DP*{vendor_store_id}",
  ...overrides,
});

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  fetch(`${app.url}${path}`, {
    method: init?.method ?? (init?.body ? "POST" : "GET"),
    headers: init?.body !== undefined ? { "content-type": "application/json" } : {},
    body: init?.body !== undefined ? JSON.stringify(init.body) : undefined,
  });

beforeAll(async () => {
  database = await createTestDatabase("test");
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", APP_SECRET_KEY: Buffer.alloc(32, 3).toString("base64") });
  db = createPrismaClient(database.url);
}, 90_000);

afterAll(async () => {
  await db?.$disconnect();
  await app?.stop();
  await database?.dispose();
});

describe("vendor API", () => {
  let id: number;

  it("creates a vendor from JSON and answers it without the password", async () => {
    const response = await api("/api/dropship_vendor", { body: validVendor() });
    expect(response.status).toBe(200);
    const vendor = await response.json();
    id = vendor.id;
    expect(vendor).toMatchObject({ name: "Acme Outdoor Supply", store_id: "DS01", "997_enabled": 1, "850_segments": "REF*DP*{vendor_store_id}", sftp_pass_set: true });
    expect(vendor).not.toHaveProperty("sftp_pass");
    expect(JSON.stringify(vendor)).not.toContain(PASSWORD);
  });

  it("stores the password encrypted (AES-256-GCM), never in clear", async () => {
    const row = await db.vendor.findUniqueOrThrow({ where: { id } });
    expect(row.sftp_pass).toMatch(/^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(row.sftp_pass).not.toContain(PASSWORD);
    expect(Buffer.from(row.sftp_pass!.split(":")[3], "base64").toString("latin1")).not.toContain(PASSWORD);
  });

  it("never shows the password in any answer or page", async () => {
    for (const path of [`/api/dropship_vendor/${id}`, "/api/dropship_vendor", "/api/dropship_tools", `/dropship/vendor/edit?id=${id}`, "/dropship/vendor/"]) {
      const text = await (await api(path)).text();
      expect(text, path).not.toContain(PASSWORD);
      expect(text, path).not.toContain((await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass);
    }
  });

  it("keeps the stored password when saved empty, replaces it when a new one is given", async () => {
    const before = (await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass;
    const kept = await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor({ name: "Acme Outdoor" }), sftp_pass: "", _method: "PUT" } });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toMatchObject({ name: "Acme Outdoor", sftp_pass_set: true });
    expect((await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass).toBe(before);

    const replaced = await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor(), sftp_pass: NEW_PASSWORD, _method: "PUT" } });
    expect(replaced.status).toBe(200);
    const after = (await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_pass;
    expect(after).not.toBe(before);
    expect(after).not.toContain(NEW_PASSWORD);
  });

  it("clears a pinned host key when the host changes", async () => {
    await db.vendor.update({ where: { id }, data: { sftp_host_key: "SHA256:pinned" } });
    await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor(), sftp_pass: "", _method: "PUT" } });
    expect((await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBe("SHA256:pinned");
    await api(`/api/dropship_vendor/${id}`, { body: { ...validVendor({ sftp_host: "sftp2.acme.example.com" }), sftp_pass: "", _method: "PUT" } });
    expect((await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key).toBeNull();
  });

  it("answers 422 with every bad field, first message readable", async () => {
    const response = await api("/api/dropship_vendor", {
      body: validVendor({
        name: "",
        enabled: "maybe",
        transfer_mechanism_id: 4,
        sftp_port: 70000,
        sftp_host: "bad host!",
        sftp_incoming_folder: "../../etc",
        input_delimiter: "ab",
        output_segmenter: "A",
        regex_format: "([",
        "856_file_contents_regex": "*x",
        "850_segments": "GS*PO*X\nREF*DP*{nope}",
        edi_qualifier: "TOOLONG",
        "850_format": "4010",
      }),
    });
    expect(response.status).toBe(422);
    const { errors } = (await response.json()) as { errors: Record<string, string[]> };
    expect(Object.keys(errors).sort()).toEqual(
      ["850_format", "850_segments", "856_file_contents_regex", "edi_qualifier", "enabled", "input_delimiter", "name", "output_segmenter", "regex_format", "sftp_host", "sftp_incoming_folder", "sftp_port", "transfer_mechanism_id"].sort(),
    );
    expect(errors.name[0]).toBe("Name is required");
    expect(errors.sftp_port[0]).toBe("Port must be a port number from 1 to 65535");
    expect(errors.transfer_mechanism_id[0]).toBe("Transfer Mechanism must be 1 (SFTP), 2 (FTP) or 3 (Passive FTP)");
    expect(errors["850_segments"]).toEqual([expect.stringContaining("GS is written by the envelope"), expect.stringContaining("unknown placeholder {nope}")]);
    expect(errors.regex_format[0]).toContain("is not a valid regular expression");
    expect(await db.vendor.count({ where: { name: "" } })).toBe(0);
  });

  it("answers bad requests with clear errors, not 500s", async () => {
    const notJson = await fetch(`${app.url}/api/dropship_vendor`, { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(422);
    expect((await api("/api/dropship_vendor/999999")).status).toBe(404);
    expect((await api("/api/dropship_vendor/abc")).status).toBe(404);
    expect((await api("/api/dropship_vendor?sort=nope")).status).toBe(422);
  });

  it("lists vendors with filters and the spec's flat answer", async () => {
    await api("/api/dropship_vendor", { body: validVendor({ name: "Brightline Footwear", store_id: "DS02", test_mode: 1, test_identifier: "BRIGHTTEST", test_qualifier: "ZZ" }) });
    await api("/api/dropship_vendor", { body: validVendor({ name: "Cascade Apparel", store_id: "DS03", enabled: 0 }) });
    const all = await (await api("/api/dropship_vendor")).json();
    expect(all).toMatchObject({ total: 3, last_page: 1, current_page: 1 });
    expect(all.data.map((v: { id: number }) => v.id)).toEqual([...all.data.map((v: { id: number }) => v.id)].sort((a: number, b: number) => a - b));
    expect((await (await api("/api/dropship_vendor?enabled=0")).json()).data.map((v: { name: string }) => v.name)).toEqual(["Cascade Apparel"]);
    expect((await (await api("/api/dropship_vendor?test_mode=1")).json()).data.map((v: { name: string }) => v.name)).toEqual(["Brightline Footwear"]);
    expect((await (await api("/api/dropship_vendor?name=bright")).json()).total).toBe(1);
    expect((await (await api("/api/dropship_vendor?query_value=cascade")).json()).total).toBe(1);
    expect((await (await api("/api/dropship_vendor?enabled=2")).json()).errors.enabled[0]).toContain("is not one of");
  });

  it("refuses to delete a vendor with open requests, archives one with history, deletes one without", async () => {
    const withOpen = (await (await api("/api/dropship_vendor", { body: validVendor({ name: "Open Requests Co", store_id: "DS04" }) })).json()).id;
    const withHistory = (await (await api("/api/dropship_vendor", { body: validVendor({ name: "History Co", store_id: "DS05" }) })).json()).id;
    const order = await db.order.create({ data: { order_id: "100000001", items: { create: { sku: "SKU-1", name: "Thing", qty_ordered: 1 } } }, include: { items: true } });
    // One assignment per request (a request carries its assignment's PO).
    const assignmentFor = (storeId: string) => db.assignment.create({ data: { order_increment_id: "100000001", item_id: order.items[0].item_id, product_sku: "SKU-1", qty_assigned: 1, store_id: storeId } });
    const request = async (vendorId: number, status: string) => ({
      vendor_id: vendorId, vendor_name: "x", assignment_id: (await assignmentFor(vendorId === withOpen ? "DS04" : "DS05")).id, po_number: `PO-${vendorId}`, order_increment_id: "100000001", item_sku: "SKU-1", qty: 1,
      ship_name_first: "Jane", ship_name_last: "Doe", ship_address: "1 Main St", ship_city: "Chicago", ship_state: "IL", ship_zip: "60601", country_id: "US", status,
    });
    await db.dropshipRequest.create({ data: await request(withOpen, "sent") });
    await db.dropshipRequest.create({ data: await request(withHistory, "completed") });

    const refused = await api(`/api/dropship_vendor/${withOpen}`, { method: "DELETE", body: {} });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors.vendor[0]).toBe("Open Requests Co has 1 open drop-ship requests: complete or revise them before deleting the vendor");

    const archived = await api(`/api/dropship_vendor/${withHistory}`, { method: "DELETE", body: {} });
    expect(await archived.json()).toEqual({ error: false, deleted: false, archived: true });
    expect((await db.dropshipRequest.count({ where: { vendor_id: withHistory } }))).toBe(1); // nothing lost
    expect((await (await api("/api/dropship_vendor?name=History")).json()).total).toBe(0);
    expect((await (await api("/api/dropship_tools")).json()).map((v: { name: string }) => v.name)).not.toContain("History Co");

    const deleted = await api(`/api/dropship_vendor/${id}`, { method: "DELETE", body: {} });
    expect(await deleted.json()).toEqual({ error: false, deleted: true, archived: false });
    expect((await api(`/api/dropship_vendor/${id}`)).status).toBe(404);
  });

  it("lists the Tools page's vendors as id and name", async () => {
    const tools = await (await api("/api/dropship_tools")).json();
    expect(tools.length).toBeGreaterThan(0);
    for (const vendor of tools) expect(Object.keys(vendor).sort()).toEqual(["id", "name"]);
  });

  it("never wrote the password to the server's output", () => {
    expect(app.output()).not.toContain(PASSWORD);
    expect(app.output()).not.toContain(NEW_PASSWORD);
  });
});
