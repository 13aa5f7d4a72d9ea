// Needs attention (issue 30), against the real database, a loopback SFTP vendor,
// a loopback SMTP server and a loopback HTTP receiver: every kind of item is
// produced from the state that causes it and leaves the queue when the cause is
// gone; a vendor that stops answering reaches a person by e-mail and webhook in
// one run of the needs_attention feed; alerts are stored before they are sent,
// sent once, retried, in the recipient's language; the digest goes once a day.
// The clock is injected: "hours later" is a `now` given to the sweep.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { deliverAlerts, queueDigest } from "../../app/attention/alerts.server";
import { needsAttentionJob } from "../../app/attention/feed.server";
import { dismissAttentionItem, listAttention, openAttentionCount } from "../../app/attention/queue.server";
import { sweepAttention } from "../../app/attention/sweep.server";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import { reloadEnv } from "../../app/env.server";
import { closeFeedPool, runFeed } from "../../app/feeds/runner.server";
import { ValidationError } from "../../app/lib/validation.server";
import { DEFAULT_SETTINGS, getSettings, saveSettings, settingsForScreen, type Settings } from "../../app/settings/settings.server";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { startMailServer, type MailTestServer } from "../support/mail-server";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Attention-Pa55";
const HOUR = 3_600_000;
let root: string;
let sftp: SftpTestServer;
let mail: MailTestServer;
let receiver: Server;
let webhookUrl: string;
let posts: Array<Record<string, unknown>> = [];
let webhookStatus = 200;

async function configure(alerts: Partial<Settings["alerts"]>, levels: Partial<Settings["service_levels"]> = {}) {
  return saveSettings(
    { service_levels: { ...DEFAULT_SETTINGS.service_levels, ...levels }, alerts: { ...DEFAULT_SETTINGS.alerts, digest_time: "", ...alerts } },
    "test",
  );
}

const openItems = async () =>
  (await prisma.attentionItem.findMany({ where: { resolved_at: null }, orderBy: { id: "asc" } })).map((item) => ({ kind: item.kind, subject: item.subject }));

let nextOrder = 0;
async function sentRequest(vendor: Vendor, sku = "SKU-ATT-1", qty = 2) {
  nextOrder++;
  const assignment = await createPendingAssignment(prisma, {
    orderId: `93000${nextOrder}`,
    shopifyOrderId: String(9300000 + nextOrder),
    sku,
    qty,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
  await populateShipRequests();
  await sendShipRequests();
  return prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } });
}

/** The vendor's answers to our 850 (997 and 855 at once, 856 and 810 later): only those `wanted`, dropped in its folder and read. */
async function vendorAnswers(vendor: Vendor, wanted: RegExp) {
  const ours = await prisma.transmission.findFirstOrThrow({
    where: { direction: "out", transaction_set: "850", vendor_id: vendor.id },
    orderBy: { id: "desc" },
  });
  const answers = answerPurchaseOrderFile(vendor as never, ours.file_name, Buffer.from(ours.content), {
    now: new Date(),
    controlNumberStart: 500 + nextOrder * 10,
    random: () => 0.5,
  });
  if ("error" in answers) throw new Error(answers.error);
  for (const file of [...answers.immediate, ...answers.later].filter((one) => wanted.test(one.name)))
    writeFileSync(path.join(root, vendor.store_id.toLowerCase(), "outbound", file.name), file.content);
  await populateShipResponses();
  await processShipResponses();
}

const x12Vendor = (storeId: string, overrides = {}) =>
  createLoopbackVendor({ root, port: sftp.port, password: PASSWORD }, storeId, {
    edi_format: 1,
    edi_identifier: `${storeId}EDI`,
    edi_qualifier: "ZZ",
    regex_format: "\\.(edi|csv)$",
    edi997_enabled: 1,
    ...overrides,
  });

beforeAll(async () => {
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 30).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "needs-attention-"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  process.env.SMTP_FROM = "Ops alerts <alerts@example.com>";
  reloadEnv();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (webhookStatus === 200) posts.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>);
      response.writeHead(webhookStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/ops`;
}, 60_000);

afterAll(async () => {
  delete process.env.SMTP_URL;
  reloadEnv();
  await closeFeedPool();
  await new Promise((resolve) => receiver?.close(resolve));
  await mail?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE attention_alert, attention_item, app_setting, partner_contact, dropship_invoice_check, dropship_cancellation, dropship_response,
      dropship_request, dropship_log, transmission, x12_group_ack, dnh_transfer, assignment, order_item, order_grid, dropship_vendor,
      inventory_source_item, inventory_source, incoming_file_sighting, feed_log, feed, special_order_error, special_order RESTART IDENTITY CASCADE`,
  );
  for (const name of readdirSync(root)) rmSync(path.join(root, name), { recursive: true, force: true });
  mail.received.length = 0;
  mail.refuseNext(0);
  posts = [];
  webhookStatus = 200;
});

describe("a vendor that stops answering", () => {
  it("shows up, and reaches the recipient by e-mail and the webhook, in one run of the needs_attention feed", async () => {
    await configure({ recipients: [{ email: "ops@example.com", language: "en" }], webhook_url: webhookUrl, webhook_language: "en" });
    const vendor = await x12Vendor("DS91");
    const request = await sentRequest(vendor);
    // Five hours pass without its 997 (the default allows 4).
    await prisma.dropshipRequest.update({ where: { request_id: request.request_id }, data: { sent_at: new Date(Date.now() - 5 * HOUR) } });

    const result = await runFeed("needs_attention", needsAttentionJob);
    expect(result.status).toBe("finished");

    const page = await listAttention(new URLSearchParams());
    expect(page.data.total).toBe(1);
    expect(page.data.data[0]).toMatchObject({ kind: "late_997", vendor_name: "Vendor DS91" });
    expect(await openAttentionCount()).toBe(1);
    expect(mail.received).toHaveLength(1);
    expect(mail.received[0]!.to).toEqual(["ops@example.com"]);
    expect(mail.received[0]!.subject).toBe(
      `Needs attention: Vendor DS91 has not sent a 997 for PO ${request.po_number} (2 × SKU-ATT-1) within 4 hours of our 850.`,
    );
    expect(mail.received[0]!.text).toContain(`/dropship/requests/revise?id=${request.request_id}&locale=en`);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain(`PO ${request.po_number}`);
    expect(posts[0]).toMatchObject({ kind: "item", items: [expect.objectContaining({ kind: "late_997" })] });

    // The next run sends nothing again: one alert per item.
    await runFeed("needs_attention", needsAttentionJob);
    expect(mail.received).toHaveLength(1);
    expect(posts).toHaveLength(1);
  });

  it("is late for its 997, then its 855, then its 856, each leaving the queue when the answer comes", async () => {
    await configure({});
    const vendor = await x12Vendor("DS92");
    const request = await sentRequest(vendor);
    const sent = request.sent_at!.getTime();

    await sweepAttention(new Date(sent + 3 * HOUR));
    expect(await openItems()).toEqual([]);
    await sweepAttention(new Date(sent + 5 * HOUR));
    expect(await openItems()).toEqual([{ kind: "late_997", subject: `request:${request.request_id}` }]);
    const item = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "late_997" } });
    expect(item.since).toEqual(new Date(sent + 4 * HOUR));

    await vendorAnswers(vendor, /^997/);
    const swept = await sweepAttention(new Date(sent + 5 * HOUR));
    expect(swept).toMatchObject({ resolved: 1, open: 0 });
    expect(await openItems()).toEqual([]);

    await sweepAttention(new Date(sent + 25 * HOUR));
    expect(await openItems()).toEqual([{ kind: "late_855", subject: `request:${request.request_id}` }]);
    await vendorAnswers(vendor, /^855/);
    await sweepAttention(new Date(sent + 25 * HOUR));
    expect(await openItems()).toEqual([]);

    await sweepAttention(new Date(sent + 73 * HOUR));
    expect(await openItems()).toEqual([{ kind: "late_856", subject: `request:${request.request_id}` }]);
    await vendorAnswers(vendor, /^856/);
    await sweepAttention(new Date(sent + 73 * HOUR));
    expect(await openItems()).toEqual([]);
  });

  it("follows the vendor's own service levels over the defaults", async () => {
    await configure({});
    const vendor = await x12Vendor("DS93", { edi997_enabled: 0, sla_855_hours: 2 });
    const request = await sentRequest(vendor);
    await sweepAttention(new Date(request.sent_at!.getTime() + 3 * HOUR));
    expect(await openItems()).toEqual([{ kind: "late_855", subject: `request:${request.request_id}` }]);
  });

  it("a vendor's server down on its last 3 connections is unreachable, and reachable again once a connection succeeds", async () => {
    await configure({});
    const vendor = await x12Vendor("DS94", { sftp_port: 1 });
    for (let run = 0; run < 2; run++) await populateShipResponses();
    await sweepAttention();
    expect(await openItems()).toEqual([]);
    await populateShipResponses();
    await sweepAttention();
    expect(await openItems()).toEqual([{ kind: "partner_unreachable", subject: `vendor:${vendor.id}` }]);
    const item = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "partner_unreachable" } });
    expect(item.reason).toMatch(/^Vendor DS94 could not be reached on the last 3 connections: /);

    await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_port: sftp.port } });
    await populateShipResponses();
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });
});

describe("every kind leaves the queue when its cause is gone", () => {
  it("rejected and backordered lines, and a refused cancellation", async () => {
    await configure({});
    const vendor = await x12Vendor("DS95");
    const rejected = await sentRequest(vendor, "SKU-R");
    const backordered = await sentRequest(vendor, "SKU-B");
    await prisma.dropshipRequest.update({
      where: { request_id: rejected.request_id },
      data: { status: "rejected", vendor_codes: ["IR"], vendor_note: "discontinued" },
    });
    await prisma.dropshipRequest.update({
      where: { request_id: backordered.request_id },
      data: { status: "backordered", vendor_codes: ["IB"], vendor_expected_date: new Date("2026-12-15") },
    });
    await sweepAttention();
    expect(await openItems()).toEqual(
      expect.arrayContaining([
        { kind: "rejected_line", subject: `request:${rejected.request_id}` },
        { kind: "backordered_line", subject: `request:${backordered.request_id}` },
      ]),
    );
    const rejectedItem = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "rejected_line" } });
    expect(rejectedItem.reason).toContain("IR: discontinued");
    expect(rejectedItem.link).toBe(`/dropship/requests/revise?id=${rejected.request_id}`);
    // Sent to another source: the assignment is Cancelled; the backorder is revised and goes back to pending.
    await prisma.assignment.update({ where: { id: rejected.assignment_id }, data: { assign_status: 6 } });
    await prisma.dropshipRequest.update({ where: { request_id: backordered.request_id }, data: { status: "pending" } });
    await sweepAttention();
    expect(await openItems()).toEqual([]);

    const refused = await sentRequest(vendor, "SKU-C");
    await prisma.dropshipRequest.update({ where: { request_id: refused.request_id }, data: { status: "cancel_refused" } });
    await prisma.dropshipCancellation.create({
      data: {
        request_id: refused.request_id,
        vendor_id: vendor.id,
        po_number: refused.po_number,
        qty: 2,
        whole: true,
        change_number: 1,
        cause: "deleted",
        status: "refused",
        answer_note: "already shipped",
        answered_at: new Date(),
      },
    });
    await sweepAttention();
    expect(await openItems()).toEqual([{ kind: "cancel_refused", subject: `request:${refused.request_id}` }]);
    await prisma.dropshipRequest.update({ where: { request_id: refused.request_id }, data: { status: "shipped" } });
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });

  it("a refused file, until the same file comes again and is applied", async () => {
    await configure({});
    const vendor = await x12Vendor("DS96");
    const bad = await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "856_broken.edi",
        content: Buffer.from("ISA*"),
        content_hash: "x",
        size: 4,
        status: "failed",
        error: "no IEA",
        error_segment: "1 (ISA)",
        transaction_set: "856",
      },
    });
    await sweepAttention();
    expect(await openItems()).toEqual([{ kind: "file_refused", subject: `transmission:${bad.id}` }]);
    const item = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "file_refused" } });
    expect(item.reason).toBe("856_broken.edi from Vendor DS96 was refused at 1 (ISA): no IEA");
    expect(item.link).toBe("/dropship/logs?file_name=856_broken.edi");
    await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "856_broken.edi",
        content: Buffer.from("ok"),
        content_hash: "y",
        size: 2,
        status: "processed",
        transaction_set: "856",
      },
    });
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });

  it("Shopify's refusals: a fulfilment, the vendor's stock, a special order", async () => {
    await configure({});
    const vendor = await x12Vendor("DS97");
    const response = await prisma.dropshipResponse.create({
      data: {
        vendor_id: vendor.id,
        vendor_name: vendor.name,
        po_number: "PO-S1",
        response_type: "856",
        status: "received",
        detail: "Line items are already fulfilled",
        tracking_number: "1Z999",
      },
    });
    await prisma.dropshipLog.create({
      data: {
        vendor_name: vendor.name,
        vendor_id: vendor.id,
        action: "shopify_inventory",
        status: "error",
        message: "Shopify inventory at Vendor DS97 not updated: throttled.",
      },
    });
    const order = await prisma.specialOrder.create({
      data: { store_ticket: "T-77", store_id: "S1", customer_name: "Ada", items: [], shipping_cost: 0, status: "error" } as never,
    });
    await prisma.specialOrderError.create({
      data: { special_order_id: order.id, store_ticket: "T-77", store_id: "S1", customer_name: "Ada", error_message: "Shopify: Email is invalid" },
    });
    await sweepAttention();
    expect((await openItems()).map((item) => item.kind).sort()).toEqual(["shopify_fulfilment", "shopify_inventory", "shopify_order"]);
    expect((await prisma.attentionItem.findFirstOrThrow({ where: { kind: "shopify_fulfilment" } })).reason).toBe(
      "Shopify did not fulfil PO PO-S1 (tracking 1Z999): Line items are already fulfilled",
    );

    await prisma.dropshipResponse.update({ where: { id: response.id }, data: { status: "fulfilled", shopify_fulfillment_id: "gid://shopify/Fulfillment/1" } });
    await prisma.dropshipLog.create({
      data: { vendor_name: vendor.name, vendor_id: vendor.id, action: "shopify_inventory", status: "success", message: "set" },
    });
    await prisma.specialOrderError.updateMany({ data: { resolved_at: new Date() } });
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });

  it("a feed whose last run failed, until it runs clean", async () => {
    await configure({});
    await runFeed("order_sync_test", async () => {
      throw new Error("the AS400 folder is gone");
    });
    await sweepAttention();
    expect(await openItems()).toEqual([{ kind: "feed_failed", subject: "feed:order_sync_test" }]);
    expect((await prisma.attentionItem.findFirstOrThrow()).reason).toBe("The last run of order_sync_test failed: the AS400 folder is gone");
    await runFeed("order_sync_test", async () => ({ message: "ok" }));
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });

  it("an invoice line that does not match its PO, with the figures side by side, until a corrected invoice matches", async () => {
    await configure({});
    const vendor = await x12Vendor("DS98", { use_cost: 1 });
    const check = await prisma.dropshipInvoiceCheck.create({
      data: {
        vendor_id: vendor.id,
        invoice_number: "INV-9",
        po_number: "PO-I1",
        sku: "SKU-I",
        sku_ordered: "SKU-I",
        qty_invoiced: 3,
        qty_shipped: 2,
        unit_cost_invoiced: 12.5,
        unit_cost_ordered: 10,
        line_charges: 1.5,
        invoice_charges: 4,
        problems: ["quantity", "cost"],
        status: "mismatch",
      },
    });
    await sweepAttention();
    const item = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "invoice_mismatch" } });
    expect(item.reason).toBe("Invoice INV-9 from Vendor DS98 does not match PO PO-I1: more invoiced than shipped; unit cost outside the tolerance.");
    const page = await listAttention(new URLSearchParams({ kind: "invoice_mismatch" }));
    expect(page.data.data).toHaveLength(1);
    await prisma.dropshipInvoiceCheck.update({ where: { id: check.id }, data: { resolved_at: new Date() } });
    await sweepAttention();
    expect(await openItems()).toEqual([]);
  });
});

describe("the queue", () => {
  it("is sorted oldest first, filters by kind, vendor and age, and keeps a dismissed item out while its cause lasts", async () => {
    await configure({});
    const vendor = await x12Vendor("DS99");
    const older = await sentRequest(vendor, "SKU-O");
    const newer = await sentRequest(vendor, "SKU-N");
    await prisma.dropshipRequest.update({ where: { request_id: older.request_id }, data: { sent_at: new Date(Date.now() - 100 * HOUR) } });
    await prisma.dropshipRequest.update({ where: { request_id: newer.request_id }, data: { sent_at: new Date(Date.now() - 6 * HOUR) } });
    await sweepAttention();
    const all = await listAttention(new URLSearchParams());
    // Nothing at all from the vendor: the first answer missing is what the item names; the older first.
    expect(all.data.data.map((row) => [row.kind, row.vendor_name])).toEqual([
      ["late_997", "Vendor DS99"],
      ["late_997", "Vendor DS99"],
    ]);
    expect(all.data.data.map((row) => JSON.stringify(row.attention_reason))).toEqual([expect.stringContaining("SKU-O"), expect.stringContaining("SKU-N")]);
    expect((await listAttention(new URLSearchParams({ since: "24h" }))).data.total).toBe(1);
    expect((await listAttention(new URLSearchParams({ vendor_name: "ds99" }))).data.total).toBe(2);
    expect((await listAttention(new URLSearchParams({ vendor_name: "nobody" }))).data.total).toBe(0);

    const [first] = await prisma.attentionItem.findMany({ orderBy: { since: "asc" } });
    await expect(dismissAttentionItem(first!.id, { note: " " }, "local")).rejects.toBeInstanceOf(ValidationError);
    await dismissAttentionItem(first!.id, { note: "Called them: ships Monday" }, "local");
    expect(await openAttentionCount()).toBe(1);
    await sweepAttention();
    expect(await openAttentionCount()).toBe(1);
    expect(await prisma.attentionItem.findUniqueOrThrow({ where: { id: first!.id } })).toMatchObject({
      dismiss_note: "Called them: ships Monday",
      resolved_at: null,
    });
  });
});

describe("alerts", () => {
  it("in the recipient's language; many new items in one message; stored before sent and tried again after a refusal", async () => {
    await configure({ recipients: [{ email: "lager@example.de", language: "de" }], immediate_kinds: ["file_refused"] });
    const vendor = await x12Vendor("DS81");
    for (let n = 0; n < 7; n++)
      await prisma.transmission.create({
        data: {
          vendor_id: vendor.id,
          direction: "in",
          file_name: `810_${n}.edi`,
          content: Buffer.from("x"),
          content_hash: `h${n}`,
          size: 1,
          status: "failed",
          error: "bad",
          error_segment: "3 (BIG)",
        },
      });
    const now = new Date();
    await sweepAttention(now);
    expect(await prisma.attentionAlert.count({ where: { status: "pending" } })).toBe(7);

    mail.refuseNext(1);
    expect(await deliverAlerts(now)).toMatchObject({ sent: 0, failed: 7 });
    expect(mail.received).toHaveLength(0);
    const waiting = await prisma.attentionAlert.findFirstOrThrow();
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
    expect(waiting.last_error).toMatch(/451/);
    // Not before its retry time; then sent, once.
    expect(await deliverAlerts(now)).toMatchObject({ sent: 0 });
    expect(await deliverAlerts(new Date(now.getTime() + 2 * 60_000))).toMatchObject({ sent: 7 });
    expect(mail.received).toHaveLength(1);
    expect(mail.received[0]!.subject).toBe("7 neue Einträge zu erledigen");
    expect(mail.received[0]!.text).toContain("Datei abgelehnt: 810_0.edi von Vendor DS81 wurde bei 3 (BIG) abgelehnt: bad");
    expect(await deliverAlerts(new Date(now.getTime() + 10 * 60_000))).toMatchObject({ sent: 0 });
    expect(mail.received).toHaveLength(1);
  });

  it("only for the kinds chosen; the webhook is tried again after an error answer", async () => {
    await configure({ webhook_url: webhookUrl, webhook_language: "fr", immediate_kinds: ["feed_failed"] });
    await runFeed("fragile_feed", async () => {
      throw new Error("boom");
    });
    const vendor = await x12Vendor("DS82");
    await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "856_x.edi",
        content: Buffer.from("x"),
        content_hash: "h",
        size: 1,
        status: "failed",
        error: "bad",
      },
    });
    const now = new Date();
    await sweepAttention(now);
    expect(await prisma.attentionAlert.count()).toBe(1);
    webhookStatus = 500;
    expect(await deliverAlerts(now)).toMatchObject({ failed: 1 });
    webhookStatus = 200;
    expect(await deliverAlerts(new Date(now.getTime() + 2 * 60_000))).toMatchObject({ sent: 1 });
    expect(posts).toHaveLength(1);
    const lines = String(posts[0]!.text).split("\n");
    expect(lines[1]).toMatch(/^En attente depuis le /);
    expect(lines).toEqual([
      "Flux en échec : La dernière exécution de fragile_feed a échoué : boom",
      lines[1],
      `Ouvrir dans l’application : http://localhost:${process.env.PORT ?? 3000}/feed/item?feed_name=fragile_feed&locale=fr`,
      `Tout ce qui est à traiter : http://localhost:${process.env.PORT ?? 3000}/attention?locale=fr`,
    ]);
  });

  it("the daily digest: once a day per recipient, once its time has come in APP_TIMEZONE", async () => {
    await configure({ recipients: [{ email: "ops@example.com", language: "en" }], immediate_kinds: [], digest_time: "07:30" });
    const vendor = await x12Vendor("DS83");
    await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "846_x.edi",
        content: Buffer.from("x"),
        content_hash: "h",
        size: 1,
        status: "failed",
        error: "bad",
      },
    });
    // 07:00 and 07:45 in New York (the tests' APP_TIMEZONE default) on 2026-11-27: UTC-5.
    const before = new Date("2026-11-27T12:00:00Z");
    const after = new Date("2026-11-27T12:45:00Z");
    await sweepAttention(before);
    const settings = await getSettings();
    expect(await queueDigest(before, settings)).toBe(0);
    expect(await queueDigest(after, settings)).toBe(1);
    expect(await queueDigest(new Date("2026-11-27T20:00:00Z"), settings)).toBe(0);
    await deliverAlerts(after);
    expect(mail.received).toHaveLength(1);
    expect(mail.received[0]!.subject).toBe("Daily digest 2026-11-27: 1 items need attention");
    expect(mail.received[0]!.text).toContain("File refused: 1");
  });

  it("with nothing configured, nothing is queued and the screen says so", async () => {
    const vendor = await x12Vendor("DS84");
    await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "856_y.edi",
        content: Buffer.from("x"),
        content_hash: "h",
        size: 1,
        status: "failed",
        error: "bad",
      },
    });
    await sweepAttention();
    await queueDigest(new Date("2026-11-27T23:00:00Z"), await getSettings());
    expect(await prisma.attentionAlert.count()).toBe(0);
    expect((await settingsForScreen()).status).toMatchObject({ nothing_sent: true });
    await deliverAlerts();
    expect(mail.received).toHaveLength(0);
  });
});

describe("settings", () => {
  it("refuses bad values with a message per field, and keeps the defaults until saved", async () => {
    expect((await getSettings()).service_levels).toEqual(DEFAULT_SETTINGS.service_levels);
    const error = await saveSettings(
      {
        service_levels: { sla_997_hours: 0, sla_855_hours: "x", sla_856_hours: 72, unreachable_runs: 3 },
        alerts: {
          recipients: [{ email: "not an address", language: "xx" }],
          webhook_url: "ftp://x",
          webhook_language: "en",
          immediate_kinds: ["nope"],
          digest_time: "25:00",
        },
      },
      "test",
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors).sort()).toEqual([
      "alerts.digest_time",
      "alerts.immediate_kinds.0",
      "alerts.recipients.0.email",
      "alerts.recipients.0.language",
      "alerts.webhook_url",
      "service_levels.sla_855_hours",
      "service_levels.sla_997_hours",
    ]);
    expect(await prisma.appSetting.count()).toBe(0);
  });
});
