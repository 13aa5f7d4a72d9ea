// Step 4, Process Ship Responses: each stored vendor file, in the vendor's
// order, is read and applied in one transaction that also marks it processed
// (or failed, with the segment at fault) and queues what goes out because of
// it: the 997 we answer with, and the AS400 copies of 810s and 846s. After
// the files: uploads of what was queued, Shopify fulfilments for shipments,
// and stock to Shopify. A file that cannot be read is kept, logged, answered
// with a rejecting 997, and never holds up the files after it.
import { englishText, logMessage } from "~/i18n/english.server";
import { Readable } from "node:stream";
import { countVendorFile } from "~/observability/metrics.server";
import prisma from "~/db.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message, type RunMessage } from "~/i18n/messages";
import type { Prisma, Vendor } from "~/db/generated/client";
import { availableQuantity, mapTransactions, type LocatedDocument } from "@edi/documents";
import { echoableGroup } from "@edi/documents";
import { ta1Interchanges, planTa1 } from "@edi/documents";
import type { LineStatus } from "@edi/documents";
import { allTrackingNumbers, type ShipNotice } from "@edi/documents";
import { addControlNumber, reserveControlNumbers, type SqlQuery } from "@edi/control-numbers";
import * as csv from "@edi/csv";
import { recogniseIncomingFile, sortIncomingFiles } from "@edi/incoming";
import { joinRemote, remoteEntryPath } from "@edi/transport";
import { PathError, TransportError } from "@edi/transport";
import type { TradingProfile } from "@edi/vendor-profile";
import { describeFault, faultMessage, type Fault } from "@edi/x12";
import { readInventoryStream } from "@edi/documents";
import { readX12, type ReadResult, type SegmentTable } from "@edi/x12";
import { as400ConnectionSettings } from "~/as400/connection.server";
import { withVendorTransport } from "../vendor-connection.server";
import { prepareWaiting997s, recordGroupAcks } from "./ack-997.server";
import {
  ApplyBatch,
  applyAcknowledgements,
  applyInvoiceLines,
  applyShipments,
  StockWriter,
  type AckInput,
  type ApplyContext,
  type InvoiceInput,
  type ShipmentInput,
} from "./apply-responses.server";
import { ensureVendorSequence, plural, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry, type StepResult } from "./context.server";
import { storePreparedFile } from "~/transfers/outgoing-files.server";
import { deliverAs400Copies, deliverVendorFiles, hasPreparedVendorFiles } from "./outbound.server";
import { fulfilShipments, syncInventoryToShopify } from "./shopify-sync.server";
import { crashPoint, testBatchSize } from "./crash-hook.server";
import { errorMessage } from "~/lib/error-message";

/** After this many unexpected failures (not a bad file: a bug or the database) a file is set aside as failed. */
const MAX_ATTEMPTS = 3;

const CARRIERS: Record<string, string> = {
  UPSN: "UPS",
  UPSS: "UPS",
  UPS: "UPS",
  FDEG: "FedEx",
  FDE: "FedEx",
  FEDX: "FedEx",
  FXFE: "FedEx",
  USPS: "USPS",
  DHL: "DHL",
  DHLC: "DHL",
  ONTR: "OnTrac",
  LSO: "LSO",
};

export function carrierName(carrier: ShipNotice["carrier"]): string | null {
  if (!carrier) return null;
  if (carrier.scac && CARRIERS[carrier.scac.toUpperCase()]) return CARRIERS[carrier.scac.toUpperCase()];
  return carrier.routing?.trim() || carrier.scac || null;
}

interface FileOutcome {
  status: "processed" | "failed";
  error?: string;
  /** The error as a code (D124): our fault sentences in the reader's language, the file's values inside them. */
  errorCode?: RunMessage;
  errorSegment?: string;
  summary: string;
  /** The summary as a code, for the log line (D114). */
  summaryCode?: RunMessage;
}

/** A file outcome's summary, in English and as a code. */
function summaryOf(code: string, params?: Record<string, unknown>): { summary: string; summaryCode: RunMessage } {
  const coded = message(code, params);
  return { summary: englishText(coded), summaryCode: coded };
}

// --- X12 -----------------------------------------------------------------------

/** The first fault of a file (by position) and how many more: the file's error, in English and as a code. */
function faultError(faults: Fault[]): Pick<FileOutcome, "error" | "errorCode" | "errorSegment"> {
  const first = [...faults].sort((a, b) => a.segmentIndex - b.segmentIndex)[0];
  const more = faults.length - 1;
  return {
    error: `${describeFault(first)}${more ? ` (and ${plural(more, "more fault")})` : ""}`,
    errorCode: more ? message("logs.dropship.fault_and_more", { fault: faultMessage(first), count: more }) : faultMessage(first),
    errorSegment: `${first.segmentIndex} ${first.segmentId}`,
  };
}

/** The first row error of a CSV file and how many more, in English and as a code. */
function rowError(errors: Array<{ message: string; coded?: RunMessage }>, count: number): Pick<FileOutcome, "error" | "errorCode"> {
  const more = count - 1;
  const first = errors[0].coded ?? { text: errors[0].message };
  return {
    error: `${errors[0].message}${more ? ` (and ${plural(more, "more error")})` : ""}`,
    errorCode: more ? message("logs.dropship.row_error_and_more", { error: first, count: more }) : first,
  };
}

const faultsOf = (faults: Fault[], d: LocatedDocument) =>
  faults.filter(
    (f) =>
      f.interchange === d.interchange && (f.group === undefined || f.group === d.group) && (f.transaction === undefined || f.transaction === d.transaction),
  );

function ackInputs(document: Extract<LocatedDocument["mapped"], { type: "855" }>["document"]): AckInput[] {
  if (document.lines.length === 0) {
    const status: LineStatus = document.status === "rejected" ? "rejected" : document.status === "held" ? "held" : "accepted";
    return [
      {
        poNumber: document.poNumber,
        status,
        detail: document.ackType ? `BAK02 ${document.ackType}` : null,
        note: document.ackType ? `BAK02 ${document.ackType}` : null,
      },
    ];
  }
  return document.lines.map((line) => {
    const ack = line.acks[0];
    const date = ack?.date && /^\d{8}$/.test(ack.date) ? `${ack.date.slice(0, 4)}-${ack.date.slice(4, 6)}-${ack.date.slice(6, 8)}` : ack?.date;
    return {
      poNumber: document.poNumber,
      sku: line.sku ?? line.vendorSku ?? null,
      quantity: ack?.quantity ?? line.quantity ?? null,
      status: line.status,
      detail: date ? `expected ${date}` : null,
      expected: date ?? null,
    };
  });
}

function shipmentInputs(notice: ShipNotice): ShipmentInput[] {
  const carrier = carrierName(notice.carrier);
  const out: ShipmentInput[] = [];
  for (const order of notice.orders) {
    const poNumber = order.poNumber ?? notice.shipmentId;
    const orderTracking = order.trackingNumbers[0] ?? notice.trackingNumbers[0] ?? null;
    if (order.items.length === 0) {
      out.push({ poNumber, trackingNumber: orderTracking ?? allTrackingNumbers({ trackingNumbers: [], orders: [order] })[0] ?? null, carrier });
      continue;
    }
    for (const item of order.items) {
      const packTracking = item.pack !== undefined ? order.packs[item.pack]?.trackingNumbers[0] : undefined;
      out.push({
        poNumber,
        sku: item.sku ?? item.vendorSku ?? null,
        quantity: item.quantity ?? null,
        trackingNumber: item.trackingNumbers[0] ?? packTracking ?? orderTracking,
        carrier,
      });
    }
  }
  return out;
}

async function applyX12(context: ApplyContext, documents: LocatedDocument[], faults: Fault[]) {
  const counts: Record<string, number> = {};
  for (const located of documents) {
    const mapped = located.mapped;
    if (!mapped || faultsOf(faults, located).length) continue; // rejected in our 997
    counts[mapped.type] = (counts[mapped.type] ?? 0) + 1;
    switch (mapped.type) {
      case "997":
        await applyFunctionalAck(context, mapped.document);
        break;
      case "855":
        await applyAcknowledgements(context, ackInputs(mapped.document));
        break;
      case "856":
        await applyShipments(context, shipmentInputs(mapped.document));
        break;
      case "810": {
        const invoice = mapped.document;
        await applyInvoiceLines(context, invoiceLines(invoice.invoiceNumber, invoice.poNumber ?? "", invoice.lines));
        break;
      }
      case "846":
        await applyStock(
          context,
          mapped.document.records.map((record) => ({ sku: record.sku ?? record.vendorSku ?? "", quantity: availableQuantity(record) ?? NaN })),
        );
        break;
      case "850":
        context.logs.push({
          ...vendorLog(context.vendor),
          action: "process_responses",
          status: "warning",
          file_name: context.fileName,
          transmission_id: context.transmissionId,
          ...logMessage("logs.dropship.holds_850", { file: context.fileName }),
        });
        break;
    }
  }
  return counts;
}

function invoiceLines(
  invoiceNumber: string,
  poNumber: string,
  lines: Array<{ sku?: string; vendorSku?: string; quantity?: number; unitPrice?: number }>,
): InvoiceInput[] {
  if (lines.length === 0) return [{ invoiceNumber, poNumber }];
  return lines.map((line) => ({
    invoiceNumber,
    poNumber,
    sku: line.sku ?? line.vendorSku ?? null,
    quantity: line.quantity ?? null,
    amount: line.quantity !== undefined && line.unitPrice !== undefined ? Math.round(line.quantity * line.unitPrice * 100) / 100 : null,
  }));
}

/** A 997 from the vendor: our 850 groups accepted or rejected. */
async function applyFunctionalAck(
  context: ApplyContext,
  ack: {
    groups: Array<{
      functionalId: string;
      controlNumber: string;
      status: string;
      transactions: Array<{ controlNumber: string; status: string; errorCodes: string[] }>;
    }>;
  },
) {
  // Rare (one per 850 we sent): the batch's request moves are written first, so the statuses read here are current.
  await context.batch.flush();
  for (const group of ack.groups) {
    const sent = await context.tx.transmission.findFirst({
      where: {
        vendor_id: context.vendor.id,
        direction: "out",
        partner: "vendor",
        group_control_number: group.controlNumber,
        transaction_set: group.functionalId === "PO" ? "850" : { not: null },
      },
      orderBy: { id: "desc" },
    });
    const base = { ...vendorLog(context.vendor), action: "process_responses" as const, file_name: context.fileName, transmission_id: context.transmissionId };
    if (!sent) {
      context.logs.push({
        ...base,
        status: "warning",
        ...logMessage("logs.dropship.ack_unknown_group", { group: group.controlNumber, functional_id: group.functionalId, vendor: context.vendor.name }),
      });
      continue;
    }
    const rejected = group.status === "rejected";
    await context.tx.transmission.update({ where: { id: sent.id }, data: { status: rejected ? "rejected" : "accepted" } });
    const rejectedSets = new Set(group.transactions.filter((t) => t.status === "rejected").map((t) => t.controlNumber));
    const requests = await context.tx.dropshipRequest.findMany({ where: { transmission_id: sent.id }, orderBy: { request_id: "asc" } });
    // The 850's transactions were written in request order: ST02 i is request i.
    const refused = requests.filter((request, i) => rejected || rejectedSets.has(sent.transaction_control_numbers[i] ?? ""));
    for (const request of refused) {
      if (request.status === "sent") {
        await context.tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "rejected" } });
        context.batch.statusWritten(request.po_number, "rejected");
      }
      context.logs.push({
        ...base,
        status: "error",
        po_number: request.po_number,
        order_increment_id: request.order_increment_id,
        item_sku: request.item_sku,
        qty: request.qty,
        ...logMessage("logs.dropship.po_rejected_997", { vendor: context.vendor.name, po: request.po_number, file: sent.file_name }),
      });
    }
    context.logs.push({
      ...base,
      action: "ack_997",
      status: refused.length ? "error" : "success",
      ...logMessage(rejected ? "logs.dropship.group_rejected" : refused.length ? "logs.dropship.group_accepted_except" : "logs.dropship.group_accepted", {
        file: sent.file_name,
        group: group.controlNumber,
        vendor: context.vendor.name,
        pos: message("logs.n.po", { count: refused.length }),
      }),
    });
  }
}

/** False, with a log line, when the vendor's 846s do not set stock. */
function stockEnabled(context: ApplyContext): boolean {
  if (context.vendor.edi846_enabled === 1) return true;
  context.logs.push({
    ...vendorLog(context.vendor),
    action: "process_responses",
    status: "warning",
    file_name: context.fileName,
    transmission_id: context.transmissionId,
    ...logMessage("logs.dropship.stock_not_enabled", { vendor: context.vendor.name }),
  });
  return false;
}

async function stockApplied(context: ApplyContext, writer: StockWriter) {
  await writer.flush();
  context.logs.push({
    ...vendorLog(context.vendor),
    action: "process_responses",
    status: "success",
    file_name: context.fileName,
    transmission_id: context.transmissionId,
    ...logMessage("logs.dropship.stock_applied", {
      lines: message("logs.n.sku_line", { count: writer.read }),
      levels: message("logs.n.stock_level", { count: writer.changed }),
      vendor: context.vendor.name,
    }),
  });
  await queueAs400Copy(context, "846", context.vendor.edi846_as400_filepath);
}

async function applyStock(context: ApplyContext, items: Array<{ sku: string; quantity: number }>) {
  if (!stockEnabled(context)) return;
  const writer = new StockWriter(context);
  for (const item of items) await writer.add(item);
  await stockApplied(context, writer);
}

/**
 * A stored file's bytes, read from PostgreSQL only as needed: its head (to
 * recognise it), 1 MB slices (the stream readers hold one slice and a few
 * records, so a 50 MB 846 never sits in memory whole), or all of it for the
 * documents that are read whole (855, 856, 810: small by nature).
 */
interface StoredContent {
  head: Buffer;
  size: number;
  pieces(): Readable;
  whole(): Promise<Buffer>;
}

const SLICE_BYTES = 1 << 20;

function storedContent(tx: Prisma.TransactionClient, transmissionId: number, head: Buffer, size: number, claimed: Uint8Array | null = null): StoredContent {
  return {
    head,
    size,
    pieces: () =>
      Readable.from(
        (async function* () {
          for (let start = 0; start < size; start += SLICE_BYTES) {
            const [row] = await tx.$queryRaw<Array<{ piece: Uint8Array }>>`
              SELECT substring(content from ${start + 1}::int for ${SLICE_BYTES}::int) AS piece FROM transmission WHERE id = ${transmissionId}`;
            yield Buffer.from(row.piece);
          }
        })(),
      ),
    whole: async () => {
      if (claimed) return Buffer.from(claimed);
      const [row] = await tx.$queryRaw<Array<{ content: Uint8Array }>>`SELECT content FROM transmission WHERE id = ${transmissionId}`;
      return Buffer.from(row.content);
    },
  };
}

/** The 997 builder wants the segments of a whole read only for AK4 values and 005010 conventions; a streamed 846 leaves those out. */
const NO_SEGMENTS = { length: 0, elements: () => [] } as unknown as SegmentTable;

/**
 * An X12 file of 846s, read as a stream twice: once to find the sets at fault
 * (rejected in our 997, as processX12 does), then to apply the others a batch
 * at a time. Null when the file holds other sets too: processX12 reads it whole.
 */
async function processX12Stock(context: ApplyContext, profile: TradingProfile, content: StoredContent): Promise<FileOutcome | null> {
  const unwrap = profile.unwrap846;
  const checked = await readInventoryStream(content.pieces(), () => {}, { unwrap });
  const { envelope } = checked;
  const sets = envelope.interchanges.flatMap((interchange, i) =>
    interchange.groups.flatMap((group, g) =>
      group.transactions.map((transaction, t) => ({ setId: transaction.setId, location: { interchange: i, group: g, transaction: t } })),
    ),
  );
  if (envelope.interchanges.length === 0 || sets.some((set) => set.setId !== "846")) return null;
  const allFaults = [...envelope.faults, ...checked.faults];
  const atFault = (location: { interchange: number; group: number; transaction: number }) =>
    allFaults.some(
      (f) =>
        f.interchange === location.interchange &&
        (f.group === undefined || f.group === location.group) &&
        (f.transaction === undefined || f.transaction === location.transaction),
    );
  const applied = sets.filter((set) => !atFault(set.location)).length;
  if (applied > 0 && stockEnabled(context)) {
    const writer = new StockWriter(context);
    // One location object per set: judged once per set, not per line.
    let lastLocation: object | null = null;
    let skipSet = false;
    await readInventoryStream(
      content.pieces(),
      (record, { location }) => {
        if (location !== lastLocation) [lastLocation, skipSet] = [location, atFault(location)];
        if (!skipSet) return writer.add({ sku: record.sku ?? record.vendorSku ?? "", quantity: availableQuantity(record) ?? NaN });
      },
      { unwrap },
    );
    await stockApplied(context, writer);
  }
  await queueAck997(
    context,
    profile,
    { interchanges: envelope.interchanges, faults: envelope.faults, warnings: envelope.warnings, segments: NO_SEGMENTS },
    checked.faults,
  );
  const summary = applied ? message("logs.outcome.applied", { applied: `${applied} x 846` }) : message("logs.outcome.applied_nothing");
  if (allFaults.length === 0) return { status: "processed", ...summaryOf(summary.code, summary.params) };
  return {
    status: applied ? "processed" : "failed",
    ...faultError(allFaults),
    ...summaryOf("logs.outcome.rejected", { applied: summary, sets: message("logs.n.transaction_set", { count: sets.length - applied }) }),
  };
}

/** An inventory CSV, read as a stream and applied a batch at a time. */
async function processCsvStock(context: ApplyContext, content: StoredContent): Promise<FileOutcome> {
  const enabled = stockEnabled(context);
  const writer = new StockWriter(context);
  const read = await csv.readInventoryCsvStream(content.pieces(), (row) => (enabled ? writer.add({ sku: row.sku, quantity: row.quantity }) : undefined));
  if (enabled) await stockApplied(context, writer);
  csvRowErrors(context, read.errors);
  if (read.errorCount) {
    return {
      status: read.rowCount ? "processed" : "failed",
      ...rowError(read.errors, read.errorCount),
      ...summaryOf("logs.outcome.rows_refused", {
        rows: message("logs.n.row", { count: read.rowCount }),
        refused: message("logs.n.row", { count: read.errorCount }),
      }),
    };
  }
  return { status: "processed", ...summaryOf("logs.outcome.rows_applied", { rows: message("logs.n.row", { count: read.rowCount }) }) };
}

/** The copy of the vendor's file for the AS400, queued with the file (sent after the transaction). */
async function queueAs400Copy(context: ApplyContext & { content?: Buffer }, set: "810" | "846", folder: string | null) {
  if (!folder) return;
  const base = { ...vendorLog(context.vendor), action: "as400_copy" as const, file_name: context.fileName, transmission_id: context.transmissionId };
  if (!as400ConnectionSettings()) {
    context.logs.push({ ...base, status: "warning", ...logMessage("logs.dropship.copy_not_configured", { set, folder }) });
    return;
  }
  let remotePath: string;
  try {
    // The vendor's file name, from its listing: a name that is a path would land in another AS400 folder (D61).
    remotePath = remoteEntryPath(folder, context.fileName);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    context.logs.push({ ...base, status: "error", ...logMessage("logs.dropship.copy_bad_path", { set, folder, error: error.message }) });
    return;
  }
  const original = await context.tx.transmission.findUniqueOrThrow({ where: { id: context.transmissionId }, select: { content: true } });
  await storePreparedFile(
    {
      vendorId: context.vendor.id,
      partner: "as400",
      remotePath,
      transactionSet: set,
      content: Buffer.from(original.content),
      replyToId: context.transmissionId,
    },
    context.tx,
  );
}

/**
 * What answers the file (D73): a 997 for every group a 997 can name (never for
 * FA groups: a 997 or 999 is not acknowledged), recorded per group and written
 * once per vendor and run (D100, ack-997.server.ts), and a TA1 for each
 * interchange that asked for one (ISA14 = 1) or whose envelope is at fault and
 * cannot carry a 997, queued with the file. Both under the vendor's `997_enabled`.
 */
async function queueAck997(
  context: ApplyContext,
  profile: TradingProfile,
  result: Pick<ReadResult, "interchanges" | "faults" | "warnings" | "segments">,
  extraFaults: Fault[],
) {
  if (context.vendor.edi997_enabled !== 1) return;
  const answers = planTa1(result, { delimiters: profile.output });
  const groups = result.interchanges.flatMap((interchange) => interchange.groups.filter((group) => group.functionalId !== "FA" && echoableGroup(group)));
  if (groups.length === 0 && answers.length === 0) return; // never acknowledge an acknowledgement
  const folder = context.vendor.sftp_outcoming_folder;
  if (!folder) {
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "ack_997",
      status: "warning",
      file_name: context.fileName,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.no_outcoming_folder", { set: groups.length ? "997" : "TA1" }),
    });
    return;
  }
  if (groups.length) {
    const acknowledged = recordGroupAcks(context, profile, result, extraFaults);
    if (acknowledged.length) {
      const rejected = acknowledged.some((group) => group.status === "rejected" || group.status === "partially_accepted");
      context.logs.push({
        ...vendorLog(context.vendor),
        action: "ack_997",
        status: rejected ? "warning" : "info",
        file_name: context.fileName,
        transmission_id: context.transmissionId,
        ...logMessage("logs.dropship.file_997", {
          file: context.fileName,
          vendor: context.vendor.name,
          groups: acknowledged.map((group) => message(`logs.dropship.group_status.${group.status}`, { group: group.controlNumber })),
        }),
      });
    }
  }
  if (answers.length) {
    const query: SqlQuery = (sql, params) => context.tx.$queryRawUnsafe(sql, ...params);
    // One number per TA1; consecutive (a wrap from 999999999 to 1 counts as consecutive).
    let numbers = await reserveControlNumbers(query, context.vendor.id, answers.length);
    while (numbers.some((n, i) => i > 0 && n !== addControlNumber(numbers[i - 1])))
      numbers = await reserveControlNumbers(query, context.vendor.id, answers.length);
    const first = numbers[0];
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const ta1 = ta1Interchanges(result, {
      delimiters: profile.output,
      sender: profile.sender,
      receiver: profile.receiver,
      usage: profile.usage,
      controlNumber: first,
    });
    const name = `TA1_${context.vendor.store_id}_${stamp}_${String(first).padStart(9, "0")}.edi`;
    await storePreparedFile(
      {
        vendorId: context.vendor.id,
        partner: "vendor",
        remotePath: joinRemote(folder, name),
        transactionSet: "TA1",
        content: Buffer.from(ta1.text),
        interchangeControlNumber: String(first).padStart(9, "0"),
        replyToId: context.transmissionId,
      },
      context.tx,
    );
    const rejected = ta1.answers.some((answer) => answer.code !== "A");
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "ack_997",
      status: rejected ? "warning" : "info",
      file_name: name,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.ta1_queued", {
        name,
        file: context.fileName,
        answers: ta1.answers.map((answer) =>
          message(`logs.dropship.ta1_answer.${answer.code === "A" || answer.code === "E" ? answer.code : "R"}`, {
            number: answer.controlNumber,
            note: answer.note,
          }),
        ),
      }),
    });
  }
}

/** An X12 file read whole, with its mapped documents (read before the batch applies, to read its requests at once). */
interface ReadX12 {
  result: ReadResult;
  documents: LocatedDocument[];
}

function readWholeX12(content: Buffer, profile: TradingProfile, type: string | null): ReadX12 {
  const result = readX12(content, { unwrap: type === "846" && profile.unwrap846, hints: profile.inputHints });
  return { result, documents: result.interchanges.length ? mapTransactions(result) : [] };
}

/** The PO numbers a read file names, so a batch reads their requests in one statement. */
function poNumbersOf(read: ReadX12): string[] {
  return read.documents.flatMap((located) => {
    const mapped = located.mapped;
    if (mapped?.type === "855" || mapped?.type === "810") return mapped.document.poNumber ? [mapped.document.poNumber] : [];
    if (mapped?.type === "856") return mapped.document.orders.map((order) => order.poNumber ?? mapped.document.shipmentId);
    return [];
  });
}

async function processX12(context: ApplyContext, profile: TradingProfile, read: ReadX12): Promise<FileOutcome> {
  const { result } = read;
  if (result.interchanges.length === 0) {
    const first = result.faults[0];
    const error = first ? faultError([first]) : { error: "no interchange in the file", errorCode: message("logs.outcome.no_interchange") };
    return { status: "failed", ...error, ...summaryOf("logs.outcome.not_x12") };
  }
  const documents = read.documents;
  const contentFaults = documents.flatMap((d) => d.mapped?.faults ?? []);
  const unknownSets = documents.filter((d) => !d.mapped).map((d) => d.setId);
  const allFaults = [...result.faults, ...contentFaults];
  const counts = await applyX12(context, documents, allFaults);
  await queueAck997(context, profile, result, contentFaults);
  const applied =
    Object.entries(counts)
      .map(([set, n]) => `${n} x ${set}`)
      .join(", ") || "nothing";
  if (allFaults.length) {
    const rejected = documents.length - Object.values(counts).reduce((sum, n) => sum + n, 0);
    return {
      status: Object.keys(counts).length ? "processed" : "failed",
      ...faultError(allFaults),
      ...summaryOf("logs.outcome.rejected", {
        applied: message("logs.outcome.applied", { applied }),
        sets: message("logs.n.transaction_set", { count: rejected }),
      }),
    };
  }
  if (unknownSets.length)
    return { status: "processed", ...summaryOf("logs.outcome.ignored_sets", { applied, sets: unknownSets.join(", "), count: unknownSets.length }) };
  return { status: "processed", ...summaryOf("logs.outcome.applied", { applied }) };
}

// --- CSV -----------------------------------------------------------------------

function csvRowErrors(context: ApplyContext, errors: Array<{ message: string; coded?: RunMessage }>) {
  for (const error of errors.slice(0, 20)) {
    // The row error is our sentence (D124) with the file's values in it; the file name is data.
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "process_responses",
      status: "error",
      file_name: context.fileName,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.row_error", { file: context.fileName, error: error.coded ?? { text: error.message } }),
    });
  }
}

async function processCsv(context: ApplyContext, stored: StoredContent, type: string | null): Promise<FileOutcome> {
  if (type === "846") return processCsvStock(context, stored);
  const content = await stored.whole();
  let applied = 0;
  let errors: Array<{ message: string; coded?: RunMessage }> = [];
  switch (type) {
    case "855": {
      const read = csv.readAcknowledgementCsv(content);
      errors = read.errors;
      await applyAcknowledgements(
        context,
        read.rows.map((row) => ({
          poNumber: row.poNumber,
          sku: row.sku,
          quantity: row.quantity,
          status: row.status,
          detail: [row.expectedDate && `expected ${row.expectedDate}`, row.message].filter(Boolean).join("; ") || null,
          expected: row.expectedDate || null,
          note: row.message || null,
        })),
      );
      applied = read.rows.length;
      break;
    }
    case "856": {
      const read = csv.readShipNoticeCsv(content);
      errors = read.errors;
      await applyShipments(
        context,
        read.rows.map((row) => ({ poNumber: row.poNumber, sku: row.sku, quantity: row.quantity, trackingNumber: row.trackingNumber, carrier: row.carrier })),
      );
      applied = read.rows.length;
      break;
    }
    case "810": {
      const read = csv.readInvoiceCsv(content);
      errors = read.errors;
      for (const invoice of read.invoices) {
        await applyInvoiceLines(
          context,
          invoice.lines.map((line) => ({
            invoiceNumber: invoice.invoiceNumber,
            poNumber: line.poNumber,
            sku: line.sku,
            quantity: line.quantity,
            amount: line.lineTotal,
          })),
        );
        applied += invoice.lines.length;
      }
      if (applied) await queueAs400Copy(context, "810", context.vendor.edi810_as400_filepath);
      break;
    }
    default:
      return {
        status: "failed",
        error: `not a CSV document this app knows (${type ?? "no recognisable header"})`,
        errorCode: message("logs.outcome.unknown_csv", { type: type ?? message("logs.outcome.no_header") }),
        ...summaryOf("logs.outcome.not_recognised"),
      };
  }
  csvRowErrors(context, errors);
  if (errors.length) {
    return {
      status: applied ? "processed" : "failed",
      ...rowError(errors, errors.length),
      ...summaryOf("logs.outcome.rows_refused", { rows: message("logs.n.row", { count: applied }), refused: message("logs.n.row", { count: errors.length }) }),
    };
  }
  return { status: "processed", ...summaryOf("logs.outcome.rows_applied", { rows: message("logs.n.row", { count: applied }) }) };
}

// --- stored files, a batch per transaction ----------------------------------------

/** Files per transaction (D102): their requests read and their results written a statement each. */
const FILES_PER_BATCH = testBatchSize(100);
/** Files up to this size come with the claim; larger ones (a stock file of MBs) are read in slices. */
const CLAIM_CONTENT_BYTES = 256 * 1024;

interface ClaimedFile {
  id: number;
  file_name: string;
  transaction_set: string | null;
  head: Uint8Array;
  bytes: number;
  content: Uint8Array | null;
}

/** Processes one stored file; false when another run has it or it is already done. */
export async function processStoredFile(transmissionId: number, vendor: Vendor, report: StepReport): Promise<boolean> {
  return (await processStoredFiles([transmissionId], vendor, report)) > 0;
}

/**
 * Processes stored files of one vendor, in the order given, in one
 * transaction (D102): claimed at once (FOR UPDATE SKIP LOCKED: a file another
 * run holds is left to it), the requests they name read in one statement, and
 * what they apply (responses, request moves, group acknowledgements, the
 * files' outcomes, logs) written a statement each. Answers how many it took.
 * A crash or error leaves every file of the batch as it was.
 */
export async function processStoredFiles(transmissionIds: number[], vendor: Vendor, report: StepReport): Promise<number> {
  const { profile, problems, problemCodes } = vendorProfile(vendor);
  await ensureVendorSequence(vendor.id);
  const outcomes = await prisma.$transaction(
    async (tx) => {
      const claimed = await tx.$queryRaw<ClaimedFile[]>`
        SELECT id, file_name, transaction_set, substring(content from 1 for 4096) AS head, octet_length(content) AS bytes,
               CASE WHEN octet_length(content) <= ${CLAIM_CONTENT_BYTES}::int THEN content END AS content
          FROM transmission WHERE id = ANY(${transmissionIds}::int[]) AND status = 'received' FOR UPDATE SKIP LOCKED`;
      const byId = new Map(claimed.map((file) => [file.id, file]));
      const files = transmissionIds.map((id) => byId.get(id)).filter((file): file is ClaimedFile => file !== undefined);
      if (files.length === 0) return [];
      const batch = new ApplyBatch(tx as Prisma.TransactionClient);
      const settingsUnusable = problems.length > 0 && profile.format === "x12" && problems.some((p) => /identifier|qualifier/.test(p));
      const isX12 = (file: ClaimedFile) => profile.format !== "csv" || /^\s*ISA/.test(Buffer.from(file.head).subarray(0, 16).toString("latin1"));
      const typeOf = (file: ClaimedFile) =>
        file.transaction_set ?? recogniseIncomingFile(file.file_name, Buffer.from(file.head), vendor as never, profile).type;
      // X12 files read whole up front: the requests all of them name are read in one statement.
      const reads = new Map<number, ReadX12>();
      if (!settingsUnusable) {
        for (const file of files) {
          const type = typeOf(file);
          if (file.content && isX12(file) && type !== "846") reads.set(file.id, readWholeX12(Buffer.from(file.content), profile, type));
        }
        await batch.prefetch([...reads.values()].flatMap(poNumbersOf));
      }
      const logs: LogEntry[] = [];
      const results: Array<{ file: ClaimedFile; type: string | null; outcome: FileOutcome }> = [];
      for (const file of files) {
        const content = storedContent(tx as Prisma.TransactionClient, file.id, Buffer.from(file.head), Number(file.bytes), file.content);
        const context: ApplyContext = { tx: tx as Prisma.TransactionClient, batch, vendor, transmissionId: file.id, fileName: file.file_name, logs };
        const type = typeOf(file);
        let outcome: FileOutcome;
        if (settingsUnusable) {
          outcome = {
            status: "failed",
            error: `the vendor's settings are not usable: ${problems.join("; ")}`,
            errorCode: message("logs.outcome.vendor_settings_unusable", { problems: problemCodes }),
            ...summaryOf("logs.outcome.vendor_settings"),
          };
        } else if (!isX12(file)) {
          outcome = await processCsv(context, content, type);
        } else {
          // A vendor's stock file can be tens of MB: streamed, not read whole (issue 15, 3c).
          outcome =
            (type === "846" ? await processX12Stock(context, profile, content) : null) ??
            (await processX12(context, profile, reads.get(file.id) ?? readWholeX12(await content.whole(), profile, type)));
        }
        if (outcome.status === "processed" && type === "810" && profile.format === "x12")
          await queueAs400Copy(context, "810", vendor.edi810_enabled === 1 ? vendor.edi810_as400_filepath : null);
        logs.push({
          ...vendorLog(vendor),
          action: "process_responses",
          status: outcome.status === "failed" ? "error" : outcome.error ? "warning" : "success",
          file_name: file.file_name,
          transmission_id: file.id,
          // The fault is our sentence about the file (D124, errorCode), with the file's segments and values in it as data.
          ...(outcome.status === "failed"
            ? logMessage(vendor.edi997_enabled === 1 && profile.format === "x12" ? "logs.dropship.process_failed_997" : "logs.dropship.process_failed", {
                file: file.file_name,
                error: outcome.errorCode ?? outcome.error,
                id: file.id,
              })
            : logMessage("logs.dropship.processed", {
                file: file.file_name,
                summary: outcome.summaryCode ?? outcome.summary,
                error: outcome.error ? message("logs.paren", { text: outcome.errorCode ?? outcome.error }) : "",
              })),
        });
        results.push({ file, type, outcome });
      }
      await batch.flush();
      // Every file's outcome in one statement.
      const fileOutcomes = results.map(({ file, type, outcome }) => ({
        id: file.id,
        status: outcome.status,
        error: outcome.error ?? null,
        error_segment: outcome.errorSegment ?? null,
        transaction_set: type,
      }));
      // The logs before the files' outcomes: each log line's foreign key to its file is then checked against a row this
      // transaction has only locked, which costs a tenth of checking it against a row it has already updated (D141).
      await writeLogs(logs, tx as Prisma.TransactionClient);
      await tx.$executeRaw`
        UPDATE transmission t SET status = o.status, error = o.error, error_segment = o.error_segment, processed_at = now(),
                                  transaction_set = o.transaction_set, updated_at = now()
          FROM jsonb_to_recordset(${JSON.stringify(fileOutcomes)}::jsonb)
               AS o(id int, status text, error text, error_segment text, transaction_set text)
         WHERE t.id = o.id`;
      return results;
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  crashPoint("after-apply");
  // Counted once committed.
  for (const { file, outcome } of outcomes) {
    report.count(outcome.status === "failed" ? "files_failed" : "files_processed");
    countVendorFile(outcome.status === "failed" ? "failed" : "processed", vendor.id);
    if (outcome.status === "failed")
      report.problem(
        `${vendor.name}: ${file.file_name} ${outcome.error}`,
        message("logs.dropship.file_error", { vendor: vendor.name, file: file.file_name, error: outcome.errorCode ?? outcome.error ?? "" }),
      );
  }
  return outcomes.length;
}

/** Not the file's fault (the database, a bug): tried again next run, set aside after MAX_ATTEMPTS. */
async function fileFailed(file: { id: number; file_name: string }, vendor: Vendor, error: unknown, report: StepReport) {
  const updated = await prisma.transmission.update({ where: { id: file.id }, data: { attempts: { increment: 1 }, error: errorMessage(error) } });
  if (updated.attempts >= MAX_ATTEMPTS) {
    await prisma.transmission.update({ where: { id: file.id }, data: { status: "failed" } });
    countVendorFile("set_aside", vendor.id);
  }
  report.problem(`${vendor.name}: ${file.file_name}: ${errorMessage(error)}`);
  await writeLogs([
    {
      ...vendorLog(vendor),
      action: "process_responses",
      status: "error",
      file_name: file.file_name,
      transmission_id: file.id,
      ...logMessage(updated.attempts >= MAX_ATTEMPTS ? "logs.dropship.processing_set_aside" : "logs.dropship.processing_failed", {
        file: file.file_name,
        error: errorMessage(error),
      }),
    },
  ]);
}

/** Stored files waiting, with their first bytes (for vendors who sort by contents). */
async function waitingFiles(vendorId?: number) {
  // The first bytes only for vendors who sort by them: 10,000 waiting files are not 40 MB of heads.
  return prisma.$queryRaw<Array<{ id: number; vendor_id: number; file_name: string; head: Uint8Array | null }>>`
    SELECT t.id, t.vendor_id, t.file_name, CASE WHEN v.sort_files_by_file_contents = 1 THEN substring(t.content from 1 for 4096) END AS head
      FROM transmission t JOIN dropship_vendor v ON v.id = t.vendor_id
     WHERE t.direction = 'in' AND t.partner = 'vendor' AND t.status = 'received'
       AND (${vendorId ?? null}::int IS NULL OR t.vendor_id = ${vendorId ?? null}::int)
     ORDER BY t.vendor_id, t.id`;
}

export async function processShipResponses(options: { vendorId?: number; transmissionIds?: number[] } = {}): Promise<StepResult> {
  const report = new StepReport();
  let files = await waitingFiles(options.vendorId);
  if (options.transmissionIds) files = files.filter((file) => options.transmissionIds!.includes(file.id));
  const vendorIds = [...new Set(files.map((file) => file.vendor_id))];
  const vendors = new Map((await prisma.vendor.findMany({ where: { id: { in: vendorIds } } })).map((vendor) => [vendor.id, vendor]));
  let done = 0;
  report.progress(done, files.length, "files");
  for (const vendorId of vendorIds) {
    const vendor = vendors.get(vendorId)!;
    const { profile } = vendorProfile(vendor);
    const mine = sortIncomingFiles(
      files
        .filter((file) => file.vendor_id === vendorId)
        .map((file) => ({ ...file, name: file.file_name, firstBytes: file.head ? Buffer.from(file.head) : Buffer.alloc(0) })),
      profile,
    );
    for (let i = 0; i < mine.length; i += FILES_PER_BATCH) {
      const chunk = mine.slice(i, i + FILES_PER_BATCH);
      try {
        await processStoredFiles(
          chunk.map((file) => file.id),
          vendor,
          report,
        );
        continue;
      } catch (error) {
        // One file's trouble must not hold up the others: the batch again, a file at a time.
        if (chunk.length === 1) {
          await fileFailed(chunk[0], vendor, error, report);
          continue;
        }
      }
      for (const file of chunk) {
        try {
          await processStoredFiles([file.id], vendor, report);
        } catch (error) {
          await fileFailed(file, vendor, error, report);
        }
      }
      report.progress(++done, files.length, "files");
    }
  }
  // One 997 per vendor for the groups of this run's files (and any a crashed run left), then the uploads.
  await prepareWaiting997s(report);
  await deliverAnswers(report);
  await fulfilShipments(report);
  await syncInventoryToShopify(report);
  await deliverAs400Copies(report);
  const summary = files.length
    ? `${plural(report.counts.files_processed ?? 0, "file")} processed, ${report.counts.files_failed ?? 0} ` +
      `failed; ${plural(report.counts.fulfilments ?? 0, "fulfilment")} created in Shopify.`
    : `No new vendor files; ${plural(report.counts.fulfilments ?? 0, "fulfilment")} created in Shopify.`;
  const coded =
    report.counts.files_processed || report.counts.files_failed
      ? message("dropship_test.results.process_responses", {
          files: message("runs.n.file", { count: report.counts.files_processed ?? 0 }),
          failed: report.counts.files_failed ?? 0,
          fulfilments: message("runs.n.fulfilment", { count: report.counts.fulfilments ?? 0 }),
        })
      : message("dropship_test.results.process_responses_none", { fulfilments: message("runs.n.fulfilment", { count: report.counts.fulfilments ?? 0 }) });
  return report.result(summary, coded);
}

/** Uploads the queued 997s (and anything else prepared) of every vendor that has some. */
export async function deliverAnswers(report: StepReport) {
  const vendorIds = (
    await prisma.transmission.findMany({
      where: { direction: "out", partner: "vendor", status: "prepared" },
      distinct: ["vendor_id"],
      select: { vendor_id: true },
    })
  )
    .map((row) => row.vendor_id!)
    .filter(Boolean);
  for (const vendor of await prisma.vendor.findMany({ where: { id: { in: vendorIds }, enabled: 1 } })) {
    if (!(await hasPreparedVendorFiles(vendor.id))) continue;
    try {
      await withVendorTransport(vendor, (transport) => deliverVendorFiles(vendor, transport, report));
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      report.problem(`${vendor.name}: ${error.message}`, message("transport.problems.vendor_error", { vendor: vendor.name, error: errorRunMessage(error) }));
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "send_file",
          status: "error",
          ...logMessage("logs.dropship.upload_vendor_failed", { vendor: vendor.name, error: error.message }),
        },
      ]);
    }
  }
}
