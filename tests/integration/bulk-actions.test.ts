// Bulk work on the grids (issue 32 item 3, D270–D273) over real HTTP on the
// demo data: each POST /api/<grid>/bulk runs the single action's rules per row
// (some rows done, some refused with the single action's reason), answers the
// counts and a result per row, records each row as staff activity, and answers
// a bad body 422 with field messages in the request's language.
import { describe, expect, it } from "vitest";
import { useAppWithDatabase } from "../support/app-with-database";

const suite = useAppWithDatabase("bulk", { SEED_DEMO_DATA: "1" });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${suite.app.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
};
const resultOf = (body: Json, id: number) => body.results.find((row: Json) => row.id === id);
// What this file's requests recorded: not the demo seed's older rows (prisma/seed/staff-activity.ts).
const since = new Date(Date.now() - 60_000);
const activity = (action: string) => suite.db.staffActivity.findMany({ where: { action, created_at: { gte: since } }, orderBy: { id: "asc" } });

describe("bulk on drop-ship requests", () => {
  it("Resend sends rejected and backordered requests again and refuses the others, each with its reason", async () => {
    const [rejected, backordered, shipped] = await suite.db.dropshipRequest.findMany({ orderBy: { request_id: "asc" }, take: 3 });
    await suite.db.dropshipRequest.update({ where: { request_id: rejected.request_id }, data: { status: "rejected", needs_processing: false } });
    await suite.db.dropshipRequest.update({ where: { request_id: backordered.request_id }, data: { status: "backordered", needs_processing: false } });
    await suite.db.dropshipRequest.update({ where: { request_id: shipped.request_id }, data: { status: "shipped" } });

    const { status, body } = await post("/api/dropship_request/bulk", {
      action: "resend",
      ids: [rejected.request_id, backordered.request_id, shipped.request_id, 987654],
    });
    expect(status).toBe(200);
    expect(body.counts).toEqual({ done: 2, refused: 2, failed: 0 });
    expect(body.message).toBe("Done: 2, refused: 2, failed: 0");
    expect(resultOf(body, rejected.request_id)).toMatchObject({
      outcome: "done",
      message: `PO ${rejected.po_number} is pending again and is sent at the next run.`,
    });
    expect(resultOf(body, shipped.request_id)).toMatchObject({
      outcome: "refused",
      message: `PO ${shipped.po_number} is Shipped: only rejected or backordered requests are sent again.`,
    });
    expect(resultOf(body, 987654)).toMatchObject({ outcome: "refused", message: "Drop-ship request 987654 does not exist" });
    for (const id of [rejected.request_id, backordered.request_id])
      expect(await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: id } })).toMatchObject({ status: "pending", needs_processing: true });
    expect(await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: shipped.request_id } })).toMatchObject({ status: "shipped" });

    const recorded = await activity("dropship_request.resend");
    expect(recorded.map((row) => [row.record_id, row.outcome, row.staff])).toEqual([
      [String(rejected.request_id), "done", "local"],
      [String(backordered.request_id), "done", "local"],
      [String(shipped.request_id), "refused", "local"],
      ["987654", "refused", "local"],
    ]);
    expect(recorded[0]).toMatchObject({ record_type: "dropship_request", order_increment_id: rejected.order_increment_id });
  });

  it("Cancel at vendor asks the vendor that has the PO, and refuses a rejected one with Send Cancellation's words", async () => {
    const sent = await suite.db.dropshipRequest.findFirstOrThrow({
      where: { status: "sent", assignment: { assign_status: { in: [2, 3] } } },
      orderBy: { request_id: "desc" },
    });
    const rejected = await suite.db.dropshipRequest.findFirstOrThrow({ where: { request_id: { not: sent.request_id } }, orderBy: { request_id: "desc" } });
    await suite.db.dropshipRequest.update({ where: { request_id: rejected.request_id }, data: { status: "rejected" } });

    const { status, body } = await post("/api/dropship_request/bulk", { action: "cancel", ids: [sent.request_id, rejected.request_id] });
    expect(status).toBe(200);
    expect(body.counts).toEqual({ done: 1, refused: 1, failed: 0 });
    expect(resultOf(body, sent.request_id)).toMatchObject({
      outcome: "done",
      message: `${sent.vendor_name} is asked to cancel PO ${sent.po_number} with the next Send Ship Requests.`,
    });
    expect(resultOf(body, rejected.request_id)).toMatchObject({
      outcome: "refused",
      message: `${rejected.vendor_name} rejected PO ${rejected.po_number}: there is nothing to cancel.`,
    });
    expect(await suite.db.dropshipCancellation.count({ where: { request_id: sent.request_id, status: "pending", cause: "tools" } })).toBe(1);
    expect(await suite.db.dropshipRequest.findUniqueOrThrow({ where: { request_id: sent.request_id } })).toMatchObject({ status: "cancel_requested" });
    expect((await activity("dropship_request.cancel")).map((row) => row.outcome)).toEqual(["done", "refused"]);
  });

  it("answers a bad body 422 with field messages in German, and at most 300 rows", async () => {
    const wrong = await post("/api/dropship_request/bulk?locale=de", { action: "explode", ids: [] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({
      action: ["Wählen Sie eines von: resend, cancel."],
      ids: ["Wählen Sie mindestens eine Zeile (nur Zeilennummern)."],
    });
    const many = await post("/api/dropship_request/bulk?locale=de", { action: "resend", ids: Array.from({ length: 301 }, (_, index) => index + 1) });
    expect(many.status).toBe(422);
    expect(many.body.errors).toEqual({ ids: ["Höchstens 300 Zeilen auf einmal."] });
    const english = await post("/api/dropship_request/bulk", { action: "resend", ids: ["x"] });
    expect(english.status).toBe(422);
    expect(english.body.errors["ids.0"]).toEqual(["Choose at least one row (row numbers only)."]);
    expect((await fetch(`${suite.app.url}/api/dropship_request/bulk`)).status).toBe(405);
  });
});

describe("bulk on assignments", () => {
  it("Delete deletes Pending ones and refuses a Complete one with the single delete's reason", async () => {
    const [pending, complete] = await suite.db.assignment.findMany({
      where: { assign_status: 1, dnh: { none: {} }, requests: { none: {} } },
      orderBy: { id: "asc" },
      take: 2,
    });
    await suite.db.assignment.update({ where: { id: complete.id }, data: { assign_status: 4 } });
    const { status, body } = await post("/api/assignment/bulk", { action: "delete", ids: [pending.id, complete.id] });
    expect(status).toBe(200);
    expect(body.counts).toEqual({ done: 1, refused: 1, failed: 0 });
    expect(resultOf(body, pending.id).message).toBe(`Assignment ${pending.id} deleted: ${pending.qty_assigned} x ${pending.product_sku} is unassigned again.`);
    expect(resultOf(body, complete.id)).toMatchObject({ outcome: "refused" });
    expect(resultOf(body, complete.id).message).toContain(String(complete.id));
    expect(await suite.db.assignment.findUnique({ where: { id: pending.id } })).toBeNull();
    const recorded = await activity("assignment.delete");
    expect(recorded.map((row) => [row.record_id, row.outcome, row.order_increment_id])).toEqual([
      [String(pending.id), "done", pending.order_increment_id],
      [String(complete.id), "refused", complete.order_increment_id],
    ]);
  });

  it("Reassign needs the store chosen (422 in German) and refuses a row already at that store", async () => {
    const assignment = await suite.db.assignment.findFirstOrThrow({ where: { assign_status: 1, dnh: { none: {} } }, orderBy: { id: "desc" } });
    const missing = await post("/api/assignment/bulk?locale=de", { action: "reassign", ids: [assignment.id] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ store_id: ["Wählen Sie die Filiale oder den Dropshipper für die Neuzuweisung."] });
    const same = await post("/api/assignment/bulk", { action: "reassign", ids: [assignment.id], store_id: assignment.store_id });
    expect(same.status).toBe(200);
    expect(same.body.counts).toEqual({ done: 0, refused: 1, failed: 0 });
    expect(same.body.error).toBe(true);
    expect(resultOf(same.body, assignment.id).message).toContain(String(assignment.id));
  });
});

describe("bulk on feeds and Needs attention", () => {
  it("Run starts each feed in the background and refuses one this build cannot run", async () => {
    const runnable = await suite.db.feed.upsert({
      where: { name: "vendor_scorecards" },
      create: { name: "vendor_scorecards", cron_expression: "15 * * * *" },
      update: {},
    });
    const orphan = await suite.db.feed.create({ data: { name: "bulk_test_no_job", cron_expression: "0 0 * * *" } });
    const { status, body } = await post("/api/feed/bulk", { action: "run", ids: [runnable.id, orphan.id] });
    expect(status).toBe(200);
    expect(body.counts).toEqual({ done: 1, refused: 1, failed: 0 });
    expect(resultOf(body, runnable.id).message).toBe("vendor_scorecards started.");
    expect(resultOf(body, orphan.id).outcome).toBe("refused");
    expect(await suite.db.backgroundRun.count({ where: { kind: "feed", action: "vendor_scorecards" } })).toBeGreaterThanOrEqual(1);
    expect((await activity("feed.run")).map((row) => [row.record_id, row.outcome])).toEqual([
      [String(runnable.id), "done"],
      [String(orphan.id), "refused"],
    ]);
  });

  it("Dismiss takes every open item out with one note; the note is asked first (422 in German)", async () => {
    const item = (subject: string, resolved = false) =>
      suite.db.attentionItem.create({
        data: {
          kind: "feed_failed",
          subject,
          reason: "The feed failed",
          reason_code: { text: "The feed failed" },
          link: "/feed",
          since: new Date(),
          resolved_at: resolved ? new Date() : null,
        },
      });
    const open = await item("bulk-open");
    const resolved = await item("bulk-resolved", true);
    const noNote = await post("/api/attention/bulk?locale=de", { action: "dismiss", ids: [open.id] });
    expect(noNote.status).toBe(422);
    expect(Object.keys(noNote.body.errors)).toEqual(["note"]);
    expect(noNote.body.errors.note[0]).not.toMatch(/note/i);

    const { status, body } = await post("/api/attention/bulk", { action: "dismiss", ids: [open.id, resolved.id], note: "Handled by phone" });
    expect(status).toBe(200);
    expect(body.counts).toEqual({ done: 1, refused: 1, failed: 0 });
    expect(await suite.db.attentionItem.findUniqueOrThrow({ where: { id: open.id } })).toMatchObject({
      dismiss_note: "Handled by phone",
      dismissed_by: "local",
    });
    expect((await activity("attention.dismiss")).map((row) => row.outcome)).toEqual(["done", "refused"]);
  });
});
