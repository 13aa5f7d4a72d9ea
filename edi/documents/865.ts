// 865 purchase order change acknowledgment: the vendor's answer to our 860
// (issue 29), parsed; and built, for the demo vendor and the tests. BCA is the
// 855's BAK for a change (same acknowledgment type codes), POC the 860's line
// as the vendor takes it, each with its ACK segments (same line status codes).
import { faultPhrase } from "../texts";
import type { SegmentData, TransactionData } from "../x12/writer";
import {
  checkTotals,
  decimal,
  dropUndefined,
  element,
  Issues,
  partySegments,
  pickSku,
  pickVendorSku,
  productIdElements,
  productIds,
  readDate,
  readNumber,
  readPartySegment,
  readReference,
  readTotals,
  referenceSegment,
  x12Date,
  type Parsed,
  type Party,
  type ProductIds,
  type Reference,
  type Segment,
  type TransactionView,
} from "./types";
import { readLineAck, statusOfAckType, statusWithoutAck, type LineAck, type LineStatus, type OrderAckStatus } from "./855";

export interface PurchaseOrderChangeAck {
  /** BCA01: 01 cancellation, 04 change, 00 original... */
  purpose?: string;
  /** BCA02 (see ACK_TYPE_CODES, as BAK02). */
  ackType?: string;
  /** BCA02 mapped. */
  status: OrderAckStatus;
  /** BCA03 */
  poNumber: string;
  /** BCA04 */
  releaseNumber?: string;
  /** BCA05: the change order sequence number our 860 gave (BCH05), as written. */
  changeNumber?: string;
  /** BCA06: the date of the purchase order. */
  poDate?: string;
  /** BCA07 */
  requestReference?: string;
  /** BCA08 */
  contractNumber?: string;
  /** BCA09: the vendor's own reference. */
  sellerReference?: string;
  references: Reference[];
  parties: Party[];
  lines: ChangeAckLine[];
  totals?: { lineCount?: number; hashTotal?: number };
}

/** A POC line (the change as the vendor takes it) and its ACK segments. */
export interface ChangeAckLine {
  /** POC01: our line number, as written. */
  lineNumber?: string;
  /** POC02: DI delete item, QD quantity decrease, CA changes to line items... */
  changeType?: string;
  /** POC03: the quantity ordered (after the change, for QD). */
  quantity?: number;
  /** POC04: the quantity left to receive. */
  quantityLeft?: number;
  uom?: string;
  unitPrice?: number;
  skus: ProductIds;
  sku?: string;
  vendorSku?: string;
  /** The first ACK's status; a line without ACK takes the acknowledgment's, as in an 855. */
  status: LineStatus;
  acks: LineAck[];
}

export function parse865(view: TransactionView): Parsed<PurchaseOrderChangeAck> {
  const issues = new Issues(view);
  const ack: PurchaseOrderChangeAck = { status: "unknown", poNumber: "", references: [], parties: [], lines: [] };
  let sawBca = false;
  let line: ChangeAckLine | undefined;
  let ctt: Segment | undefined;

  for (const segment of view.segments) {
    switch (segment.id) {
      case "BCA":
        sawBca = true;
        Object.assign(
          ack,
          dropUndefined({
            purpose: element(segment, 1),
            ackType: element(segment, 2),
            status: statusOfAckType(issues, segment),
            poNumber: element(segment, 3) ?? "",
            releaseNumber: element(segment, 4),
            changeNumber: element(segment, 5),
            poDate: readDate(issues, segment, 6),
            requestReference: element(segment, 7),
            contractNumber: element(segment, 8),
            sellerReference: element(segment, 9),
          }),
        );
        break;
      case "REF":
        if (!line) ack.references.push(readReference(segment));
        break;
      case "POC": {
        const skus = productIds(segment, 8);
        line = dropUndefined({
          lineNumber: element(segment, 1),
          changeType: element(segment, 2),
          quantity: readNumber(issues, segment, 3),
          quantityLeft: readNumber(issues, segment, 4),
          uom: element(segment, 5),
          unitPrice: readNumber(issues, segment, 6),
          skus,
          sku: pickSku(skus),
          vendorSku: pickVendorSku(skus),
          status: "unknown" as LineStatus,
          acks: [],
        });
        ack.lines.push(line);
        break;
      }
      case "ACK":
        if (!line) {
          issues.note(segment, faultPhrase("ack_before_poc"));
          break;
        }
        line.acks.push(readLineAck(issues, segment));
        break;
      case "CTT":
        ctt = segment;
        ack.totals = readTotals(issues, segment);
        line = undefined;
        break;
      default:
        if (!line) readPartySegment(segment, ack.parties);
    }
  }

  for (const each of ack.lines) each.status = each.acks[0]?.status ?? statusWithoutAck(ack.status);
  if (!sawBca) issues.missingSegment("BCA", view.segments[1]);
  // As in the 855: CTT02 is summed differently by different vendors; only the line count is checked.
  if (ctt) checkTotals(issues, ctt, ack, false);
  return issues.parsed(ack);
}

// ---------------------------------------------------------------------------
// Building (the demo vendor, the tests)

export interface PurchaseOrderChangeAckInput extends Omit<PurchaseOrderChangeAck, "status" | "ackType" | "lines" | "references" | "parties" | "totals"> {
  /** Default AT (accepted). */
  ackType?: string;
  references?: Reference[];
  parties?: Party[];
  lines: ChangeAckLineInput[];
}

export interface ChangeAckLineInput extends Omit<ChangeAckLine, "status" | "acks" | "skus"> {
  /** Defaults to { SK: sku } when only sku is given. */
  skus?: ProductIds;
  /** ACK01 codes with their quantity: default one ACK, ID (item deleted) for the POC's quantity. */
  acks?: (Omit<LineAck, "status"> & { status?: LineStatus })[];
}

/** BCA01 defaults to 04 (change), as the 860 it answers when lines are named. */
export function build865(ack: PurchaseOrderChangeAckInput, controlNumber: string): TransactionData {
  if (!ack.poNumber) throw new Error("865: poNumber is required");
  const acks = (line: ChangeAckLineInput) => line.acks ?? [{ code: "ID", quantity: line.quantity }];
  const segments: SegmentData[] = [
    [
      "BCA",
      ack.purpose ?? "04",
      ack.ackType ?? "AT",
      ack.poNumber,
      ack.releaseNumber,
      ack.changeNumber,
      x12Date(ack.poDate),
      ack.requestReference,
      ack.contractNumber,
      ack.sellerReference,
    ],
  ];
  for (const reference of ack.references ?? []) segments.push(referenceSegment(reference));
  for (const party of ack.parties ?? []) segments.push(...partySegments(party));
  let hashTotal = 0;
  for (const line of ack.lines) {
    hashTotal += line.quantity ?? 0;
    const skus = line.skus ?? (line.sku ? { SK: line.sku } : {});
    segments.push([
      "POC",
      line.lineNumber,
      line.changeType ?? "DI",
      decimal(line.quantity),
      decimal(line.quantityLeft),
      line.uom ?? "EA",
      decimal(line.unitPrice),
      undefined,
      ...productIdElements(skus),
    ]);
    for (const each of acks(line)) {
      segments.push([
        "ACK",
        each.code,
        decimal(each.quantity),
        each.uom ?? (each.quantity !== undefined ? (line.uom ?? "EA") : undefined),
        each.dateQualifier,
        x12Date(each.date),
      ]);
    }
  }
  segments.push(["CTT", ack.lines.length, decimal(hashTotal)]);
  return { setId: "865", controlNumber, segments };
}
