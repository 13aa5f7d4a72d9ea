// Drop Ship Tools (spec 000 §2, §7): Manual Utilities act on real vendor
// files (parse one, or parse and apply it; upload what is prepared; collect
// what is waiting), Vendor Testing plays the vendor for one PO (its 855, 856,
// 810, 997, 846, our 850 again, a sample 850), and the Transmission Test is
// transmission-test.server.ts. Every action answers { error, message } and
// writes a drop-ship log line; docs/dropship.md lists what each one does.
import prisma from "~/db.server";
import type { DropshipRequest, Vendor } from "~/db/generated/client";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { SecretError } from "~/lib/secrets.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { joined, message, renderCoded, renderMessage, type Language, type RunMessage } from "~/runs/messages";
import { answerPurchaseOrderFile, inventoryAdvice, type OutFile } from "../demo/vendor-answers";
import { reserveControlNumbers, reserveInterchangeNumbers, type SqlQuery } from "../../edi/control-numbers";
import * as csv from "../../edi/csv";
import { CsvWriteError, writePurchaseOrderCsv } from "../../edi/csv/write";
import { allTrackingNumbers, invoiceTotalCents, mapTransactions, transactionSegments, type MappedDocument } from "../../edi/documents";
import { build850 } from "../../edi/documents/850";
import { recogniseIncomingFile } from "../../edi/incoming";
import { PathError, TransportError } from "../../edi/transport/errors";
import { baseName, normaliseRemotePath, parentOf, resolveInside } from "../../edi/transport/paths";
import { fillTemplate, type TradingProfile } from "../../edi/vendor-profile";
import { describeFault, type Fault } from "../../edi/x12/faults";
import { readX12 } from "../../edi/x12/reader";
import { writeInterchange, x12DateTime, type SegmentData } from "../../edi/x12/writer";
import { ensureVendorSequence, ourIdentity, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry } from "./flow/context.server";
import { outboundHash } from "~/transfers/outgoing-files.server";
import { deliverVendorFiles } from "./flow/outbound.server";
import { populateShipResponses, storeIncomingFile } from "./flow/populate-responses.server";
import { markReleased } from "~/transfers/incoming-deliveries.server";
import { carrierName, processShipResponses } from "./flow/process-responses.server";
import { requestProblems, sendShipRequests } from "./flow/send-requests.server";
import type { DropshipLogAction } from "./grids.server";
import { isTestModeOnly, TOOL_ACTION_INPUT, type ToolAction, type ToolInputField } from "./tool-actions";
import { runTransmissionTest, type ToolAnswer } from "./transmission-test.server";
import { releaseIncomingFile, withVendorTransport } from "./vendor-connection.server";
import { loadVendorRecord } from "./vendors.server";

export type { ToolAnswer };

const LANGUAGES = ["en", "de", "fr"] as const;

export type ToolValues = Partial<Record<ToolInputField, string>>;

/** A message in the request's language, and again in English for the log. */
type Text = (t: Translate) => string;

interface Outcome {
  error: boolean;
  text: Text;
  /** For the log line. */
  po?: string | null;
  sku?: string | null;
  file?: string | null;
  transmissionId?: number | null;
  /** The answer as a code with parameters, when it is one message (an error of the vendor's server): stored as it is. */
  coded?: RunMessage;
}

/** A refusal in words (unknown PO, missing folder, file of another type): answered 200 with error true. */
class ToolRefusal extends Error {
  constructor(readonly text: Text, readonly details: Pick<Outcome, "po" | "sku" | "file"> = {}) {
    super("tool refusal");
  }
}

/** `vars` may hold messages (codes with parameters), rendered in each language. */
function refuse(key: string, vars: Record<string, unknown> = {}, details: Pick<Outcome, "po" | "sku" | "file"> = {}): never {
  throw new ToolRefusal((t) => renderCoded(t, message(key, vars)), details);
}

/** The drop-ship log action each tool writes (grids.server.ts LOG_ACTIONS). */
const LOG_ACTION: Partial<Record<ToolAction, DropshipLogAction>> = {
  "parse-855": "process_responses",
  "parse-process-855": "process_responses",
  "parse-856": "process_responses",
  "parse-process-856": "process_responses",
  "parse-810": "process_responses",
  "parse-process-810": "process_responses",
  "send-generated-files": "send_file",
  "receive-files": "receive_file",
  "855": "send_file",
  "856": "send_file",
  "846": "send_file",
  "810": "send_file",
  "997": "send_file",
  "850": "send_requests",
  "generate-sample-850": "send_file",
  "verify-upload": "send_file",
};

const query: SqlQuery = (sql, params) => prisma.$queryRawUnsafe(sql, ...params);
const stamp = (at: Date) => at.toISOString().replace(/\D/g, "").slice(0, 14);
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const storeCode = (vendor: Vendor) => vendor.store_id.replace(/[^A-Za-z0-9-]/g, "") || String(vendor.id);
const MAX_LISTED = 20;

function listed(t: Translate, items: string[], separator = "; ") {
  const shown = items.slice(0, MAX_LISTED).join(separator);
  return items.length > MAX_LISTED ? `${shown}${separator}${t("tools.summary.more", { count: items.length - MAX_LISTED })}` : shown;
}

// ---------------------------------------------------------------------------
// Entry point

export async function runTool(vendorId: number, action: ToolAction, values: ToolValues, t: Translate, language: Language): Promise<ToolAnswer> {
  const outcome = await runToolOutcome(vendorId, action, values);
  return { error: outcome.error, message: renderMessage(t, language, outcome.message) };
}

/**
 * A tool's answer for a background run (D96): the message in every language,
 * since it is made of several translated pieces. The Transmission Test and the
 * errors of a vendor's server or password are codes with parameters (D117).
 */
export async function runToolOutcome(vendorId: number, action: ToolAction, values: ToolValues): Promise<{ error: boolean; message: RunMessage }> {
  if (action === "test-connection" || action === "list-folders" || action === "verify-upload") {
    const answer = await runTransmissionTest(vendorId, action);
    if (action === "verify-upload") {
      const vendor = await loadVendorRecord(vendorId);
      const english = await i18nServer.getFixedT("en", "common");
      await writeLogs([{ ...vendorLog(vendor), action: "send_file", status: answer.error ? "error" : "success", message: `Tools, Verify Upload: ${renderMessage(english, "en", answer.message)}` }]);
    }
    return answer;
  }
  const vendor = await loadVendorRecord(vendorId);
  const input = TOOL_ACTION_INPUT[action];
  const value = input ? values[input.field]?.trim() || undefined : undefined;
  let outcome: Outcome;
  try {
    if (isTestModeOnly(action) && vendor.test_mode !== 1) refuse("tools.messages.not_test_mode", { name: vendor.name });
    outcome = await perform(vendor, action, value);
  } catch (error) {
    if (error instanceof ToolRefusal) outcome = { error: true, text: error.text, ...error.details };
    else if (error instanceof PathError || error instanceof TransportError || error instanceof SecretError) {
      const coded = errorRunMessage(error);
      outcome = { error: true, text: (t) => renderMessage(t, "en", coded), coded };
    } else throw error;
  }
  const [english, german, french] = await Promise.all(LANGUAGES.map((language) => i18nServer.getFixedT(language, "common")));
  await writeLogs([logLine(vendor, action, outcome, input?.field === "ponum" ? value : undefined, english)]);
  return { error: outcome.error, message: outcome.coded ?? { texts: { en: outcome.text(english), de: outcome.text(german), fr: outcome.text(french) } } };
}

function logLine(vendor: Vendor, action: ToolAction, outcome: Outcome, po: string | undefined, english: Translate): LogEntry {
  const parseOnly = action.startsWith("parse-") && !action.startsWith("parse-process-");
  return {
    ...vendorLog(vendor),
    action: LOG_ACTION[action] ?? "send_file",
    status: outcome.error ? "error" : parseOnly ? "info" : "success",
    po_number: outcome.po ?? po ?? null,
    item_sku: outcome.sku ?? null,
    file_name: outcome.file ?? null,
    transmission_id: outcome.transmissionId ?? null,
    message: `Tools, ${english(`tools.actions.${action}`)}: ${outcome.text(english)}`,
  };
}

async function perform(vendor: Vendor, action: Exclude<ToolAction, "test-connection" | "list-folders" | "verify-upload">, value: string | undefined): Promise<Outcome> {
  switch (action) {
    case "parse-855":
    case "parse-856":
    case "parse-810":
      return parseFile(vendor, action.slice(-3) as ParsedType, value!, false);
    case "parse-process-855":
    case "parse-process-856":
    case "parse-process-810":
      return parseFile(vendor, action.slice(-3) as ParsedType, value!, true);
    case "send-generated-files":
      return sendGeneratedFiles(vendor);
    case "receive-files":
      return receiveFiles(vendor);
    case "855":
    case "856":
    case "810":
      return answerForPurchaseOrder(vendor, action, value!);
    case "997":
      return acknowledgePurchaseOrderFile(vendor, value!);
    case "846":
      return adviseInventory(vendor, value);
    case "850":
      return sendPurchaseOrderAgain(vendor, value!);
    case "generate-sample-850":
      return sampleOrder(vendor, value!);
  }
}

// ---------------------------------------------------------------------------
// Vendor Testing: the vendor's answers for one PO

function assertConnectable(vendor: Vendor) {
  if (!vendor.sftp_host || !vendor.sftp_user) refuse("tools.not_configured", { name: vendor.name });
}

/** The request of that PO, which must be this vendor's. */
async function requestOf(vendor: Vendor, po: string): Promise<DropshipRequest> {
  const request = await prisma.dropshipRequest.findUnique({ where: { po_number: po } });
  if (!request) return refuse("tools.messages.unknown_po", { po }, { po });
  if (request.vendor_id !== vendor.id) refuse("tools.messages.other_vendor_po", { po, other: request.vendor_name, name: vendor.name }, { po });
  return request;
}

/** Our stored 850 interchange or purchase-order CSV that carried the PO. */
async function sentFileOf(vendor: Vendor, request: DropshipRequest) {
  const transmission = request.transmission_id ? await prisma.transmission.findUnique({ where: { id: request.transmission_id } }) : null;
  if (!transmission || transmission.direction !== "out") return refuse("tools.messages.po_not_sent", { po: request.po_number, name: vendor.name }, { po: request.po_number });
  return transmission;
}

/** The vendor's own control numbers for what it sends us: drawn from the vendor's sequence, so no two files are alike. */
async function vendorControlStart(vendor: Vendor) {
  await ensureVendorSequence(vendor.id);
  return (await reserveControlNumbers(query, vendor.id, 8))[0];
}

/** The vendor row as the answer builder takes it: 997 and 810 answered whatever the flags say (the tester asked for one). */
const answeringVendor = (vendor: Vendor) => ({ ...vendor, edi997_enabled: 1, edi810_enabled: 1 }) as unknown as Parameters<typeof answerPurchaseOrderFile>[0];

/** Our file reduced to the one PO: the vendor answers that PO alone. */
function onlyPurchaseOrder(content: Buffer, po: string, format: TradingProfile["format"]): Buffer | null {
  if (format === "csv") {
    const read = csv.readPurchaseOrderCsv(content);
    const orders = read.orders.filter((order) => order.poNumber === po);
    if (!orders.length) return null;
    try {
      return Buffer.from(writePurchaseOrderCsv(orders).text);
    } catch (error) {
      if (error instanceof CsvWriteError) return null;
      throw error;
    }
  }
  const read = readX12(content);
  for (const located of mapTransactions(read)) {
    if (located.mapped?.type !== "850" || located.mapped.document.poNumber !== po) continue;
    const interchange = read.interchanges[located.interchange];
    const group = interchange.groups[located.group];
    const transaction = group.transactions[located.transaction];
    const { component } = interchange.delimiters;
    const all = transactionSegments(read.segments, transaction);
    const body: SegmentData[] = all.slice(1, -1).map((elements) => elements.map((value, i) => (i > 0 && value.includes(component) ? value.split(component) : value)));
    const text = writeInterchange({
      delimiters: interchange.delimiters,
      sender: interchange.sender,
      receiver: interchange.receiver,
      date: interchange.date,
      time: interchange.time,
      controlNumber: interchange.controlNumber,
      version: interchange.version,
      usage: interchange.usage === "T" ? "T" : "P",
      lineBreak: "\n",
      groups: [
        {
          functionalId: group.functionalId,
          sender: group.gs[2] ?? "",
          receiver: group.gs[3] ?? "",
          date: group.gs[4] ?? "",
          time: group.gs[5] ?? "",
          controlNumber: group.controlNumber,
          version: group.version,
          transactions: [{ setId: "850", controlNumber: transaction.controlNumber, convention: all[0][3] || undefined, segments: body }],
        },
      ],
    }).text;
    return Buffer.from(text);
  }
  return null;
}

/** Which document an answer file is, from its contents (never from its name). */
function answerType(vendor: Vendor, profile: TradingProfile, file: OutFile): string | null {
  return recogniseIncomingFile(file.name, Buffer.from(file.content).subarray(0, 4096), { ...vendor, regex_format: null } as never, { ...profile, fileNamePattern: null }).type;
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

async function answerForPurchaseOrder(vendor: Vendor, type: "855" | "856" | "810", po: string): Promise<Outcome> {
  const profile = vendorReady(vendor);
  const request = await requestOf(vendor, po);
  const sent = await sentFileOf(vendor, request);
  const order = onlyPurchaseOrder(Buffer.from(sent.content), po, profile.format);
  if (!order) return refuse("tools.messages.po_not_in_file", { po, file: sent.file_name, id: sent.id }, { po });
  const answer = answerPurchaseOrderFile(answeringVendor(vendor), sent.file_name, order, { now: new Date(), controlNumberStart: await vendorControlStart(vendor), ours: ourIdentity() });
  if ("error" in answer) return refuse("tools.messages.answer_failed", { reason: answer.error }, { po });
  const file = [...answer.immediate, ...answer.later].find((each) => answerType(vendor, profile, each) === type);
  if (!file) return refuse("tools.messages.answer_failed", { reason: answer.problems.join("; ") || `no ${type} was built` }, { po });
  const path = await uploadToIncoming(vendor, file);
  return { error: false, text: (t) => t("tools.messages.uploaded_answer", { type, file: file.name, path, po, name: vendor.name }), po, sku: request.item_sku, file: file.name };
}

async function acknowledgePurchaseOrderFile(vendor: Vendor, po: string): Promise<Outcome> {
  const profile = vendorReady(vendor);
  if (profile.format === "csv") refuse("tools.messages.csv_no_997", { name: vendor.name });
  const request = await requestOf(vendor, po);
  const sent = await sentFileOf(vendor, request);
  // The 997 answers our whole interchange, as a vendor acknowledges a file, not a PO.
  const answer = answerPurchaseOrderFile(answeringVendor(vendor), sent.file_name, Buffer.from(sent.content), { now: new Date(), controlNumberStart: await vendorControlStart(vendor), ours: ourIdentity() });
  if ("error" in answer) return refuse("tools.messages.answer_failed", { reason: answer.error }, { po });
  const file = answer.immediate.find((each) => answerType(vendor, profile, each) === "997");
  if (!file) return refuse("tools.messages.answer_failed", { reason: answer.problems.join("; ") || "no 997 was built" }, { po });
  const path = await uploadToIncoming(vendor, file);
  return { error: false, text: (t) => t("tools.messages.uploaded_997", { file: file.name, path, sent: sent.file_name, po, name: vendor.name }), po, file: file.name };
}

async function adviseInventory(vendor: Vendor, po: string | undefined): Promise<Outcome> {
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
    text: (t) => `${t("tools.messages.uploaded_846", { count: stock.length, file: file.name, path, store: vendor.store_id, name: vendor.name })}${disabled ? ` ${t(disabled)}` : ""}`,
    po: po ?? null,
    sku: request?.item_sku ?? null,
    file: file.name,
  };
}

const RESENDABLE = ["pending", "sent", "acknowledged", "backordered", "rejected"];

async function sendPurchaseOrderAgain(vendor: Vendor, po: string): Promise<Outcome> {
  assertConnectable(vendor);
  if (vendor.enabled !== 1) refuse("tools.messages.disabled", { name: vendor.name });
  const request = await requestOf(vendor, po);
  if (!RESENDABLE.includes(request.status) || request.archived_at) refuse("tools.messages.po_cannot_resend", { po, status: request.status }, { po });
  const problems = requestProblems(request);
  if (problems.length) refuse("tools.messages.po_cannot_send", { po, problems: problems.join(", ") }, { po });
  await prisma.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "pending", needs_processing: true } });
  const result = await sendShipRequests({ vendorId: vendor.id });
  return { error: result.error, text: (t) => t("tools.messages.po_marked", { po, result: result.message }), po, sku: request.item_sku };
}

const SAMPLE_SHIP_TO = { name: "Test Customer", address1: "100 Sample Street", address2: "Suite 1", city: "Springfield", state: "IL", zip: "62701", country: "US" };

async function sampleOrder(vendor: Vendor, sku: string): Promise<Outcome> {
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
    const when = x12DateTime(now);
    const settings = profile.documents["850"];
    const transaction = build850(
      {
        poNumber: po,
        orderNumber: po,
        date: now,
        vendor: { number: vendor.store_id, name: vendor.name },
        shipTo: SAMPLE_SHIP_TO,
        lines: [{ lineNumber: 1, sku, quantity: 1, unitPrice }],
        extraSegments: fillTemplate(settings.template, { po_number: po, order_number: po, date: when.date8, vendor_name: vendor.name, vendor_store_id: vendor.store_id, ship_to_name: SAMPLE_SHIP_TO.name }),
      },
      numbers.groups[0].transactions[0],
    );
    content = writeInterchange({
      delimiters: profile.output,
      sender: profile.sender,
      receiver: profile.receiver,
      date: when.date6,
      time: when.time,
      controlNumber: numbers.interchange,
      usage: profile.usage,
      lineBreak: "\n",
      groups: [{ functionalId: "PO", sender: profile.sender.id, receiver: profile.receiver.id, date: when.date8, time: when.time, controlNumber: numbers.groups[0].group, version: settings.version, transactions: [transaction] }],
    }).text;
    control = { interchange: numbers.interchange, group: numbers.groups[0].group, transactions: numbers.groups[0].transactions };
    name = `sample_850_${storeCode(vendor)}_${stamp(now)}_${numbers.interchange}.edi`;
  } else {
    try {
      content = writePurchaseOrderCsv([{ poNumber: po, orderNumber: po, date: now, shipTo: SAMPLE_SHIP_TO, notes: "Sample purchase order: do not ship", lines: [{ lineNumber: 1, sku, quantity: 1, unitPrice: unitPrice ?? null }] }]).text;
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
      vendor_id: vendor.id, partner: "vendor", direction: "out", file_name: name, remote_path: path, transaction_set: profile.format === "x12" ? "850" : "csv",
      interchange_control_number: control.interchange, group_control_number: control.group, transaction_control_numbers: control.transactions,
      content_hash: outboundHash(name, body), content: new Uint8Array(body), size: body.length, status: "sent", attempts: 1, processed_at: new Date(),
    },
  });
  return { error: false, text: (t) => t("tools.messages.sample_uploaded", { file: name, path, po, sku }), po, sku, file: name, transmissionId: stored.id };
}

// ---------------------------------------------------------------------------
// Manual Utilities

type ParsedType = "855" | "856" | "810";

interface SourceFile {
  name: string;
  /** Where it is (or was) on the vendor's server. */
  path: string;
  content: Buffer;
  /** Read from the vendor's server. */
  onServer: boolean;
  /** On the server right in the incoming folder (not in archive/): released once stored. */
  releasable: boolean;
  /** Read from this stored transmission, the file being gone from the server. */
  storedId?: number;
}

/** The file a person named, relative to the incoming folder; the stored copy when the server no longer has it. */
async function readSourceFile(vendor: Vendor, filepath: string): Promise<SourceFile> {
  const folder = vendor.sftp_incoming_folder;
  const path = resolveInside(folder || "/", filepath); // refuses "..", absolute paths, backslashes, NUL
  if (!folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  const name = baseName(path);
  if (vendor.sftp_host && vendor.sftp_user) {
    const content = await withVendorTransport(vendor, async (transport) => ((await transport.exists(path)) === "file" ? transport.download(path) : null));
    if (content) return { name, path, content, onServer: true, releasable: parentOf(path) === normaliseRemotePath(folder!) };
  }
  const stored = await prisma.transmission.findFirst({ where: { vendor_id: vendor.id, partner: "vendor", direction: "in", file_name: name }, orderBy: { id: "desc" } });
  if (!stored) return refuse("tools.messages.path_missing", { path, name: vendor.name, file: name }, { file: name });
  return { name, path: stored.remote_path ?? path, content: Buffer.from(stored.content), onServer: false, releasable: false, storedId: stored.id };
}

const isX12 = (content: Buffer) => /^\uFEFF?\s*ISA/.test(content.subarray(0, 64).toString("utf8"));

/** What the file is: the set IDs inside an X12 file, else what recognition says. */
function fileTypes(vendor: Vendor, profile: TradingProfile, file: SourceFile): { types: string[]; reason: string } {
  const recognised = recogniseIncomingFile(file.name, file.content.subarray(0, 4096), { ...vendor, regex_format: null } as never, { ...profile, fileNamePattern: null });
  if (isX12(file.content)) {
    const read = readX12(file.content, { hints: profile.inputHints, mode: "tolerant" });
    const sets = [...new Set(read.interchanges.flatMap((interchange) => interchange.groups.flatMap((group) => group.transactions.map((transaction) => transaction.setId))))];
    if (sets.length) return { types: sets, reason: recognised.reason };
  }
  return { types: recognised.type ? [recognised.type] : [], reason: recognised.reason };
}

async function parseFile(vendor: Vendor, expected: ParsedType, filepath: string, apply: boolean): Promise<Outcome> {
  const file = await readSourceFile(vendor, filepath);
  const { profile, problemCodes: problems } = vendorProfile(vendor);
  if (problems.length && apply) refuse("tools.messages.vendor_settings", { name: vendor.name, problems: joined(problems, "; ") }, { file: file.name });
  const { types, reason } = fileTypes(vendor, profile, file);
  if (!types.includes(expected)) {
    if (types.length) refuse("tools.messages.wrong_type", { file: file.name, actual: types.join("/"), expected }, { file: file.name });
    refuse("tools.messages.unrecognised", { file: file.name, expected, reason }, { file: file.name });
  }
  const summary = isX12(file.content) || profile.format === "x12" ? summariseX12(file.content, expected, profile) : summariseCsv(file.content, expected);
  const where: Text = (t) => (file.storedId ? ` ${t("tools.messages.from_stored", { id: file.storedId })}` : "");
  if (!apply) {
    return { error: summary.refused || summary.faulty, text: (t) => t("tools.messages.parsed", { file: file.name, where: where(t), summary: summary.text(t) }), file: file.name, po: summary.po, transmissionId: file.storedId ?? null };
  }

  // Apply it: stored as Populate Ship Responses stores it (never twice), released remotely, then processed now.
  const stored = file.storedId !== undefined ? { id: file.storedId, isNew: false } : await storeIncomingFile(vendor, { name: file.name, path: file.path, content: file.content, transactionSet: expected });
  if (file.storedId === undefined) {
    await writeLogs([
      {
        ...vendorLog(vendor), action: "receive_file", status: stored.isNew ? "info" : "warning", file_name: file.name, transmission_id: stored.id,
        message: stored.isNew ? `Tools: stored ${file.name} (${file.content.length} bytes, a ${expected}) from ${file.path}.` : `Tools: ${file.name} is transmission ${stored.id}, taken before from ${file.path}; it is not stored again.`,
      },
    ]);
  }
  if (file.releasable) {
    const { archivedTo } = await withVendorTransport(vendor, (transport) => releaseIncomingFile(transport, vendor, file.path));
    await markReleased(stored.id, archivedTo);
    await writeLogs([{ ...vendorLog(vendor), action: "receive_file", status: "info", file_name: file.name, transmission_id: stored.id, message: archivedTo ? `Archived ${file.path} to ${archivedTo} on the vendor's server.` : `Deleted ${file.path} from the vendor's server.` }]);
  }
  const before = await prisma.transmission.findUniqueOrThrow({ where: { id: stored.id }, select: { status: true, error: true } });
  const storedText: Text = (t) => t(stored.isNew ? "tools.messages.stored_new" : "tools.messages.stored_before", { id: stored.id });
  if (before.status !== "received") {
    return {
      error: before.status === "failed",
      text: (t) => `${t("tools.messages.parsed_only", { file: file.name, where: where(t), summary: summary.text(t) })} ${t("tools.messages.already_processed", { id: stored.id, status: before.status })}`,
      file: file.name, po: summary.po, transmissionId: stored.id,
    };
  }
  const result = await processShipResponses({ vendorId: vendor.id, transmissionIds: [stored.id] });
  const after = await prisma.transmission.findUniqueOrThrow({ where: { id: stored.id }, select: { status: true, error: true } });
  return {
    error: result.error || after.status === "failed",
    text: (t) => `${t("tools.messages.parsed_only", { file: file.name, where: where(t), summary: summary.text(t) })} ${storedText(t)} ${t("tools.messages.process_result", { status: after.status, result: result.message })}`,
    file: file.name, po: summary.po, transmissionId: stored.id,
  };
}

interface Summary {
  text: Text;
  /** Nothing of the expected type could be read. */
  refused: boolean;
  /** Faults or refused rows were found. */
  faulty: boolean;
  /** The first PO named, for the log. */
  po: string | null;
}

function summariseX12(content: Buffer, expected: ParsedType, profile: TradingProfile): Summary {
  const read = readX12(content, { hints: profile.inputHints });
  const documents = mapTransactions(read);
  const wanted = documents.filter((d) => d.mapped?.type === expected);
  const faults: Fault[] = [...read.faults, ...wanted.flatMap((d) => d.mapped?.faults ?? [])].sort((a, b) => a.segmentIndex - b.segmentIndex);
  const warnings: Fault[] = [...read.warnings, ...wanted.flatMap((d) => d.mapped?.warnings ?? [])];
  const others = [...new Set(documents.filter((d) => d.setId !== expected).map((d) => d.setId))];
  const pieces = wanted.map((d) => d.mapped!).filter((mapped) => mapped.faults.length === 0 || documentId(mapped));
  const firstPo = pieces.map(documentPo).find(Boolean) ?? null;
  return {
    refused: read.interchanges.length === 0 || pieces.length === 0,
    faulty: faults.length > 0,
    po: firstPo,
    text: (t) => {
      const parts: string[] = [];
      parts.push(t("tools.summary.sets", { count: wanted.length, type: t(`tools.documents.${expected}`) }));
      if (pieces.length) parts.push(`${listed(t, pieces.map((mapped) => describeDocument(t, mapped)))}.`);
      if (others.length) parts.push(t("tools.summary.also_holds", { sets: others.join(", ") }));
      parts.push(faults.length ? t("tools.summary.faults", { list: listed(t, faults.map(describeFault)) }) : t("tools.summary.no_faults"));
      if (warnings.length) parts.push(t("tools.summary.warnings", { list: listed(t, warnings.map(describeFault)) }));
      return parts.join(" ");
    },
  };
}

const documentId = (mapped: MappedDocument) => (mapped.type === "855" ? mapped.document.poNumber : mapped.type === "856" ? mapped.document.shipmentId : mapped.type === "810" ? mapped.document.invoiceNumber : "");

function documentPo(mapped: MappedDocument): string | undefined {
  if (mapped.type === "855") return mapped.document.poNumber || undefined;
  if (mapped.type === "856") return mapped.document.orders.find((order) => order.poNumber)?.poNumber;
  if (mapped.type === "810") return mapped.document.poNumber;
  return undefined;
}

const skuOf = (item: { sku?: string; vendorSku?: string }) => item.sku ?? item.vendorSku ?? "?";
const qtyOf = (quantity: number | undefined | null) => (quantity === undefined || quantity === null ? "?" : String(quantity));

function describeDocument(t: Translate, mapped: MappedDocument): string {
  switch (mapped.type) {
    case "855": {
      const ack = mapped.document;
      const lines = ack.lines.map((line) => {
        const first = line.acks[0];
        const vars = { sku: skuOf(line), qty: qtyOf(first?.quantity ?? line.quantity), status: line.status, date: first?.date };
        return t(first?.date ? "tools.summary.ack_line_date" : "tools.summary.ack_line", vars);
      });
      return t("tools.summary.ack", { po: ack.poNumber || "?", status: ack.status, lines: lines.length ? lines.join(", ") : t("tools.summary.no_lines") });
    }
    case "856": {
      const notice = mapped.document;
      const carrier = carrierName(notice.carrier);
      const orders = notice.orders.map((order) => {
        const items = order.items.map((item) => `${skuOf(item)} × ${qtyOf(item.quantity)}`).join(", ") || t("tools.summary.no_lines");
        const tracking = allTrackingNumbers({ trackingNumbers: [], orders: [order] });
        const all = tracking.length ? tracking : notice.trackingNumbers;
        return t("tools.summary.ship_order", { po: order.poNumber ?? "?", items, tracking: all.length ? all.join(", ") : t("tools.summary.no_tracking") });
      });
      return t("tools.summary.shipment", {
        id: notice.shipmentId || "?",
        carrier: carrier ? `${carrier}${notice.carrier?.scac && notice.carrier.scac !== carrier ? ` (${notice.carrier.scac})` : ""}` : t("tools.summary.unknown_carrier"),
        date: notice.shippedDate ?? notice.date ?? "?",
        orders: orders.join("; ") || t("tools.summary.no_lines"),
      });
    }
    case "810": {
      const invoice = mapped.document;
      const total = invoice.totalCents ?? invoiceTotalCents(invoice);
      return t("tools.summary.invoice", { number: invoice.invoiceNumber || "?", po: invoice.poNumber ?? "?", count: invoice.lines.length, total: money(total) });
    }
    default:
      return mapped.type;
  }
}

function summariseCsv(content: Buffer, expected: ParsedType): Summary {
  let pieces: Text[] = [];
  let errors: string[] = [];
  let refused = false;
  let po: string | null = null;
  if (expected === "855") {
    const read = csv.readAcknowledgementCsv(content);
    errors = read.errors.map((error) => error.message);
    refused = read.refused;
    po = read.rows[0]?.poNumber ?? null;
    const byPo = groupBy(read.rows, (row) => row.poNumber);
    pieces = [...byPo].map(([number, rows]) => (t: Translate) =>
      t("tools.summary.ack", {
        po: number,
        status: [...new Set(rows.map((row) => row.status))].join("/"),
        lines: rows.map((row) => t(row.expectedDate ? "tools.summary.ack_line_date" : "tools.summary.ack_line", { sku: row.sku, qty: row.quantity, status: row.status, date: row.expectedDate })).join(", "),
      }),
    );
  } else if (expected === "856") {
    const read = csv.readShipNoticeCsv(content);
    errors = read.errors.map((error) => error.message);
    refused = read.refused;
    po = read.rows[0]?.poNumber ?? null;
    pieces = read.rows.map((row) => (t: Translate) => t("tools.summary.csv_ship", { po: row.poNumber, sku: row.sku, qty: row.quantity, tracking: row.trackingNumber, carrier: row.carrier ?? t("tools.summary.unknown_carrier") }));
  } else {
    const read = csv.readInvoiceCsv(content);
    errors = read.errors.map((error) => error.message);
    refused = read.refused || read.invoices.length === 0;
    po = read.invoices[0]?.poNumber ?? read.invoices[0]?.lines[0]?.poNumber ?? null;
    pieces = read.invoices.map((invoice) => (t: Translate) =>
      t("tools.summary.invoice", { number: invoice.invoiceNumber, po: invoice.poNumber ?? [...new Set(invoice.lines.map((line) => line.poNumber))].join(", "), count: invoice.lines.length, total: money(Math.round(invoice.total * 100)) }),
    );
  }
  return {
    refused,
    faulty: errors.length > 0,
    po,
    text: (t) => {
      const parts = [t("tools.summary.rows", { count: pieces.length, type: t(`tools.documents.${expected}`) })];
      if (pieces.length) parts.push(`${listed(t, pieces.map((piece) => piece(t)))}.`);
      parts.push(errors.length ? t("tools.summary.faults", { list: listed(t, errors) }) : t("tools.summary.no_faults"));
      return parts.join(" ");
    },
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

async function sendGeneratedFiles(vendor: Vendor): Promise<Outcome> {
  assertConnectable(vendor);
  const waiting = await prisma.transmission.count({ where: { vendor_id: vendor.id, partner: "vendor", direction: "out", status: "prepared" } });
  if (waiting === 0) return { error: false, text: (t) => t("tools.messages.no_generated", { name: vendor.name }) };
  const report = new StepReport();
  await withVendorTransport(vendor, (transport) => deliverVendorFiles(vendor, transport, report));
  const sent = report.counts.files_sent ?? 0;
  const problems = report.problemCodes;
  return {
    error: problems.length > 0,
    text: (t) => `${t("tools.messages.generated_sent", { count: sent, waiting, name: vendor.name })}${problems.length ? ` ${t("tools.messages.problems", { list: renderCoded(t, joined(problems, "; ")) })}` : ""}`,
  };
}

async function receiveFiles(vendor: Vendor): Promise<Outcome> {
  assertConnectable(vendor);
  if (!vendor.sftp_incoming_folder) refuse("tools.messages.no_incoming", { name: vendor.name });
  if (vendor.enabled !== 1) refuse("tools.messages.disabled", { name: vendor.name });
  const result = await populateShipResponses({ vendorId: vendor.id });
  // The step's summary and its problems, in each language where they are codes (D117).
  const problems = result.problemCodes ?? [];
  if (!result.summary) return { error: result.error, text: () => result.message };
  const summary = result.summary;
  return {
    error: result.error,
    text: (t) => `${renderCoded(t, summary)}${problems.length ? ` ${t("tools.messages.problems", { list: renderCoded(t, joined(problems.slice(0, 5), "; ")) })}` : ""}`,
  };
}
