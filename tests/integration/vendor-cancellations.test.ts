// Cancellations at the vendor (issue 29, D225), end to end against the loopback
// SFTP and FTP servers and the real database: staff take an item back from a
// vendor that has it, Send Ship Requests writes the cancellation in the vendor's
// format into its cancellation put folder, the vendor answers (accepts, refuses
// because it shipped, or never answers), Populate and Process Ship Responses
// read the answer from its cancellation pull folder, and the request and the
// assignment end where staff expect them. A cancellation stored but not yet
// uploaded is uploaded once.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { answerCancellationFile } from "../../app/dropship/tools/cancellation-answers";
import { answerPurchaseOrderFile } from "../../app/dropship/tools/vendor-answers";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { createDnhTransfer, deleteAssignment, reassignAssignment } from "../../app/sales/assignment-changes.server";
import { takeBackFromVendor } from "../../app/sales/vendor-cancellations.server";
import { mapTransactions } from "@edi/documents";
import { readX12 } from "@edi/x12";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Cancel-Pa55word";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;

const dir = (...parts: string[]) => path.join(root, ...parts);
const filesIn = (...parts: string[]) =>
  existsSync(dir(...parts)) ? readdirSync(dir(...parts)).filter((name) => !name.startsWith(".") && !["archive", "processed"].includes(name)) : [];

/** A vendor with a cancellation put folder and pull folder of their own, beside its inbound and outbound. */
async function cancellingVendor(storeId: string, overrides: Partial<Vendor> = {}) {
  const folder = storeId.toLowerCase();
  for (const sub of ["cancel_in", "cancel_out"]) mkdirSync(dir(folder, sub), { recursive: true });
  const x12 = { edi_format: 1, edi_identifier: `${storeId}EDI`, edi_qualifier: "ZZ", regex_format: "\\.(edi|csv)$", edi997_enabled: 1 };
  return createLoopbackVendor(
    { root, port: sftp.port, password: PASSWORD },
    storeId,
    { ...x12, sftp_cancellation_put_folder: `/${folder}/cancel_in`, sftp_cancellation_pull_folder: `/${folder}/cancel_out`, ...overrides },
    `Vendor ${storeId}`,
  );
}

let nextOrder = 0;
/** An order of `qty` × `sku` assigned to the vendor, sent to it in an 850, and acknowledged by its 855. */
async function sentAssignment(vendor: Vendor, sku: string, qty = 2) {
  nextOrder++;
  const assignment = await createPendingAssignment(prisma, {
    orderId: `81000${nextOrder}`,
    shopifyOrderId: String(8800000 + nextOrder),
    sku,
    qty,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
  await populateShipRequests();
  await sendShipRequests();
  const request = await prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } });
  expect(request.status).toBe("sent");
  return { assignment, request };
}

/** What the vendor finds in its cancellation put folder, answered as it would (refusing the POs in `shipped`). */
function vendorAnswersCancellations(vendor: Vendor, shipped: string[] = [], start = 700) {
  const folder = vendor.sftp_cancellation_put_folder!.slice(1);
  const names = filesIn(folder);
  for (const name of names) {
    const answer = answerCancellationFile(vendor as never, name, readFileSync(dir(folder, name)), {
      now: new Date(),
      controlNumberStart: start,
      refusal: (po) => (shipped.includes(po) ? "shipped on 2026-11-27" : null),
    });
    if ("error" in answer) throw new Error(answer.error);
    for (const file of answer.files) writeFileSync(dir(vendor.sftp_cancellation_pull_folder!.slice(1), file.name), file.content);
    rmSync(dir(folder, name));
  }
  return names;
}

/** The vendor's 856 for our 850 to it, read and applied. */
async function vendorShips(vendor: Vendor, storeId: string) {
  const ours = await prisma.transmission.findFirstOrThrow({
    where: { direction: "out", transaction_set: "850", file_name: { startsWith: `850_${storeId}_` } },
  });
  const answers = answerPurchaseOrderFile(vendor as never, ours.file_name, Buffer.from(ours.content), {
    now: new Date(),
    controlNumberStart: 900,
    random: () => 0.5,
  });
  if ("error" in answers) throw new Error(answers.error);
  for (const shipment of answers.later.filter((file) => file.name.startsWith("856")))
    writeFileSync(dir(storeId.toLowerCase(), "outbound", shipment.name), shipment.content);
  await populateShipResponses();
  await processShipResponses();
}

const logLines = async (po: string) => (await prisma.dropshipLog.findMany({ where: { po_number: po }, orderBy: { id: "asc" } })).map((line) => line.message);

beforeAll(async () => {
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 12).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "vendor-cancellations-"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
}, 60_000);

afterAll(async () => {
  await closeFeedPool();
  await ftp?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE dropship_cancellation, dropship_response, dropship_request, dropship_log, transmission, x12_group_ack, dnh_transfer, assignment,
      order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source, incoming_file_sighting RESTART IDENTITY CASCADE`,
  );
  for (const name of readdirSync(root)) rmSync(dir(name), { recursive: true, force: true });
});

describe("a cancellation to an X12 vendor", () => {
  it("deleted by staff: an 860 in the cancellation put folder, sent once; the vendor's 865 accepts it", async () => {
    const vendor = await cancellingVendor("DS80");
    const { assignment, request } = await sentAssignment(vendor, "SKU-80001");
    await deleteAssignment(assignment.id);

    await sendShipRequests();
    const [file] = filesIn("ds80", "cancel_in");
    expect(file).toMatch(/^860_CANCEL_DS80_\d{14}_\d+\.edi$/);
    const content = readFileSync(dir("ds80", "cancel_in", file));
    const read = readX12(content);
    expect(read.faults).toEqual([]);
    expect(read.interchanges[0].groups[0].functionalId).toBe("PC");
    expect(content.toString()).toMatch(new RegExp(`\\nBCH\\*01\\*DS\\*${request.po_number}\\*\\*1\\*`));
    expect(content.toString()).toMatch(/\nPOC\*1\*DI\*2\*0\*EA\*/);
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({ status: "sent" });
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "cancel_requested" });
    // Sent once: the next run has nothing to send.
    await sendShipRequests();
    expect(filesIn("ds80", "cancel_in")).toEqual([file]);
    expect(await prisma.transmission.count({ where: { direction: "out", transaction_set: "860" } })).toBe(1);

    vendorAnswersCancellations(vendor);
    // The 865 repeats our PO's date (BCA06, from the 860's BCH06), as X12 defines it.
    const [answer] = filesIn("ds80", "cancel_out");
    const sentOn = (await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).sent_at!.toISOString().slice(0, 10);
    expect(readFileSync(dir("ds80", "cancel_out", answer), "utf8")).toContain(`BCA*01*AT*${request.po_number}**1*${sentOn.replace(/-/g, "")}`);
    await populateShipResponses();
    expect(filesIn("ds80", "cancel_out")).toEqual([]);
    await processShipResponses();
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({
      status: "cancelled",
      qty_cancelled: 2,
    });
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 6 });
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({
      status: "accepted",
      answer_codes: ["AT", "ID"],
    });
    expect(await prisma.dropshipResponse.findFirstOrThrow({ where: { po_number: request.po_number, response_type: "865" } })).toMatchObject({
      line_status: "cancel_accepted",
      status: "processed",
    });
    expect(await logLines(request.po_number)).toEqual(
      expect.arrayContaining([
        `Cancellation 1 of PO ${request.po_number} (2 of 2) to be sent to Vendor DS80: assignment ${assignment.id} was deleted.`,
        expect.stringMatching(new RegExp(`^Cancellation 1 of PO ${request.po_number} \\(2\\) sent in 860_CANCEL_`)),
        `Vendor DS80 accepted the cancellation of 2 of PO ${request.po_number} AT ID.`,
      ]),
    );
    // The vendor ships it anyway: applied, and raised.
    await vendorShips(vendor, "DS80");
    expect((await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).status).toMatch(/shipped|completed/);
    expect(await logLines(request.po_number)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^Possible double shipment: Vendor DS80 shipped PO ${request.po_number} \\(tracking .+\\) after we asked it to cancel it\\.`),
        ),
      ]),
    );

    // The 865's group is acknowledged with our 997, as every group the vendor sends.
    await sendShipRequests();
    const groups = filesIn("ds80", "inbound")
      .filter((name) => name.startsWith("997_"))
      .flatMap((name) => mapTransactions(readX12(readFileSync(dir("ds80", "inbound", name)))))
      .flatMap((d) => (d.mapped?.type === "997" ? d.mapped.document.groups : []));
    expect(groups).toEqual(expect.arrayContaining([expect.objectContaining({ functionalId: "CA", status: "accepted" })]));
  });

  it("reassigned by staff, as an 850 with BEG01 01: the vendor refuses (shipped), and its 856 is a possible double shipment", async () => {
    const vendor = await cancellingVendor("DS81", { cancellation_format: "850" });
    await prisma.inventorySource.create({ data: { source_code: "ST81", name: "Store 81", type: "store" } });
    const { assignment, request } = await sentAssignment(vendor, "SKU-81001");
    const moved = await reassignAssignment(assignment.id, { store_id: "ST81" });
    expect(moved.assignment_id).not.toBe(assignment.id);

    await sendShipRequests();
    const [file] = filesIn("ds81", "cancel_in");
    expect(file).toMatch(/^850_CANCEL_DS81_/);
    const [po] = mapTransactions(readX12(readFileSync(dir("ds81", "cancel_in", file))));
    expect(po.mapped).toMatchObject({ type: "850", document: { purpose: "01", poNumber: request.po_number } });

    vendorAnswersCancellations(vendor, [request.po_number]);
    await populateShipResponses();
    await processShipResponses();
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "cancel_refused" });
    // The old assignment holds its units again (the vendor ships them), and so does the new one: raised.
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 7 });
    const lines = await logLines(request.po_number);
    expect(lines).toEqual(
      expect.arrayContaining([
        // An 865 carries codes, not words: RJ (rejected), IR (item rejected).
        `Vendor DS81 refused the cancellation of 2 of PO ${request.po_number} RJ IR: the request stays, and its shipment is applied when it comes.`,
        `Possible double shipment: Vendor DS81 will ship PO ${request.po_number}, and the same units are assigned to another source too.`,
      ]),
    );

    // The vendor's 856 comes: applied (Shopify takes what it still has open), the request shipped.
    await vendorShips(vendor, "DS81");
    expect((await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).status).toMatch(/shipped|completed/);
  });

  it("a vendor that does not answer cancellations: the cancellation is done once uploaded", async () => {
    const vendor = await cancellingVendor("DS82", { answers_cancellations: 0 });
    const { assignment, request } = await sentAssignment(vendor, "SKU-82001");
    await deleteAssignment(assignment.id);
    await sendShipRequests();
    expect(filesIn("ds82", "cancel_in")).toHaveLength(1);
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({ status: "done" });
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "cancelled" });
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 6 });
  });

  it("stored but not uploaded (the vendor was down): the next run uploads the same file, once", async () => {
    const vendor = await cancellingVendor("DS83");
    const { assignment, request } = await sentAssignment(vendor, "SKU-83001");
    await deleteAssignment(assignment.id);
    await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_port: 1 } });
    await sendShipRequests();
    const stored = await prisma.transmission.findFirstOrThrow({ where: { direction: "out", transaction_set: "860" } });
    expect(stored.status).toBe("prepared");
    expect(filesIn("ds83", "cancel_in")).toEqual([]);
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({
      status: "pending",
      transmission_id: stored.id,
    });

    await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_port: sftp.port } });
    await sendShipRequests();
    await sendShipRequests();
    expect(filesIn("ds83", "cancel_in")).toEqual([stored.file_name]);
    expect(readFileSync(dir("ds83", "cancel_in", stored.file_name))).toEqual(Buffer.from(stored.content));
    expect(await prisma.transmission.count({ where: { direction: "out", transaction_set: "860" } })).toBe(1);
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({ status: "sent" });
  });

  it("a 997 that rejects our 860 refuses the cancellation", async () => {
    const vendor = await cancellingVendor("DS84");
    const { assignment, request } = await sentAssignment(vendor, "SKU-84001");
    await deleteAssignment(assignment.id);
    await sendShipRequests();
    const sent = await prisma.transmission.findFirstOrThrow({ where: { direction: "out", transaction_set: "860" } });
    const isa = `ISA*00*          *00*          *ZZ*DS84EDI        *ZZ*HOUSEROPS      *261128*1200*U*00401*000000950*0*P*>~`;
    const ack = [
      isa,
      `GS*FA*DS84EDI*HOUSEROPS*20261128*1200*950*X*004010~`,
      `ST*997*0001~`,
      `AK1*PC*${sent.group_control_number}~`,
      `AK9*R*1*1*0~`,
      `SE*4*0001~`,
      `GE*1*950~`,
      `IEA*1*000000950~`,
    ].join("\n");
    writeFileSync(dir("ds84", "cancel_out", "997_rejects.edi"), ack);
    await populateShipResponses();
    await processShipResponses();
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({
      status: "refused",
      answer_codes: ["997"],
    });
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "cancel_refused" });
  });
});

describe("a cancellation to a CSV vendor over FTP", () => {
  it("a partial cancellation (2 of 5) in the cancellation CSV, accepted by the answer CSV: that quantity only", async () => {
    const vendor = await cancellingVendor("DS85", { edi_format: 0, transfer_mechanism_id: 2, sftp_port: ftp.port });
    const { assignment, request } = await sentAssignment(vendor, "SKU-85001", 5);
    // What the order side asks when 2 of the line's 5 are refunded (the orders' triggers call this).
    await prisma.$transaction((tx) => takeBackFromVendor(tx, { ...assignment, qty_assigned: 5 }, "line_removed", { qty: 2, detail: { open: 3, ordered: 5 } }));
    await sendShipRequests();
    const [file] = filesIn("ds85", "cancel_in");
    expect(file).toMatch(/^CANCEL_DS85_\d{14}_\d+\.csv$/);
    const text = readFileSync(dir("ds85", "cancel_in", file), "utf8");
    expect(text.split(/\r?\n/)[0]).toBe(
      "po_number,order_number,sku,line_number,quantity_ordered,quantity_cancelled,quantity_remaining,change_number,cancel_date,reason",
    );
    expect(text).toContain(`${request.po_number},${request.order_increment_id},SKU-85001,1,5,2,3,1,`);
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({ status: "sent" });
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 3, qty_assigned: 3 });

    vendorAnswersCancellations(vendor);
    await populateShipResponses();
    await processShipResponses();
    expect(await prisma.dropshipRequest.findUniqueOrThrow({ where: { request_id: request.request_id } })).toMatchObject({
      status: "sent",
      qty_cancelled: 2,
    });
    expect(await prisma.dropshipCancellation.findFirstOrThrow({ where: { po_number: request.po_number } })).toMatchObject({
      status: "accepted",
      whole: false,
      qty: 2,
    });
    expect(await prisma.assignment.findUniqueOrThrow({ where: { id: assignment.id } })).toMatchObject({ assign_status: 3, qty_assigned: 3 });
  });
});

// Every trigger reaches every format: what lands in the vendor's put folder names the PO, once.
const FORMATS = [
  { label: "X12 860 over SFTP", overrides: {}, name: /^860_CANCEL_/ },
  { label: "X12 850 (BEG01 01) over SFTP", overrides: { cancellation_format: "850" }, name: /^850_CANCEL_/ },
  { label: "CSV over FTP", overrides: { edi_format: 0, transfer_mechanism_id: 2 }, name: /^CANCEL_.*\.csv$/ },
] as const;
const TRIGGERS: Array<{ label: string; take: (assignmentId: number) => Promise<unknown> }> = [
  { label: "staff delete", take: (id) => deleteAssignment(id) },
  { label: "staff reassign", take: (id) => reassignAssignment(id, { store_id: "ST90" }) },
  { label: "staff DNH", take: (id) => createDnhTransfer({ assignment_id: id, transfer_num: `T-${id}`, reason: "Picked up in store" }) },
];

describe.each(FORMATS)("each trigger, $label", ({ overrides, name }) => {
  it.each(TRIGGERS)("$label sends the vendor one cancellation of the PO", async ({ take }) => {
    const vendor = await cancellingVendor("DS90", { ...overrides, ...("transfer_mechanism_id" in overrides ? { sftp_port: ftp.port } : {}) });
    await prisma.inventorySource.create({ data: { source_code: "ST90", name: "Store 90", type: "store" } });
    const { assignment, request } = await sentAssignment(vendor, "SKU-90001");
    await take(assignment.id);
    await sendShipRequests();
    await sendShipRequests();
    const files = filesIn("ds90", "cancel_in");
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(name);
    expect(readFileSync(dir("ds90", "cancel_in", files[0]), "utf8")).toContain(request.po_number);
    expect(await prisma.dropshipCancellation.findMany({ where: { po_number: request.po_number } })).toEqual([
      expect.objectContaining({ status: "sent", whole: true, qty: 2 }),
    ]);
  });
});
