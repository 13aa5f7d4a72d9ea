// The drop-ship flow end to end, against real loopback SFTP and FTP servers,
// the real database and the Shopify stand-in: an assignment goes Pending →
// Processing → Sent → Complete, the vendor's answers come back as files, and
// the fulfilment Shopify would get is asserted. Then the failure cases:
// the same content again, malformed file, vendor down, a crash mid-way, concurrent runs.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { runDropshipStep } from "../../app/dropship/flow/steps.server";
import { listDropshipLogs } from "../../app/dropship/logs.server";
import { feedLogGridAnswer } from "../../app/feeds/feeds.server";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { i18nServer } from "../../app/i18n/i18n.server";
import { renderForReader } from "../../app/i18n/messages";
import { metricsText } from "../../app/observability/metrics.server";
import { APP_SCOPES } from "../../app/shopify/access-scopes";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { mapTransactions } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { AS400_USERS, as400EnvFor } from "../support/loopback-as400";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Flow-Pa55word";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;
let standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;

// A fixed chance source, so the vendor's answers are the same every run.
const seeded = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;

const dir = (...parts: string[]) => path.join(root, ...parts);
const filesIn = (...parts: string[]) =>
  (existsSync(dir(...parts)) ? readdirSync(dir(...parts)).filter((name) => !name.startsWith(".")) : []).filter(
    (name) => !["archive", "processed"].includes(name),
  );

async function calls(operation: string) {
  const all = (await (await fetch(`${standIn.url}/__calls`)).json()) as Array<{ operation: string; variables: Record<string, unknown> }>;
  return all.filter((call) => call.operation === operation);
}

let nextOrder = 0;
/** An order with one item, mirrored in Shopify, and a Pending assignment of it to the vendor. */
async function pendingAssignment(vendor: Vendor, sku: string, qty = 2) {
  nextOrder++;
  return createPendingAssignment(prisma, {
    orderId: `90000${nextOrder}`,
    shopifyOrderId: String(7700000 + nextOrder),
    sku,
    qty,
    storeId: vendor.store_id,
    vendorName: vendor.name,
    street: "12 Analytical Way\nSuite 3",
  });
}

function createVendor(name: string, storeId: string, overrides: Partial<Vendor> = {}) {
  const x12 = { edi_format: 1, edi_identifier: `${storeId}EDI`, edi_qualifier: "ZZ", regex_format: "\\.(edi|csv)$", edi997_enabled: 1 };
  const documents = { edi810_enabled: 1, edi810_as400_filepath: ".", edi846_enabled: 1 };
  return createLoopbackVendor({ root, port: sftp.port, password: PASSWORD }, storeId, { ...x12, ...documents, ...overrides }, name);
}

/**
 * Acme Outdoor as the vendor `storeId`, with a Pending assignment of `sku` sent to it in our
 * 850, and all its answers waiting in its outbound folder (control numbers from `controlNumberStart`).
 */
async function answeredVendor(storeId: string, sku: string, controlNumberStart: number) {
  const vendor = await createVendor("Acme Outdoor", storeId);
  const assignment = await pendingAssignment(vendor, sku);
  await populateShipRequests();
  await sendShipRequests();
  vendorAnswers(vendor, controlNumberStart);
  return { vendor, assignment };
}

/** The vendor reads what we uploaded and answers all of it at once (the 856 and 810 included). */
function vendorAnswers(vendor: Vendor, controlNumberStart: number) {
  const folder = vendor.sftp_outcoming_folder!.slice(1);
  const answered: string[] = [];
  for (const name of filesIn(folder).filter((name) => /^(850|PO)_/.test(name))) {
    const answer = answerPurchaseOrderFile(vendor as never, name, readFileSync(dir(folder, name)), {
      now: new Date(),
      controlNumberStart: controlNumberStart + answered.length * 50,
      random: seeded(7),
    });
    if ("error" in answer) throw new Error(answer.error);
    for (const file of [...answer.immediate, ...answer.later]) writeFileSync(dir(vendor.sftp_incoming_folder!.slice(1), file.name), file.content);
    mkdirSync(dir(folder, "processed"), { recursive: true });
    writeFileSync(dir(folder, "processed", name), readFileSync(dir(folder, name)));
    rmSync(dir(folder, name));
    answered.push(name);
  }
  return answered;
}

beforeAll(async () => {
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 11).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "dropship-flow-"));
  mkdirSync(dir("as400", "invoices"), { recursive: true });
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD, ...AS400_USERS } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
  standIn = await startShopifyStandIn({ catalog: databaseCatalog(prisma) });
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;
  Object.assign(process.env, as400EnvFor(sftp));
}, 60_000);

afterAll(async () => {
  await closeFeedPool();
  await standIn?.stop();
  await ftp?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, dnh_transfer, assignment, order_item, order_grid,
      dropship_vendor, inventory_source_item, inventory_source, feed_log, feed RESTART IDENTITY CASCADE`,
  );
  for (const name of readdirSync(root)) if (name !== "as400") rmSync(dir(name), { recursive: true, force: true });
  rmSync(dir("as400", "invoices"), { recursive: true, force: true });
  mkdirSync(dir("as400", "invoices"), { recursive: true });
  await fetch(`${standIn.url}/__state`, { method: "DELETE" });
});

/** The vendor's vendor_files_*_total samples in this process's /metrics. */
async function vendorFileCounts(vendorId: number) {
  const metrics = (await metricsText()).body;
  const count = (family: string) => Number(new RegExp(`^vendor_files_${family}_total\\{vendor="${vendorId}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
  return { received: count("received"), processed: count("processed"), failed: count("failed") };
}

describe("the drop-ship flow", () => {
  it("takes an X12 vendor's assignment from Pending to Complete, with the tracking sent to Shopify", async () => {
    const vendor = await createVendor("Acme Outdoor", "DS70");
    const assignment = await pendingAssignment(vendor, "SKU-70001", 2);

    // 1. Populate: a request with its own PO, the assignment Processing.
    expect((await runDropshipStep("populateRequests")).error).toBe(false);
    const request = await prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } });
    expect(request).toMatchObject({
      po_number: `PO${assignment.order_increment_id}-${assignment.id}`,
      qty: 2,
      ship_name_first: "Ada",
      ship_city: "Chicago",
      status: "pending",
    });
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(2);

    // 2. Send: one 850 in the vendor's outcoming folder, recorded with its control numbers.
    const sent = await runDropshipStep("sendRequests");
    expect(sent).toEqual({ error: false, message: "1 file sent to 1 vendor, carrying 1 new ship request." });
    const uploaded = filesIn("ds70", "inbound");
    expect(uploaded).toHaveLength(1);
    const read = readX12(readFileSync(dir("ds70", "inbound", uploaded[0])));
    expect(read.faults).toEqual([]);
    const [po] = mapTransactions(read);
    expect(po.mapped?.type).toBe("850");
    expect(po.mapped?.document).toMatchObject({ poNumber: request.po_number, shipTo: expect.objectContaining({ city: "Chicago", state: "IL" }) });
    const transmission = await prisma.transmission.findFirstOrThrow({ where: { direction: "out", transaction_set: "850" } });
    expect(transmission).toMatchObject({
      status: "sent",
      file_name: uploaded[0],
      interchange_control_number: read.interchanges[0].controlNumber,
      group_control_number: read.interchanges[0].groups[0].controlNumber,
    });
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({
      status: "sent",
      transmission_id: transmission.id,
    });
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(3);

    // 3. The vendor answers; Populate Responses stores every file, then archives it remotely.
    vendorAnswers(vendor, 500);
    const answerFiles = filesIn("ds70", "outbound");
    expect(answerFiles.map((name) => name.slice(0, 3)).sort()).toEqual(["810", "855", "856", "997"]);
    expect((await runDropshipStep("populateResponses")).error).toBe(false);
    expect(await prisma.transmission.count({ where: { direction: "in", status: "received" } })).toBe(4);
    expect(filesIn("ds70", "outbound")).toEqual([]);
    expect(readdirSync(dir("ds70", "outbound", "archive")).sort()).toEqual([...answerFiles].sort());

    // The vendor's source linked to its Shopify location (the location sync links it, D48), its stock there.
    // The order's lines are still at the store Shopify routed them to (this assignment was written directly).
    const acme = ((await (await fetch(`${standIn.url}/__locations`)).json()) as Array<{ id: string; name: string }>).find((l) => l.name === "Acme Outdoor")!;
    await prisma.inventorySource.update({ where: { source_code: "DS70" }, data: { shopify_location_id: acme.id.split("/").pop() } });
    await prisma.product.createMany({ data: [{ sku: "SKU-70001", name: "Trail Runner" }], skipDuplicates: true });
    await fetch(`${standIn.url}/__levels`, { method: "PUT", body: JSON.stringify([{ sku: "SKU-70001", location: "Acme Outdoor", quantity: 5 }]) });

    // 4. Process: 997 accepts our 850, 855 acknowledges, 856 becomes a fulfilment, 810 goes to the AS400.
    const processed = await runDropshipStep("processResponses");
    expect(processed.error).toBe(false);
    expect((await prisma.transmission.findUniqueOrThrow({ where: { id: transmission.id } })).status).toBe("accepted");
    const shipment = await prisma.dropshipResponse.findFirstOrThrow({ where: { response_type: "856" } });
    expect(shipment).toMatchObject({ status: "fulfilled", po_number: request.po_number, item_sku: "SKU-70001", qty: 2 });
    expect(shipment.tracking_number).toMatch(/\w{10,}/);
    const fulfilments = await calls("FulfillmentCreate");
    expect(fulfilments).toHaveLength(1);
    const input = (
      fulfilments[0].variables as {
        fulfillment: {
          trackingInfo: { number: string; company: string };
          lineItemsByFulfillmentOrder: Array<{ fulfillmentOrderLineItems: Array<{ quantity: number }> }>;
        };
      }
    ).fulfillment;
    expect(input.trackingInfo.number).toBe(shipment.tracking_number);
    // The vendor's default (D243): Shopify e-mails the customer the tracking number.
    expect((fulfilments[0].variables as { fulfillment: { notifyCustomer: boolean } }).fulfillment.notifyCustomer).toBe(true);
    expect(input.trackingInfo.company).toBe(shipment.tracking_carrier);
    expect(input.lineItemsByFulfillmentOrder[0].fulfillmentOrderLineItems[0].quantity).toBe(2);
    // Fulfilled at the vendor's location: its stock there went down by what shipped.
    const levels = (await (await fetch(`${standIn.url}/__inventory`)).json()) as Array<{ sku: string; location: string; quantity: number }>;
    expect(levels.filter((level) => level.sku === "SKU-70001")).toEqual([{ sku: "SKU-70001", location: "Acme Outdoor", quantity: 3 }]);
    // Step 4 moved the lines there first (D169), and says so on the assignment.
    expect((await calls("FulfillmentOrderMove")).length).toBe(1);
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ shopify_location_status: "moved" });
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(4);
    expect(await prisma.dropshipResponse.count({ where: { response_type: "855", status: "processed" } })).toBeGreaterThan(0);
    const invoice = await prisma.dropshipResponse.findFirstOrThrow({ where: { response_type: "810" } });
    expect(invoice.invoice_number).toBeTruthy();
    expect(filesIn("as400", "invoices")).toHaveLength(1);
    // One 997 for the run (D100): a set for the group of each of the vendor's files except its own 997.
    const ours = filesIn("ds70", "inbound").filter((name) => name.startsWith("997_"));
    expect(ours).toHaveLength(1);
    const acks = mapTransactions(readX12(readFileSync(dir("ds70", "inbound", ours[0]))));
    expect(acks).toHaveLength(3);
    for (const ack of acks) {
      expect(ack.mapped?.type).toBe("997");
      expect((ack.mapped?.document as { groups: Array<{ status: string }> }).groups[0].status).toBe("accepted");
    }
    expect(await prisma.x12GroupAck.count({ where: { ack_transmission_id: null } })).toBe(0);

    // 5. Clear: the request leaves the working set.
    expect((await runDropshipStep("clearCompletedRequests")).message).toMatch(/1 completed ship request archived/);
    expect((await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).status).toBe("archived");

    // Each step left logs a person can follow for this PO.
    const actions = (await prisma.dropshipLog.findMany({ where: { po_number: request.po_number }, orderBy: { id: "asc" } })).map((log) => log.action);
    expect(actions).toEqual(expect.arrayContaining(["populate_requests", "send_requests", "process_responses", "shopify_fulfillment"]));
    // And each run is a feed run.
    expect(await prisma.feedLog.count({ where: { feed_name: "send_ship_requests", type: "finished" } })).toBe(1);

    // Every line the steps wrote for this PO is a code as well as English text, and reads in German on a German page (D114).
    const coded = await prisma.dropshipLog.findMany({ where: { po_number: request.po_number }, select: { message: true, message_code: true } });
    expect(coded.every((log) => log.message_code !== null)).toBe(true);
    const german = await listDropshipLogs(new URLSearchParams({ po_number: request.po_number })).then(async (answer) =>
      renderForReader(await i18nServer.getFixedT("de", "common"), answer),
    );
    const texts = german.data.data.map((row) => row.message as string);
    expect(texts).toContainEqual(expect.stringMatching(new RegExp(`^Versandanfrage ${request.po_number} erstellt für \\d+ x `)));
    expect(texts).toContainEqual(expect.stringMatching(/^856: .* versandt( mit \w+)?, Sendungsnummer /));
    expect(texts.join("\n")).not.toMatch(/Ship request|shipped|tracking|Fulfilment/);
    // The feed log of the run shows its message in German too, and keeps the English beside the code.
    const sendLog = await prisma.feedLog.findFirstOrThrow({ where: { feed_name: "send_ship_requests", type: "finished" }, orderBy: { id: "desc" } });
    expect((sendLog.meta as { message: string }).message).toMatch(/^1 file sent to 1 vendor/);
    const feedLogs = await feedLogGridAnswer(new URLSearchParams({ feed_name: "send_ship_requests", type: "finished" })).then(async (answer) =>
      renderForReader(await i18nServer.getFixedT("de", "common"), answer),
    );
    expect(JSON.parse(feedLogs.data.data[0].meta as string).message).toMatch(/^1 Datei an 1 Lieferant gesendet/);
  });

  it("exchanges CSV with a vendor over FTP the same way; a vendor set not to notify customers fulfils without Shopify's e-mail", async () => {
    const vendor = await createVendor("Cascade Apparel", "DS71", {
      transfer_mechanism_id: 2,
      sftp_port: ftp.port,
      edi_format: 0,
      edi997_enabled: 0,
      edi810_enabled: 0,
      edi856_file_contents_regex: "tracking_number",
      notify_customer: 0,
    });
    const assignment = await pendingAssignment(vendor, "SKU-71001", 1);
    await populateShipRequests();
    expect((await sendShipRequests()).error).toBe(false);
    const [csvFile] = filesIn("ds71", "inbound");
    expect(csvFile).toMatch(/^PO_DS71_.*\.csv$/);
    expect(readFileSync(dir("ds71", "inbound", csvFile), "utf8")).toContain("SKU-71001");
    vendorAnswers(vendor, 600);
    expect((await populateShipResponses()).error).toBe(false);
    const result = await processShipResponses();
    expect(result.error).toBe(false);
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(4);
    const fulfilments = await calls("FulfillmentCreate");
    expect(fulfilments).toHaveLength(1);
    expect((fulfilments[0].variables as { fulfillment: { notifyCustomer: boolean } }).fulfillment.notifyCustomer).toBe(false);
  });
});

describe("at volume (D130, D131)", () => {
  it("reads a batch's orders from Shopify in one nodes query and keeps several transfers (never more than the bound) in flight on one connection", async () => {
    const vendor = await createVendor("Acme Outdoor", "DS74");
    const assignments = [];
    for (let i = 0; i < 12; i++) assignments.push(await pendingAssignment(vendor, `SKU-7400${i}`, 1));
    await populateShipRequests();
    expect((await sendShipRequests()).error).toBe(false);
    vendorAnswers(vendor, 900);
    const answerFiles = filesIn("ds74", "outbound");
    expect(answerFiles.length).toBeGreaterThan(12);

    // Step 3: downloads several at a time on the vendor's one connection, at most SFTP_IN_FLIGHT (8) files open at once.
    sftp.resetOpenFilesPeak();
    expect((await populateShipResponses()).message).toBe(`${answerFiles.length} new files stored from 1 vendor.`);
    expect(sftp.openFiles().peakPerConnection).toBeGreaterThan(1);
    expect(sftp.openFiles().peakPerConnection).toBeLessThanOrEqual(8);
    expect(sftp.openFiles().now).toBe(0);
    // Every file stored once, and archived only after (the archive holds them all, the folder none).
    expect(await prisma.transmission.count({ where: { direction: "in", vendor_id: vendor.id } })).toBe(answerFiles.length);
    expect(filesIn("ds74", "outbound")).toEqual([]);
    expect(readdirSync(dir("ds74", "outbound", "archive")).sort()).toEqual([...answerFiles].sort());

    // Step 4: the twelve orders in one nodes query, not one OrderFulfillmentState each; one fulfilment per shipment.
    expect((await processShipResponses()).error).toBe(false);
    const batchReads = await calls("OrdersFulfillmentState");
    expect(batchReads).toHaveLength(1);
    expect([...(batchReads[0].variables.ids as string[])].sort()).toEqual(
      assignments.map((assignment) => `gid://shopify/Order/${assignment.shopify_order_id}`).sort(),
    );
    expect(await calls("OrderFulfillmentState")).toHaveLength(0);
    expect(await calls("FulfillmentCreate")).toHaveLength(12);
    expect(await prisma.assignment.count({ where: { id: { in: assignments.map((assignment) => assignment.id) }, assign_status: 4 } })).toBe(12);
  });
});

describe("when things go wrong", () => {
  it("takes the same content under another name as a new delivery, and still fulfils once", async () => {
    await answeredVendor("DS72", "SKU-72001", 700);
    const shipNotice = filesIn("ds72", "outbound").find((name) => name.startsWith("856"))!;
    const copy = readFileSync(dir("ds72", "outbound", shipNotice));
    await populateShipResponses();
    await processShipResponses();
    // The vendor sends the same 856 again under another name: a delivery of its own (D59).
    writeFileSync(dir("ds72", "outbound", `again_${shipNotice}`), copy);
    const second = await populateShipResponses();
    expect(second.message).toMatch(/^1 new file stored from 1 vendor\.$/);
    expect(filesIn("ds72", "outbound")).toEqual([]);
    await processShipResponses();
    expect(await prisma.transmission.count({ where: { direction: "in", file_name: { contains: "856" }, status: "processed" } })).toBe(2);
    // The shipment is the same tracking number: Shopify gets one fulfilment.
    expect(await calls("FulfillmentCreate")).toHaveLength(1);
  });

  it("keeps a malformed file, rejects it with a 997, and still processes the files after it", async () => {
    const { vendor } = await answeredVendor("DS73", "SKU-73001", 800);
    const names = filesIn("ds73", "outbound");
    const shipNotice = names.find((name) => name.startsWith("856"))!;
    // SE01 no longer counts the segments: the 856 is refused, named by its segment.
    const broken = readFileSync(dir("ds73", "outbound", shipNotice), "utf8").replace(/SE\*(\d+)\*/, (_, n) => `SE*${Number(n) + 3}*`);
    rmSync(dir("ds73", "outbound", shipNotice));
    writeFileSync(dir("ds73", "outbound", `000_${shipNotice}`), broken); // sorted first
    const before = await vendorFileCounts(vendor.id);
    await populateShipResponses();
    const result = await processShipResponses();
    expect(result.error).toBe(true);
    const failed = await prisma.transmission.findFirstOrThrow({ where: { file_name: `000_${shipNotice}` } });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/SE/);
    expect(failed.error_segment).toMatch(/^\d+ SE$/);
    expect(Buffer.from(failed.content).toString()).toBe(broken); // kept whole
    // The files after it were processed.
    expect(await prisma.transmission.count({ where: { direction: "in", status: "processed" } })).toBe(names.length - 1);
    expect(await prisma.dropshipResponse.count({ where: { response_type: "855" } })).toBeGreaterThan(0);
    // Our 997 for it rejects the transaction set.
    const rejecting = filesIn("ds73", "inbound")
      .filter((name) => name.startsWith("997_"))
      .flatMap((name) =>
        mapTransactions(readX12(readFileSync(dir("ds73", "inbound", name)))).map((set) => set.mapped!.document as { groups: Array<{ status: string }> }),
      )
      .filter((ack) => ack.groups[0].status === "rejected");
    expect(rejecting).toHaveLength(1);
    expect(await prisma.dropshipLog.count({ where: { file_name: `000_${shipNotice}`, status: "error", message: { contains: "Could not process" } } })).toBe(1);
    expect(await calls("FulfillmentCreate")).toHaveLength(0);
    // /metrics counts them per vendor (D88); vendor ids start again in each test, so the counts are compared with before.
    const after = await vendorFileCounts(vendor.id);
    expect({ received: after.received - before.received, processed: after.processed - before.processed, failed: after.failed - before.failed }).toEqual({
      received: names.length,
      processed: names.length - 1,
      failed: 1,
    });
  });

  it("answers an interchange that asks for a TA1 (ISA14 = 1) and whose IEA02 is wrong with TA1 R 001, in our delimiters (D73)", async () => {
    const { vendor } = await answeredVendor("DS78", "SKU-78001", 1300);
    const shipNotice = filesIn("ds78", "outbound").find((name) => name.startsWith("856"))!;
    const original = readFileSync(dir("ds78", "outbound", shipNotice), "utf8");
    const element = original[3];
    const isa = original.slice(0, original.indexOf("GS" + element)).split(element);
    isa[14] = "1";
    const control = isa[13];
    const asked =
      isa.join(element) +
      original.slice(original.indexOf("GS" + element)).replace(new RegExp(`IEA\\${element}(\\d+)\\${element}${control}`), `IEA${element}$1${element}999999999`);
    writeFileSync(dir("ds78", "outbound", shipNotice), asked);
    await populateShipResponses();
    await processShipResponses();
    const ta1Files = filesIn("ds78", "inbound").filter((name) => name.startsWith("TA1_"));
    expect(ta1Files).toHaveLength(1);
    const text = readFileSync(dir("ds78", "inbound", ta1Files[0]), "utf8");
    const back = readX12(text);
    expect(back.faults).toEqual([]);
    expect(text).toMatch(new RegExp(`TA1\\*${control}\\*\\d{6}\\*\\d{4}\\*R\\*001~`));
    expect(await prisma.transmission.count({ where: { vendor_id: vendor.id, direction: "out", transaction_set: "TA1" } })).toBe(1);
  });

  it("fails a vendor whose server is down alone; the others run", async () => {
    const up = await createVendor("Acme Outdoor", "DS74");
    const down = await createVendor("Granite Tools", "DS75", { sftp_port: 1 });
    await pendingAssignment(up, "SKU-74001");
    await pendingAssignment(down, "SKU-75001");
    await populateShipRequests();
    const sent = await sendShipRequests();
    expect(sent.error).toBe(true);
    expect(sent.message).toMatch(/Granite Tools/);
    expect(filesIn("ds74", "inbound")).toHaveLength(1);
    // The down vendor's file is stored and waits; its request is not Sent.
    const waiting = await prisma.transmission.findFirstOrThrow({ where: { vendor_id: down.id, direction: "out" } });
    expect(waiting.status).toBe("prepared");
    expect((await prisma.dropshipRequest.findFirstOrThrow({ where: { vendor_id: down.id } })).status).toBe("pending");
    expect(await prisma.dropshipLog.count({ where: { vendor_id: down.id, status: "error" } })).toBeGreaterThan(0);
    vendorAnswers(up, 900);
    const responses = await populateShipResponses();
    expect(responses.error).toBe(true);
    expect(await prisma.transmission.count({ where: { vendor_id: up.id, direction: "in" } })).toBe(4);

    // Back up: the next run uploads the very same file, and nothing twice.
    await prisma.vendor.update({ where: { id: down.id }, data: { sftp_port: sftp.port } });
    expect((await sendShipRequests()).error).toBe(false);
    const [file] = filesIn("ds75", "inbound");
    expect(file).toBe(waiting.file_name);
    expect(readFileSync(dir("ds75", "inbound", file))).toEqual(Buffer.from(waiting.content));
    expect((await prisma.dropshipRequest.findFirstOrThrow({ where: { vendor_id: down.id } })).status).toBe("sent");
  });

  it("leaves nothing half-done when processing crashes, and the re-run finishes it once", async () => {
    await answeredVendor("DS76", "SKU-76001", 1000);
    await populateShipResponses();
    // The database refuses the last write of a file's transaction, as a crash at that point would.
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION crash_on_processed() RETURNS trigger AS $$ BEGIN
      IF NEW.message LIKE 'Processed 856%' THEN RAISE EXCEPTION 'simulated crash'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await prisma.$executeRawUnsafe("CREATE TRIGGER crash_on_processed BEFORE INSERT ON dropship_log FOR EACH ROW EXECUTE FUNCTION crash_on_processed()");
    try {
      const crashed = await processShipResponses();
      expect(crashed.error).toBe(true);
    } finally {
      await prisma.$executeRawUnsafe("DROP TRIGGER crash_on_processed ON dropship_log");
    }
    // Nothing of the 856 was applied: no response, no fulfilment, the file still waits.
    expect(await prisma.dropshipResponse.count({ where: { response_type: "856" } })).toBe(0);
    expect(await calls("FulfillmentCreate")).toHaveLength(0);
    expect((await prisma.transmission.findFirstOrThrow({ where: { direction: "in", file_name: { startsWith: "856" } } })).status).toBe("received");
    const rerun = await processShipResponses();
    expect(rerun.error).toBe(false);
    expect(await prisma.dropshipResponse.count({ where: { response_type: "856" } })).toBe(1);
    expect(await calls("FulfillmentCreate")).toHaveLength(1);
  });

  it("holds the shipments with one reason while the shop has not granted fulfilment access, and fulfils them once it is approved (D170)", async () => {
    const { assignment } = await answeredVendor("DS79", "SKU-79001", 1400);
    await populateShipResponses();
    // An older install: everything but the fulfillment-order scope.
    const short = APP_SCOPES.filter((scope) => scope !== "write_merchant_managed_fulfillment_orders");
    await fetch(`${standIn.url}/__scopes`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scopes: short }) });
    const held = await processShipResponses();
    expect(held.error).toBe(true);
    expect(held.message).toContain("1 shipment not fulfilled in Shopify: the shop has not granted the app write_merchant_managed_fulfillment_orders.");
    expect(await calls("FulfillmentCreate")).toHaveLength(0);
    expect(await calls("OrdersFulfillmentState")).toHaveLength(0);
    const refusals = await prisma.dropshipLog.findMany({ where: { action: "shopify_fulfillment", status: "error" } });
    expect(refusals).toHaveLength(1);
    expect(refusals[0].message).toContain("Approve the app's updated access in the Shopify admin");
    expect((await prisma.dropshipResponse.findFirstOrThrow({ where: { response_type: "856" } })).status).toBe("received");

    await fetch(`${standIn.url}/__scopes`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scopes: APP_SCOPES }) });
    const approved = await processShipResponses();
    expect(approved.error).toBe(false);
    expect(await calls("FulfillmentCreate")).toHaveLength(1);
    expect((await prisma.dropshipResponse.findFirstOrThrow({ where: { response_type: "856" } })).status).toBe("fulfilled");
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(4);
  });

  it("does not fulfil twice when a run stopped after Shopify answered", async () => {
    const { assignment } = await answeredVendor("DS77", "SKU-77001", 1100);
    await populateShipResponses();
    await processShipResponses();
    expect(await calls("FulfillmentCreate")).toHaveLength(1);
    // As if our update after Shopify's answer had been lost.
    await prisma.dropshipResponse.updateMany({ where: { response_type: "856" }, data: { status: "received", shopify_fulfillment_id: null } });
    await prisma.assignment.update({ where: { id: assignment.id }, data: { assign_status: 3 } });
    await processShipResponses();
    expect(await calls("FulfillmentCreate")).toHaveLength(1);
    expect((await prisma.dropshipResponse.findFirstOrThrow({ where: { response_type: "856" } })).status).toBe("fulfilled");
    expect((await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).assign_status).toBe(4);
  });

  it("never sends a request twice when two runs go at once", async () => {
    const vendor = await createVendor("Acme Outdoor", "DS78");
    for (let i = 0; i < 30; i++) await pendingAssignment(vendor, `SKU-78${String(i).padStart(3, "0")}`, 1);
    await populateShipRequests();
    // Straight to the step twice (no feed lock): row locks keep the claims apart.
    await Promise.all([sendShipRequests(), sendShipRequests()]);
    const pos = filesIn("ds78", "inbound").flatMap((name) =>
      mapTransactions(readX12(readFileSync(dir("ds78", "inbound", name)))).map((d) => (d.mapped!.document as { poNumber: string }).poNumber),
    );
    expect(pos).toHaveLength(30);
    expect(new Set(pos).size).toBe(30);
    expect(await prisma.dropshipRequest.count({ where: { status: "sent" } })).toBe(30);
    // Each run uploads what it claimed (SKIP LOCKED): one file, or two with no PO in both.
    // Every stored file was uploaded once, and there is one "sent" line per request.
    const files = filesIn("ds78", "inbound");
    expect(files.length).toBeGreaterThanOrEqual(1);
    expect(await prisma.transmission.count({ where: { direction: "out" } })).toBe(files.length);
    expect(await prisma.dropshipLog.count({ where: { action: "send_requests", status: "success" } })).toBe(30);
    // Through the feeds, the second run at once is skipped.
    await pendingAssignment(vendor, "SKU-78999", 1);
    const [a, b] = await Promise.all([runDropshipStep("populateRequests"), runDropshipStep("populateRequests")]);
    expect([a.message, b.message].filter((message) => /already running; it was skipped/.test(message))).toHaveLength(1);
    expect(await prisma.dropshipRequest.count()).toBe(31);
  });

  it("refuses to send a request with a missing address until it is revised", async () => {
    const vendor = await createVendor("Acme Outdoor", "DS79");
    const assignment = await pendingAssignment(vendor, "SKU-79001");
    await populateShipRequests();
    await prisma.dropshipRequest.updateMany({ where: { assignment_id: assignment.id }, data: { ship_zip: "" } });
    const result = await sendShipRequests();
    expect(filesIn("ds79", "inbound")).toHaveLength(0);
    expect(await prisma.dropshipLog.count({ where: { status: "error", message: { contains: "ship_zip is empty" } } })).toBe(1);
    expect(result.message).toMatch(/0 files sent/);
    // A second run does not repeat it; a revision sends it.
    await sendShipRequests();
    expect(await prisma.dropshipLog.count({ where: { status: "error", message: { contains: "ship_zip is empty" } } })).toBe(1);
    await prisma.dropshipRequest.updateMany({ where: { assignment_id: assignment.id }, data: { ship_zip: "60601", needs_processing: true } });
    await sendShipRequests();
    expect(filesIn("ds79", "inbound")).toHaveLength(1);
  });
});
