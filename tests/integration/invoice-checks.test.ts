// Invoices checked against what was ordered and shipped (issue 30 item 4, D242),
// end to end over a loopback SFTP vendor and AS400: our 850 goes out with the
// PO's unit cost, the vendor ships and invoices it; each 810 line (X12 or CSV) is
// matched with its PO line: SKU, quantity invoiced against quantity shipped,
// unit cost within the vendor's tolerance, SAC charges kept apart. A mismatch is
// logged, is a Needs attention item with the figures side by side, still goes to
// the AS400 as before, and is settled by a corrected invoice.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import type { Vendor } from "../../app/db/generated/client";
import { sweepAttention } from "../../app/attention/sweep.server";
import { populateShipRequests } from "../../app/dropship/flow/populate-requests.server";
import { populateShipResponses } from "../../app/dropship/flow/populate-responses.server";
import { processShipResponses } from "../../app/dropship/flow/process-responses.server";
import { sendShipRequests } from "../../app/dropship/flow/send-requests.server";
import { answerDelimiters, answerPurchaseOrderFile, envelope, profileOf } from "../../app/dropship/tools/vendor-answers";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { build810, type InvoiceInput } from "@edi/documents";
import { startSftpServer, type SftpTestServer } from "@edi/transport/loopback";
import { AS400_USERS, as400EnvFor } from "../support/loopback-as400";
import { createLoopbackVendor } from "../support/loopback-vendor";
import { createPendingAssignment } from "../support/pending-assignment";

const PASSWORD = "Invoice-Pa55";
let root: string;
let sftp: SftpTestServer;
let nextOrder = 0;

const dir = (...parts: string[]) => path.join(root, ...parts);

/** An X12 vendor that bills its cost (2% tolerance), with 810 copies to the AS400; one order of 2 × SKU-INV-1 at 10.00 sent to it. */
async function invoicedVendor(storeId: string, overrides: Partial<Vendor> = {}) {
  const vendor = await createLoopbackVendor({ root, port: sftp.port, password: PASSWORD }, storeId, {
    edi_format: 1,
    edi_identifier: `${storeId}EDI`,
    edi_qualifier: "ZZ",
    regex_format: "\\.(edi|csv)$",
    edi997_enabled: 0,
    edi810_enabled: 1,
    edi810_as400_filepath: ".",
    use_cost: 1,
    invoice_tolerance_percent: 2,
    ...overrides,
  });
  nextOrder++;
  await prisma.product.upsert({ where: { sku: "SKU-INV-1" }, create: { sku: "SKU-INV-1", name: "Lantern", price: 19.99, cost: 10 }, update: { cost: 10 } });
  const assignment = await createPendingAssignment(prisma, {
    orderId: `94000${nextOrder}`,
    shopifyOrderId: String(9400000 + nextOrder),
    sku: "SKU-INV-1",
    qty: 2,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
  await populateShipRequests();
  await sendShipRequests();
  const request = await prisma.dropshipRequest.findUniqueOrThrow({ where: { assignment_id: assignment.id } });
  return { vendor, request };
}

/** The vendor's own answers to our 850 (its 856, and its 810 when `withInvoice`), read and applied. */
async function vendorShipsAndInvoices(vendor: Vendor, withInvoice: boolean) {
  const ours = await prisma.transmission.findFirstOrThrow({ where: { direction: "out", vendor_id: vendor.id, partner: "vendor" }, orderBy: { id: "asc" } });
  const answers = answerPurchaseOrderFile(vendor as never, ours.file_name, Buffer.from(ours.content), {
    now: new Date(),
    controlNumberStart: 300 + nextOrder * 20,
    random: () => 0.1,
  });
  if ("error" in answers) throw new Error(answers.error);
  for (const file of answers.later.filter((one) => one.name.startsWith("856") || (withInvoice && one.name.startsWith("810"))))
    writeFileSync(dir(vendor.store_id.toLowerCase(), "outbound", file.name), file.content);
  await populateShipResponses();
  await processShipResponses();
}

/** An 810 the vendor writes by hand: its envelope, our PO, the lines given. */
async function vendorInvoice(vendor: Vendor, invoice: Omit<InvoiceInput, "date">, control: number) {
  const now = new Date();
  const setup = profileOf(vendor as never, { now, controlNumberStart: control });
  if ("error" in setup) throw new Error(setup.error);
  const text = envelope(setup.profile, answerDelimiters(setup.fields, setup.profile), now, control, "IN", "810", [
    build810({ date: now.toISOString().slice(0, 10), ...invoice }, String(control).padStart(4, "0")),
  ]);
  writeFileSync(dir(vendor.store_id.toLowerCase(), "outbound", `810_${vendor.store_id}_${control}.edi`), text);
  await populateShipResponses();
  await processShipResponses();
}

const checks = async () =>
  (await prisma.dropshipInvoiceCheck.findMany({ orderBy: { id: "asc" } })).map((check) => ({
    invoice_number: check.invoice_number,
    sku: check.sku,
    qty_invoiced: check.qty_invoiced,
    qty_shipped: check.qty_shipped,
    unit_cost_invoiced: check.unit_cost_invoiced === null ? null : Number(check.unit_cost_invoiced),
    unit_cost_ordered: check.unit_cost_ordered === null ? null : Number(check.unit_cost_ordered),
    line_charges: check.line_charges === null ? null : Number(check.line_charges),
    invoice_charges: check.invoice_charges === null ? null : Number(check.invoice_charges),
    problems: check.problems,
    status: check.status,
    resolved: check.resolved_at !== null,
  }));

beforeAll(async () => {
  process.env.APP_SECRET_KEY = Buffer.alloc(32, 42).toString("base64");
  root = mkdtempSync(path.join(tmpdir(), "invoice-checks-"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD, ...AS400_USERS } });
  Object.assign(process.env, as400EnvFor(sftp));
}, 60_000);

afterAll(async () => {
  await closeFeedPool();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE attention_alert, attention_item, dropship_invoice_check, dropship_cancellation, dropship_response, dropship_request, dropship_log,
      transmission, x12_group_ack, dnh_transfer, assignment, order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source,
      incoming_file_sighting RESTART IDENTITY CASCADE`,
  );
  for (const name of readdirSync(root)) rmSync(dir(name), { recursive: true, force: true });
  mkdirSync(dir("as400", "invoices"), { recursive: true });
});

describe("an X12 810 against its PO", () => {
  it("as the vendor bills what it shipped at the PO's cost: matched, its freight kept apart, copied to the AS400", async () => {
    const { vendor, request } = await invoicedVendor("DS61");
    expect(Number(request.unit_cost)).toBe(10);
    await vendorShipsAndInvoices(vendor, true);
    const [check] = await checks();
    expect(check).toMatchObject({
      sku: "SKU-INV-1",
      qty_invoiced: 2,
      qty_shipped: 2,
      unit_cost_invoiced: 10,
      unit_cost_ordered: 10,
      problems: [],
      status: "matched",
    });
    expect(await prisma.transmission.count({ where: { partner: "as400", transaction_set: "810" } })).toBe(1);
    expect(await prisma.dropshipLog.count({ where: { message: { contains: "does not match" } } })).toBe(0);
  });

  it("more than shipped, another SKU, a cost over the tolerance: a mismatch with the figures, logged, copied, settled by a corrected invoice", async () => {
    const { vendor, request } = await invoicedVendor("DS62");
    await vendorShipsAndInvoices(vendor, false);
    await vendorInvoice(
      vendor,
      {
        invoiceNumber: "INV-62-1",
        poNumber: request.po_number,
        lines: [{ lineNumber: "1", quantity: 3, unitPrice: 10.5, sku: "SKU-INV-9", charges: [{ type: "charge", code: "H850", amountCents: 80 }] }],
        charges: [
          { type: "charge", code: "D240", amountCents: 995 },
          { type: "allowance", code: "C310", amountCents: 100 },
        ],
      },
      701,
    );
    expect(await checks()).toEqual([
      {
        invoice_number: "INV-62-1",
        sku: "SKU-INV-9",
        qty_invoiced: 3,
        qty_shipped: 2,
        unit_cost_invoiced: 10.5,
        unit_cost_ordered: 10,
        line_charges: 0.8,
        invoice_charges: 8.95,
        problems: ["sku", "quantity", "cost"],
        status: "mismatch",
        resolved: false,
      },
    ]);
    const lines = (await prisma.dropshipLog.findMany({ where: { po_number: request.po_number }, orderBy: { id: "asc" } })).map((log) => [
      log.status,
      log.message,
    ]);
    expect(lines).toContainEqual([
      "warning",
      `810: invoice INV-62-1 does not match PO ${request.po_number}: another SKU; more invoiced than shipped; unit cost outside the tolerance ` +
        "(invoiced 3, shipped 2; unit cost $10.50, PO $10.00). See Needs Attention.",
    ]);
    // The AS400 copy goes out as today, and the log says it carries lines that do not match.
    expect(await prisma.transmission.count({ where: { partner: "as400", transaction_set: "810" } })).toBe(1);
    expect(
      await prisma.dropshipLog.findFirst({ where: { action: "as400_copy", message: { contains: "1 invoice line does not match its PO" } } }),
    ).not.toBeNull();

    // Needs attention: the mismatch with its figures side by side.
    await sweepAttention();
    const item = await prisma.attentionItem.findFirstOrThrow({ where: { kind: "invoice_mismatch" } });
    expect(item.reason).toBe(
      `Invoice INV-62-1 from Vendor DS62 does not match PO ${request.po_number}: another SKU; more invoiced than shipped; unit cost outside the tolerance.`,
    );
    expect(item.link).toBe(`/dropship/requests/revise?id=${request.request_id}`);

    // Corrected: the same invoice, what was shipped at 10.15 (within 2%).
    await vendorInvoice(
      vendor,
      { invoiceNumber: "INV-62-1", poNumber: request.po_number, lines: [{ lineNumber: "1", quantity: 2, unitPrice: 10.15, sku: "SKU-INV-1" }] },
      702,
    );
    expect((await checks()).map((check) => [check.status, check.resolved])).toEqual([
      ["mismatch", true],
      ["matched", false],
    ]);
    await sweepAttention();
    expect(await prisma.attentionItem.count({ where: { kind: "invoice_mismatch", resolved_at: null } })).toBe(0);
  });

  it("a vendor that does not bill its cost is not checked on cost; an invoice for a PO it never had is a mismatch", async () => {
    const { vendor, request } = await invoicedVendor("DS63", { use_cost: 0 });
    await vendorShipsAndInvoices(vendor, false);
    await vendorInvoice(
      vendor,
      {
        invoiceNumber: "INV-63-1",
        poNumber: request.po_number,
        lines: [{ lineNumber: "1", quantity: 2, unitPrice: 99, sku: "SKU-INV-1" }],
      },
      801,
    );
    await vendorInvoice(
      vendor,
      { invoiceNumber: "INV-63-2", poNumber: "PO-NOT-OURS", lines: [{ lineNumber: "1", quantity: 1, unitPrice: 5, sku: "SKU-X" }] },
      802,
    );
    expect((await checks()).map((check) => [check.invoice_number, check.status, check.problems])).toEqual([
      ["INV-63-1", "matched", []],
      ["INV-63-2", "mismatch", ["unknown_po"]],
    ]);
  });
});

describe("an 810's lines, files and timing", () => {
  it("a matching line does not settle another line of its own file; a corrected invoice does, once all its lines of the PO match", async () => {
    const { vendor, request } = await invoicedVendor("DS65");
    await vendorShipsAndInvoices(vendor, false);
    const twoLines = (sku: string) => [
      { lineNumber: "1", quantity: 1, unitPrice: 10, sku: "SKU-INV-1" },
      { lineNumber: "2", quantity: 1, unitPrice: 10, sku },
    ];
    await vendorInvoice(vendor, { invoiceNumber: "INV-65-1", poNumber: request.po_number, lines: twoLines("SKU-INV-9") }, 901);
    expect((await checks()).map((check) => [check.sku, check.status, check.problems, check.resolved])).toEqual([
      ["SKU-INV-1", "matched", [], false],
      ["SKU-INV-9", "mismatch", ["sku"], false],
    ]);
    expect(await prisma.dropshipLog.count({ where: { action: "as400_copy", message: { contains: "1 invoice line does not match its PO" } } })).toBe(1);

    // Sent again with the second line still wrong: nothing is settled.
    await vendorInvoice(vendor, { invoiceNumber: "INV-65-1", poNumber: request.po_number, lines: twoLines("SKU-INV-8") }, 902);
    expect((await checks()).filter((check) => check.status === "mismatch").map((check) => [check.sku, check.resolved])).toEqual([
      ["SKU-INV-9", false],
      ["SKU-INV-8", false],
    ]);

    // Corrected: both lines right, and both earlier mismatches are settled.
    await vendorInvoice(vendor, { invoiceNumber: "INV-65-1", poNumber: request.po_number, lines: twoLines("SKU-INV-1") }, 903);
    const all = await checks();
    expect(all.filter((check) => check.status === "mismatch").every((check) => check.resolved)).toBe(true);
    expect(all.filter((check) => !check.resolved).map((check) => check.status)).toEqual(["matched", "matched", "matched", "matched"]);
    // Every file's lines numbered from 1: the key that keeps a file from being checked twice.
    expect((await prisma.dropshipInvoiceCheck.findMany({ orderBy: { id: "asc" } })).map((check) => check.line_index)).toEqual([1, 2, 1, 2, 1, 2]);
  });

  it("a file applied a second time adds no checks", async () => {
    const { vendor, request } = await invoicedVendor("DS66");
    await vendorShipsAndInvoices(vendor, false);
    await vendorInvoice(vendor, { invoiceNumber: "INV-66-1", poNumber: request.po_number, lines: [{ lineNumber: "1", quantity: 5, unitPrice: 10 }] }, 911);
    const before = await checks();
    expect(before.map((check) => [check.status, check.problems])).toEqual([["mismatch", ["quantity"]]]);
    // As if its run had stopped after the checks were written and the file came up again.
    const file = await prisma.transmission.findFirstOrThrow({ where: { direction: "in", transaction_set: "810", vendor_id: vendor.id } });
    await prisma.transmission.update({ where: { id: file.id }, data: { status: "received" } });
    await processShipResponses();
    expect((await prisma.transmission.findUniqueOrThrow({ where: { id: file.id } })).status).toBe("processed");
    expect(await checks()).toEqual(before);
  });

  it("an invoice before its shipment waits, logged as billed before it shipped, and matches when the 856 comes", async () => {
    const { vendor, request } = await invoicedVendor("DS67");
    await vendorInvoice(
      vendor,
      { invoiceNumber: "INV-67-1", poNumber: request.po_number, lines: [{ lineNumber: "1", quantity: 2, unitPrice: 10, sku: "SKU-INV-1" }] },
      921,
    );
    expect((await checks()).map((check) => [check.status, check.problems, check.qty_shipped])).toEqual([["waiting", ["quantity"], 0]]);
    const invoiceLog = await prisma.dropshipLog.findFirstOrThrow({ where: { po_number: request.po_number, message: { startsWith: "810: invoice INV-67-1" } } });
    expect([invoiceLog.status, invoiceLog.message]).toEqual([
      "success",
      `810: invoice INV-67-1 bills 2 x SKU-INV-1 of PO ${request.po_number} for $20.00 ` +
        "(billed before it shipped: its quantity is checked when the shipment comes).",
    ]);
    await sweepAttention();
    expect(await prisma.attentionItem.count({ where: { kind: "invoice_mismatch" } })).toBe(0);

    await vendorShipsAndInvoices(vendor, false);
    expect((await checks()).map((check) => [check.status, check.problems, check.qty_shipped])).toEqual([["matched", [], 2]]);
  });
});

describe("a CSV invoice against its PO", () => {
  it("reads the unit price of each row, and the shipping as the invoice's charge", async () => {
    const { vendor, request } = await invoicedVendor("DS64", {
      edi_format: 0,
      edi856_file_contents_regex: "tracking_number",
      edi810_file_contents_regex: "invoice_number",
    });
    await vendorShipsAndInvoices(vendor, false);
    const csv = [
      "invoice_number,invoice_date,po_number,sku,quantity,unit_price,line_total,shipping,tax,invoice_total",
      `INV-64-1,2026-11-27,${request.po_number},SKU-INV-1,2,11.00,22.00,7.95,0,29.95`,
    ].join("\n");
    writeFileSync(dir("ds64", "outbound", "INV_DS64_1.csv"), `${csv}\n`);
    await populateShipResponses();
    await processShipResponses();
    expect(await checks()).toEqual([
      {
        invoice_number: "INV-64-1",
        sku: "SKU-INV-1",
        qty_invoiced: 2,
        qty_shipped: 2,
        unit_cost_invoiced: 11,
        unit_cost_ordered: 10,
        line_charges: null,
        invoice_charges: 7.95,
        problems: ["cost"],
        status: "mismatch",
        resolved: false,
      },
    ]);
  });
  it("checks what a row charges: its line total over its quantity, and logs the mismatch with the figures", async () => {
    const { vendor, request } = await invoicedVendor("DS68", {
      edi_format: 0,
      edi856_file_contents_regex: "tracking_number",
      edi810_file_contents_regex: "invoice_number",
    });
    await vendorShipsAndInvoices(vendor, false);
    const csv = [
      "invoice_number,invoice_date,po_number,sku,quantity,unit_price,line_total,shipping,tax,invoice_total",
      `INV-68-1,2026-11-27,${request.po_number},SKU-INV-1,2,10.00,25.00,0,0,25.00`,
    ].join("\n");
    writeFileSync(dir("ds68", "outbound", "INV_DS68_1.csv"), `${csv}\n`);
    await populateShipResponses();
    await processShipResponses();
    expect((await checks()).map((check) => [check.unit_cost_invoiced, check.unit_cost_ordered, check.problems, check.status])).toEqual([
      [12.5, 10, ["cost"], "mismatch"],
    ]);
    const lines = (
      await prisma.dropshipLog.findMany({ where: { po_number: request.po_number, message: { contains: "INV-68-1" } }, orderBy: { id: "asc" } })
    ).map((log) => [log.status, log.message]);
    expect(lines).toEqual([
      ["warning", `810: invoice INV-68-1 bills 2 x SKU-INV-1 of PO ${request.po_number} for $25.00.`],
      [
        "warning",
        `810: invoice INV-68-1 does not match PO ${request.po_number}: unit cost outside the tolerance ` +
          "(invoiced 2, shipped 2; unit cost $12.50, PO $10.00). See Needs Attention.",
      ],
    ]);
  });
});
