// Drop Ship Tools, Vendor Testing (spec 000 §7, D66): the app plays the
// vendor for one PO and puts what the vendor would send into the vendor's
// folders: its 855, 856, 810, 997 or 846 (vendor-answers.ts) into the incoming
// folder, a sample 850 into the outcoming folder. Only for a vendor in test
// mode (run.server.ts refuses the others). Resend 850, shown with them on the
// page, sends a real PO again: manual.server.ts.
import prisma from "~/db.server";
import type { DropshipRequest, Vendor } from "~/db/generated/client";
import { joined, message } from "~/runs/messages";
import { reserveControlNumbers, reserveInterchangeNumbers, type SqlQuery } from "@edi/control-numbers";
import { CsvWriteError, writePurchaseOrderCsv } from "@edi/csv";
import { recogniseIncomingFile } from "@edi/incoming";
import { onlyPurchaseOrder, purchaseOrderInterchange } from "@edi/purchase-orders";
import type { TradingProfile } from "@edi/vendor-profile";
import { ensureVendorSequence, ourIdentity, vendorProfile } from "../flow/context.server";
import { outboundHash } from "~/transfers/outgoing-files.server";
import { withVendorTransport } from "../vendor-connection.server";
import { assertConnectable, refuse, requestOf, type Outcome } from "./outcome.server";
import { answerPurchaseOrderFile, inventoryAdvice, type OutFile } from "./vendor-answers";

const query: SqlQuery = (sql, params) => prisma.$queryRawUnsafe(sql, ...params);
const stamp = (at: Date) => at.toISOString().replace(/\D/g, "").slice(0, 14);
const storeCode = (vendor: Vendor) => vendor.store_id.replace(/[^A-Za-z0-9-]/g, "") || String(vendor.id);

/** Our stored 850 interchange or purchase-order CSV that carried the PO. */
async function sentFileOf(vendor: Vendor, request: DropshipRequest) {
  const transmission = request.transmission_id ? await prisma.transmission.findUnique({ where: { id: request.transmission_id } }) : null;
  if (!transmission || transmission.direction !== "out")
    return refuse("tools.messages.po_not_sent", { po: request.po_number, name: vendor.name }, { po: request.po_number });
  return transmission;
}

/** The vendor's own control numbers for what it sends us: drawn from the vendor's sequence, so no two files are alike. */
async function vendorControlStart(vendor: Vendor) {
  await ensureVendorSequence(vendor.id);
  return (await reserveControlNumbers(query, vendor.id, 8))[0];
}

/** The vendor row as the answer builder takes it: 997 and 810 answered whatever the flags say (the tester asked for one). */
const answeringVendor = (vendor: Vendor) => ({ ...vendor, edi997_enabled: 1, edi810_enabled: 1 }) as unknown as Parameters<typeof answerPurchaseOrderFile>[0];

/** Which document an answer file is, from its contents (never from its name). */
function answerType(vendor: Vendor, profile: TradingProfile, file: OutFile): string | null {
  return recogniseIncomingFile(file.name, Buffer.from(file.content).subarray(0, 4096), { ...vendor, regex_format: null } as never, {
    ...profile,
    fileNamePattern: null,
  }).type;
}

async function uploadToIncoming(vendor: Vendor, file: OutFile): Promise<string> {
  return withVendorTransport(vendor, (transport) => transport.upload(vendor.sftp_incoming_folder!, file.name, Buffer.from(file.content)));
}

function vendorReady(vendor: Vendor): TradingProfile {
  assertConnectable(vendor);
  if (!vendor.sftp_incoming_folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  const { profile, problemCodes: problems } = vendorProfile(vendor);
  if (problems.length) refuse("tools.messages.vendor_settings", { name: vendor.name, problems: joined(problems, "; ") });
  return profile;
}

export async function answerForPurchaseOrder(vendor: Vendor, type: "855" | "856" | "810", po: string): Promise<Outcome> {
  const profile = vendorReady(vendor);
  const request = await requestOf(vendor, po);
  const sent = await sentFileOf(vendor, request);
  const order = onlyPurchaseOrder(Buffer.from(sent.content), po, profile.format);
  if (!order) return refuse("tools.messages.po_not_in_file", { po, file: sent.file_name, id: sent.id }, { po });
  const answer = answerPurchaseOrderFile(answeringVendor(vendor), sent.file_name, order, {
    now: new Date(),
    controlNumberStart: await vendorControlStart(vendor),
    ours: ourIdentity(),
  });
  if ("error" in answer) return refuse("tools.messages.answer_failed", { reason: answer.error }, { po });
  const file = [...answer.immediate, ...answer.later].find((each) => answerType(vendor, profile, each) === type);
  if (!file) return refuse("tools.messages.answer_failed", { reason: answer.problems.join("; ") || `no ${type} was built` }, { po });
  const path = await uploadToIncoming(vendor, file);
  return {
    error: false,
    text: message("tools.messages.uploaded_answer", { type, file: file.name, path, po, name: vendor.name }),
    po,
    sku: request.item_sku,
    file: file.name,
  };
}

export async function acknowledgePurchaseOrderFile(vendor: Vendor, po: string): Promise<Outcome> {
  const profile = vendorReady(vendor);
  if (profile.format === "csv") refuse("tools.messages.csv_no_997", { name: vendor.name });
  const request = await requestOf(vendor, po);
  const sent = await sentFileOf(vendor, request);
  // The 997 answers our whole interchange, as a vendor acknowledges a file, not a PO.
  const answer = answerPurchaseOrderFile(answeringVendor(vendor), sent.file_name, Buffer.from(sent.content), {
    now: new Date(),
    controlNumberStart: await vendorControlStart(vendor),
    ours: ourIdentity(),
  });
  if ("error" in answer) return refuse("tools.messages.answer_failed", { reason: answer.error }, { po });
  const file = answer.immediate.find((each) => answerType(vendor, profile, each) === "997");
  if (!file) return refuse("tools.messages.answer_failed", { reason: answer.problems.join("; ") || "no 997 was built" }, { po });
  const path = await uploadToIncoming(vendor, file);
  return {
    error: false,
    text: message("tools.messages.uploaded_997", { file: file.name, path, sent: sent.file_name, po, name: vendor.name }),
    po,
    file: file.name,
  };
}

export async function adviseInventory(vendor: Vendor, po: string | undefined): Promise<Outcome> {
  const profile = vendorReady(vendor);
  const request = po ? await requestOf(vendor, po) : null;
  const stock = await prisma.sourceStock.findMany({
    where: { source_code: vendor.store_id, ...(request ? { sku: request.item_sku } : {}) },
    select: { sku: true, quantity: true },
    orderBy: { sku: "asc" },
  });
  if (!stock.length) {
    return request
      ? refuse("tools.messages.no_stock_row", { name: vendor.name, store: vendor.store_id, sku: request.item_sku, po }, { po, sku: request.item_sku })
      : refuse("tools.messages.no_stock", { name: vendor.name, store: vendor.store_id });
  }
  const file = inventoryAdvice(answeringVendor(vendor), stock, { now: new Date(), controlNumberStart: await vendorControlStart(vendor), ours: ourIdentity() });
  const path = await uploadToIncoming(vendor, file);
  const disabled = profile.documents["846"].enabled ? "" : "tools.messages.note_846_disabled";
  return {
    error: false,
    text: joined([
      message("tools.messages.uploaded_846", { count: stock.length, file: file.name, path, store: vendor.store_id, name: vendor.name }),
      disabled ? message(disabled) : null,
    ]),
    po: po ?? null,
    sku: request?.item_sku ?? null,
    file: file.name,
  };
}

const SAMPLE_SHIP_TO = {
  name: "Test Customer",
  address1: "100 Sample Street",
  address2: "Suite 1",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  country: "US",
};

export async function sampleOrder(vendor: Vendor, sku: string): Promise<Outcome> {
  assertConnectable(vendor);
  const folder = vendor.sftp_outcoming_folder;
  if (!folder) refuse("tools.messages.no_outcoming", { name: vendor.name });
  const { profile, problemCodes: problems } = vendorProfile(vendor);
  if (problems.length) refuse("tools.messages.vendor_settings", { name: vendor.name, problems: joined(problems, "; ") });
  const now = new Date();
  const po = `SAMPLE-${stamp(now)}`;
  const product = await prisma.product.findUnique({ where: { sku }, select: { price: true, cost: true } });
  const price = product ? (vendor.use_cost === 1 && product.cost !== null ? product.cost : product.price) : null;
  const unitPrice = price === null ? undefined : Number(price);
  let content: string;
  let name: string;
  let control: { interchange: string | null; group: string | null; transactions: string[] } = { interchange: null, group: null, transactions: [] };
  if (profile.format === "x12") {
    await ensureVendorSequence(vendor.id);
    const numbers = await reserveInterchangeNumbers(query, vendor.id, [1]);
    content = purchaseOrderInterchange(
      profile,
      [
        {
          poNumber: po,
          orderNumber: po,
          date: now,
          vendor: { number: vendor.store_id, name: vendor.name },
          shipTo: SAMPLE_SHIP_TO,
          lines: [{ lineNumber: 1, sku, quantity: 1, unitPrice }],
        },
      ],
      numbers,
      now,
    );
    control = { interchange: numbers.interchange, group: numbers.groups[0].group, transactions: numbers.groups[0].transactions };
    name = `sample_850_${storeCode(vendor)}_${stamp(now)}_${numbers.interchange}.edi`;
  } else {
    try {
      content = writePurchaseOrderCsv([
        {
          poNumber: po,
          orderNumber: po,
          date: now,
          shipTo: SAMPLE_SHIP_TO,
          notes: "Sample purchase order: do not ship",
          lines: [{ lineNumber: 1, sku, quantity: 1, unitPrice: unitPrice ?? null }],
        },
      ]).text;
    } catch (error) {
      if (!(error instanceof CsvWriteError)) throw error;
      return refuse("tools.messages.answer_failed", { reason: error.problems.join("; ") }, { sku });
    }
    name = `sample_850_${storeCode(vendor)}_${stamp(now)}.csv`;
  }
  const body = Buffer.from(content);
  const path = await withVendorTransport(vendor, (transport) => transport.upload(folder!, name, body));
  // Kept like every file we send (a 997 for it finds it), but no request points at it.
  const stored = await prisma.transmission.create({
    data: {
      vendor_id: vendor.id,
      partner: "vendor",
      direction: "out",
      file_name: name,
      remote_path: path,
      transaction_set: profile.format === "x12" ? "850" : "csv",
      interchange_control_number: control.interchange,
      group_control_number: control.group,
      transaction_control_numbers: control.transactions,
      content_hash: outboundHash(name, body),
      content: new Uint8Array(body),
      size: body.length,
      status: "sent",
      attempts: 1,
      processed_at: new Date(),
    },
  });
  return { error: false, text: message("tools.messages.sample_uploaded", { file: name, path, po, sku }), po, sku, file: name, transmissionId: stored.id };
}
