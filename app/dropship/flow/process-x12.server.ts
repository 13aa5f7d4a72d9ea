// X12 vendor files other than stock: read and mapped whole, then applied set
// by set; a set at fault is left out and rejected in our 997.
import { logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import { availableQuantity, documentFaults, judgeFaults, type LocatedDocument } from "@edi/documents";
import { ParseWorkerError, readAndMapX12, type X12Read } from "../parse/pool.server";
import type { Charge, LineStatus } from "@edi/documents";
import { netCharges } from "../invoice-checks";
import { allTrackingNumbers, type ShipNotice } from "@edi/documents";
import type { TradingProfile } from "@edi/vendor-profile";
import { type Fault } from "@edi/x12";
import {
  applyAcknowledgements,
  applyInvoiceLines,
  applyShipments,
  fileLogLine,
  type AckInput,
  type ApplyContext,
  type InvoiceInput,
  type ShipmentInput,
} from "./apply-responses.server";
import { vendorLog } from "./context.server";
import { faultError, summaryOf, type FileOutcome } from "./response-outcome.server";
import { queueAck997 } from "./response-answers.server";
import { logNotedFaults } from "./ack-997.server";
import { applyStock } from "./process-stock.server";
import { cancellationAnswerFrom855, cancellationAnswersFrom865, type CancellationAnswer } from "@edi/cancellations";
import { applyCancellationAnswers, refuseRejectedCancellations } from "./apply-cancellation-answers.server";
import { applyInSlices } from "./apply-slices.server";

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
        codes: document.ackType ? [document.ackType] : [],
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
      codes: [...new Set([document.ackType, ...line.acks.map((each) => each.code)].filter((code): code is string => Boolean(code)))],
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
  const changeAcks: CancellationAnswer[] = [];
  for (const located of documents) {
    const mapped = located.mapped;
    if (!mapped || faultsOf(faults, located).length) continue; // rejected in our 997
    counts[mapped.type] = (counts[mapped.type] ?? 0) + 1;
    switch (mapped.type) {
      case "997":
        await applyFunctionalAck(context, mapped.document);
        break;
      case "855": {
        // An 855 that answers our change (BAK01 01 or 04) answers a cancellation; any other acknowledges the PO.
        const answer = cancellationAnswerFrom855(mapped.document);
        if (answer) await applyCancellationAnswers(context, [answer], "855");
        else await applyInSlices(context, ackInputs(mapped.document), (slice) => applyAcknowledgements(context, slice));
        break;
      }
      case "865":
        // Gathered and settled together after the loop: a file of thousands of 865s is a few statements a slice.
        changeAcks.push(...cancellationAnswersFrom865(mapped.document));
        break;
      case "856":
        await applyInSlices(context, shipmentInputs(mapped.document), (slice) => applyShipments(context, slice));
        break;
      case "810": {
        const invoice = mapped.document;
        await applyInSlices(context, invoiceLines(invoice), (slice) => applyInvoiceLines(context, slice));
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
          ...fileLogLine(context, "warning"),
          ...logMessage("logs.dropship.holds_850", { file: context.fileName }),
        });
        break;
    }
  }
  await applyInSlices(context, changeAcks, (slice) => applyCancellationAnswers(context, slice, "865"));
  return counts;
}

function invoiceLines(invoice: {
  invoiceNumber: string;
  poNumber?: string;
  lines: Array<{ lineNumber?: string; sku?: string; vendorSku?: string; quantity?: number; unitPrice?: number; charges?: Charge[] }>;
  charges?: Charge[];
}): InvoiceInput[] {
  const { invoiceNumber } = invoice;
  const poNumber = invoice.poNumber ?? "";
  // The invoice's own SAC charges (freight, a discount) are shown beside each of its lines, never added to a line's cost (D242).
  const invoiceCharges = netCharges(invoice.charges);
  if (invoice.lines.length === 0) return [{ invoiceNumber, poNumber, invoiceCharges }];
  return invoice.lines.map((line) => ({
    invoiceNumber,
    poNumber,
    lineNumber: line.lineNumber ?? null,
    sku: line.sku ?? line.vendorSku ?? null,
    quantity: line.quantity ?? null,
    unitCost: line.unitPrice ?? null,
    amount: line.quantity !== undefined && line.unitPrice !== undefined ? Math.round(line.quantity * line.unitPrice * 100) / 100 : null,
    lineCharges: netCharges(line.charges),
    invoiceCharges,
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
    // Our cancellation file (860, or 850 BEG01 01/05): a rejected set is a refused cancellation (D225).
    if (rejected || rejectedSets.size) await refuseRejectedCancellations(context, sent.id, rejected ? "all" : rejectedSets, sent.file_name);
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

/**
 * An X12 file read whole, with its mapped documents (read before the batch
 * applies, to read its requests at once); `unreadable` when the parse worker
 * died on it (parse/pool.server.ts): the file fails, the run goes on.
 */
export type ReadX12 = X12Read | { unreadable: string };

export async function readWholeX12(content: Buffer, profile: TradingProfile, type: string | null): Promise<ReadX12> {
  try {
    return await readAndMapX12(content, { unwrap: type === "846" && profile.unwrap846, hints: profile.inputHints });
  } catch (error) {
    if (error instanceof ParseWorkerError) return { unreadable: error.message };
    throw error;
  }
}

/** The PO numbers a read file names, so a batch reads their requests in one statement. */
export function poNumbersOf(read: ReadX12): string[] {
  if ("unreadable" in read) return [];
  return read.documents.flatMap((located) => {
    const mapped = located.mapped;
    if (mapped?.type === "855" || mapped?.type === "810" || mapped?.type === "865") return mapped.document.poNumber ? [mapped.document.poNumber] : [];
    if (mapped?.type === "856") return mapped.document.orders.map((order) => order.poNumber ?? mapped.document.shipmentId);
    return [];
  });
}

export async function processX12(context: ApplyContext, profile: TradingProfile, read: ReadX12): Promise<FileOutcome> {
  if ("unreadable" in read) {
    return {
      status: "failed",
      error: `the file could not be read: ${read.unreadable}`,
      errorCode: message("logs.outcome.unreadable", { error: read.unreadable }),
      ...summaryOf("logs.outcome.not_x12"),
    };
  }
  const { result } = read;
  if (result.interchanges.length === 0) {
    const first = result.faults[0];
    const error = first ? faultError([first]) : { error: "no interchange in the file", errorCode: message("logs.outcome.no_interchange") };
    return { status: "failed", ...error, ...summaryOf("logs.outcome.not_x12") };
  }
  const documents = read.documents;
  // The vendor's strictness decides which content faults refuse their set (D219); a set no reader
  // maps is one of them (D220), so nothing is left "ignored".
  const judged = judgeFaults(result, documentFaults(result, documents), profile.strictness);
  // Faults past the first MAX_ISSUES_KEPT of a set are counted, not kept (edi/documents/types.ts).
  const faultsNotKept = documents.reduce((sum, d) => sum + (d.mapped?.notKept?.faults ?? 0), 0);
  const allFaults = judged.refusing;
  const counts = await applyX12(context, documents, allFaults);
  await queueAck997(context, profile, result, judged.content);
  logNotedFaults(context, judged.noted);
  const applied =
    Object.entries(counts)
      .map(([set, n]) => `${n} x ${set}`)
      .join(", ") || "nothing";
  if (allFaults.length) {
    const rejected = documents.length - Object.values(counts).reduce((sum, n) => sum + n, 0);
    return {
      status: Object.keys(counts).length ? "processed" : "failed",
      ...faultError(allFaults, faultsNotKept),
      ...summaryOf("logs.outcome.rejected", {
        applied: message("logs.outcome.applied", { applied }),
        sets: message("logs.n.transaction_set", { count: rejected }),
      }),
    };
  }
  return { status: "processed", ...summaryOf("logs.outcome.applied", { applied }) };
}
