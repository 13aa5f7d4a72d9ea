// Who did what (issue 32 item 5), over real HTTP to the built app in local mode
// on the demo data: a save, a delete, a run, a 422 and a dismiss each leave one
// staff_activity row with who, the action, the record, its order and the
// outcome; a password never reaches it; the Staff Activity grid filters by
// person, action and record; and a recording that fails does not fail the action.
import { beforeAll, describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const EOD_TOKEN = "eod-token-for-staff-activity-0123456789";
const suite = useAppWithDatabase("staffact", { SEED_DEMO_DATA: "1", APP_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"), EOD_API_TOKEN: EOD_TOKEN });
const DAY = 24 * 3600 * 1000;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(path: string, init: { method?: string; json?: unknown; form?: Record<string, string> } = {}) {
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form ? new URLSearchParams(init.form) : undefined;
  const headers: Record<string, string> = init.json !== undefined ? { "content-type": "application/json" } : {};
  const response = await fetch(`${suite.app.url}${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  return { status: response.status, body: (await response.json()) as Json };
}

/** The newest row of the action. */
const lastOf = (action: string) => suite.db.staffActivity.findFirstOrThrow({ where: { action }, orderBy: { id: "desc" } });
const count = () => suite.db.staffActivity.count();

describe("staff activity", () => {
  beforeAll(async () => {
    // Before any action: one row past the 400 days kept, one within them.
    await suite.db.staffActivity.createMany({
      data: [
        { staff: "local", action: "store.save", outcome: "done", created_at: new Date(Date.now() - 401 * DAY) },
        { staff: "local", action: "store.save", outcome: "done", created_at: new Date(Date.now() - 399 * DAY) },
      ],
    });
  });

  it("a save: who, the action, the record and done", async () => {
    const feed = await suite.db.feed.findFirstOrThrow({ where: { name: "clear_completed_ship_requests" } });
    const saved = await call(`/api/feed/${feed.id}`, { form: { _method: "PUT", cron_expression: "5 3 * * *", enabled: "1" } });
    expect(saved.status).toBe(200);
    expect(await lastOf("feed.save")).toMatchObject({
      staff: "local",
      record_type: "feed",
      record_id: String(feed.id),
      order_increment_id: null,
      outcome: "done",
      detail: { cron_expression: "5 3 * * *", enabled: "1" },
    });
  });

  it("keeps 400 days: the first recording deleted the older row", async () => {
    const kept = await suite.db.staffActivity.findMany({ where: { action: "store.save" } });
    expect(kept.map((row) => Math.round((Date.now() - row.created_at.getTime()) / DAY))).toEqual([399]);
  });

  it("a 422: refused, with the fields refused (not what was typed)", async () => {
    const feed = await suite.db.feed.findFirstOrThrow({ where: { name: "clear_completed_ship_requests" } });
    const before = await count();
    const refused = await call(`/api/feed/${feed.id}`, { form: { _method: "PUT", cron_expression: "every tuesday" } });
    expect(refused.status).toBe(422);
    expect(await count()).toBe(before + 1);
    const row = await lastOf("feed.save");
    expect(row).toMatchObject({ staff: "local", record_type: "feed", record_id: String(feed.id), outcome: "refused" });
    expect(row.detail).toMatchObject({ fields: ["cron_expression"], status: 422 });
  });

  it("a delete of an assignment: its order kept with it, though the row is gone", async () => {
    const assignment = await suite.db.assignment.findFirstOrThrow({ where: { assign_status: 1, requests: { none: {} } }, orderBy: { id: "asc" } });
    const deleted = await call(`/api/assignment/${assignment.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await lastOf("assignment.delete")).toMatchObject({
      staff: "local",
      record_type: "assignment",
      record_id: String(assignment.id),
      order_increment_id: assignment.order_increment_id,
      outcome: "done",
    });
    // A second delete of the same assignment is not possible: failed (404), still with who and what.
    const again = await call(`/api/assignment/${assignment.id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await lastOf("assignment.delete")).toMatchObject({ record_id: String(assignment.id), outcome: "failed", detail: { status: 404 } });
  });

  it("a reassign refused: the assignment and its order, refused for store_id", async () => {
    const assignment = await suite.db.assignment.findFirstOrThrow({ where: { assign_status: 1 }, orderBy: { id: "asc" } });
    const refused = await call(`/api/reassignment/${assignment.id}`, { form: { _method: "PUT", store_id: assignment.store_id } });
    expect(refused.status).toBe(422);
    const row = await lastOf("assignment.reassign");
    expect(row).toMatchObject({
      staff: "local",
      record_type: "assignment",
      record_id: String(assignment.id),
      order_increment_id: assignment.order_increment_id,
      outcome: "refused",
    });
    expect(row.detail).toMatchObject({ store_id: assignment.store_id, fields: ["store_id"] });
  });

  it("a run: Run Feed recorded with its feed and run", async () => {
    const started = await call("/api/feed_run?feed_name=clear_completed_ship_requests", { method: "POST" });
    expect(started.status).toBe(202);
    expect(await lastOf("feed.run")).toMatchObject({
      staff: "local",
      record_type: "feed",
      record_id: "clear_completed_ship_requests",
      outcome: "done",
      detail: { run_id: started.body.run_id },
    });
  });

  it("a dismiss of a Needs attention item: with the staff member's note", async () => {
    const item = await suite.db.attentionItem.create({
      data: {
        kind: "late_997",
        subject: "PO-TEST-1",
        reason: "No 997 yet",
        reason_code: { code: "attention.reasons.late_997", params: {} },
        link: "/dropship/requests",
        since: new Date(),
      },
    });
    const dismissed = await call(`/api/attention/${item.id}`, { json: { note: "Called them: ships Monday" } });
    expect(dismissed.status).toBe(200);
    expect(await lastOf("attention.dismiss")).toMatchObject({
      staff: "local",
      record_type: "attention_item",
      record_id: String(item.id),
      outcome: "done",
      detail: { note: "Called them: ships Monday" },
    });
  });

  it("a vendor saved with a password: the password is nowhere in the record", async () => {
    const password = "Sup3r-Secret-Staff-Act!";
    const created = await call("/api/dropship_vendor", {
      json: {
        name: "Activity Outdoor",
        store_id: "DS77",
        enabled: 1,
        test_mode: 0,
        is_legacy: 0,
        transfer_mechanism_id: 1,
        sftp_host: "edi.activity.example.com",
        sftp_port: 22,
        sftp_user: "ops",
        sftp_pass: password,
        sftp_incoming_folder: "/out",
        sftp_outcoming_folder: "/in",
        edi_format: 1,
        edi_identifier: "ACTEDI",
        edi_qualifier: "01",
        output_delimiter: "*",
        output_segmenter: "~",
        ...VENDOR_DOCUMENT_FLAGS,
      },
    });
    expect(created.status).toBe(200);
    const row = await lastOf("dropship_vendor.create");
    expect(row).toMatchObject({ staff: "local", record_type: "dropship_vendor", record_id: String(created.body.id), outcome: "done" });
    expect(row.detail).toEqual({ name: "Activity Outdoor" });
    const everything = JSON.stringify(await suite.db.staffActivity.findMany());
    expect(everything).not.toContain(password);
  });

  it("an EOD run by the token's caller: recorded as it, never its token; a wrong token too", async () => {
    const refused = await call("/api/eod_report_run/not-the-token", { method: "POST" });
    expect(refused.status).toBe(403);
    expect(await lastOf("eod.run")).toMatchObject({ staff: "eod-api-token", outcome: "failed", detail: { status: 403 } });
    const ran = await call(`/api/eod_report_run/${EOD_TOKEN}?sales_date=2026-11-01&days=1`, { method: "POST" });
    expect(ran.status).toBe(200);
    expect(await lastOf("eod.run")).toMatchObject({ staff: "eod-api-token", outcome: "done", detail: { sales_date: "2026-11-01", days: "1" } });
    expect(JSON.stringify(await suite.db.staffActivity.findMany({ where: { action: "eod.run" } }))).not.toContain(EOD_TOKEN);
  });

  it("the Staff Activity grid: newest first, filtered by person, action and record", async () => {
    const all = await call("/api/staff_activity");
    expect(all.status).toBe(200);
    expect(all.body.columns.map((column: Json) => column.label)).toEqual(["When", "Who", "Action", "Record", "Record ID", "Order", "Outcome", "Detail"]);
    const when = all.body.data.data.map((row: Json) => row.created_at);
    expect(when).toEqual([...when].sort().reverse());
    const action = all.body.columns.find((column: Json) => column.key === "action");
    expect(action.options["attention.dismiss"]).toBe("Attention item dismissed");

    const runs = await call("/api/staff_activity?action=feed.run");
    expect(runs.body.data.data.length).toBeGreaterThan(0);
    expect(runs.body.data.data.every((row: Json) => row.action === "feed.run" && row.staff === "local")).toBe(true);
    expect(runs.body.data.data[0].detail).toMatch(/^run_id: \d+$/);

    // The seed's Shopify staff member's rows, none of local mode's.
    const byPerson = await call("/api/staff_activity?staff=shopify-user");
    expect(byPerson.body.data.total).toBe(await suite.db.staffActivity.count({ where: { staff: { startsWith: "shopify-user" } } }));
    expect(byPerson.body.data.data.every((row: Json) => String(row.staff).startsWith("shopify-user:"))).toBe(true);
    const byRecord = await call("/api/staff_activity?record_type=feed&record_id=clear_completed");
    expect(byRecord.body.data.data.map((row: Json) => row.action)).toEqual(["feed.run"]);

    const german = await call("/api/staff_activity?locale=de");
    expect(german.body.columns.map((column: Json) => column.label)).toContain("Wer");
    expect(await call("/api/staff_activity?action=no.such")).toMatchObject({ status: 422 });
  });

  it("a recording that fails does not fail the staff member's action", async () => {
    const feed = await suite.db.feed.findFirstOrThrow({ where: { name: "clear_completed_ship_requests" } });
    const before = await count();
    // The table refuses every new row (existing ones are not checked).
    await suite.db.$executeRawUnsafe("ALTER TABLE staff_activity ADD CONSTRAINT t_refuse_all CHECK (false) NOT VALID");
    try {
      const saved = await call(`/api/feed/${feed.id}`, { form: { _method: "PUT", cron_expression: "7 3 * * *", enabled: "1" } });
      expect(saved.status).toBe(200);
      expect((await suite.db.feed.findUniqueOrThrow({ where: { id: feed.id } })).cron_expression).toBe("7 3 * * *");
    } finally {
      await suite.db.$executeRawUnsafe("ALTER TABLE staff_activity DROP CONSTRAINT t_refuse_all");
    }
    expect(await count()).toBe(before);
    expect(suite.app.output()).toContain("feed.save by local was not recorded");
  });
});
