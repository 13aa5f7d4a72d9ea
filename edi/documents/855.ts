// 855 purchase order acknowledgment: what the vendor says it will do with
// each line of our 850 (accept, change, backorder, reject), parsed; and built,
// for the demo vendor and the tests.
import { faultPhrase } from "../texts";
import type { SegmentData, TransactionData } from "../x12/writer";
import {
  checkTotals,
  decimal,
  dropUndefined,
  element,
  Issues,
  partySegments,
  productIdElements,
  productIds,
  readBaselineItem,
  readItemDescription,
  readDate,
  readNumber,
  readPartySegment,
  readReference,
  readTotals,
  referenceSegment,
  x12Date,
  type BaselineItem,
  type Parsed,
  type Party,
  type ProductIds,
  type Reference,
  type Segment,
  type TransactionView,
} from "./types";

export type LineStatus = "accepted" | "changed" | "backordered" | "rejected" | "held" | "unknown";
export type OrderAckStatus = "accepted" | "changed" | "rejected" | "held" | "unknown";

/** X12 element 668, Line Item Status Code (ACK01), every code of versions 3010 to 8010. */
export const LINE_STATUS_CODES: Record<string, { status: LineStatus; meaning: string }> = {
  AA: { status: "accepted", meaning: "Item Accepted - Order Forwarded to Alternate Supplier Location" },
  AC: { status: "accepted", meaning: "Item Accepted and Shipped" },
  AR: { status: "accepted", meaning: "Item Accepted and Released for Shipment" },
  BP: { status: "backordered", meaning: "Item Accepted - Partial Shipment, Balance Backordered" },
  DR: { status: "changed", meaning: "Item Accepted - Date Rescheduled" },
  IA: { status: "accepted", meaning: "Item Accepted" },
  IB: { status: "backordered", meaning: "Item Backordered" },
  IC: { status: "changed", meaning: "Item Accepted - Changes Made" },
  ID: { status: "rejected", meaning: "Item Deleted" },
  IE: { status: "accepted", meaning: "Item Accepted, Price Pending" },
  IF: { status: "held", meaning: "Item on Hold, Incomplete Description" },
  IH: { status: "held", meaning: "Item on Hold" },
  IP: { status: "changed", meaning: "Item Accepted - Price Changed" },
  IQ: { status: "changed", meaning: "Item Accepted - Quantity Changed" },
  IR: { status: "rejected", meaning: "Item Rejected" },
  IS: { status: "changed", meaning: "Item Accepted - Substitution Made" },
  IW: { status: "held", meaning: "Item on Hold-Waiver Required" },
  R1: { status: "rejected", meaning: "Item Rejected, Not a Contract Item" },
  R2: { status: "rejected", meaning: "Item Rejected, Invalid Item Product Number" },
  R3: { status: "rejected", meaning: "Item Rejected, Invalid Unit of Issue" },
  R4: { status: "rejected", meaning: "Item Rejected, Contract Item not Available" },
  R5: { status: "rejected", meaning: "Item Rejected, Reorder Item as a Just in Time (JIT) Order" },
  R6: { status: "rejected", meaning: "Item Rejected, Reorder Item as an Extended Delivery Order (EDO)" },
  R7: { status: "rejected", meaning: "Item Rejected, Reorder Item as a Drop Shipment" },
  R8: { status: "rejected", meaning: "Item Rejected, Reorder Item as a Surge Order" },
  SP: { status: "accepted", meaning: "Item Accepted - Schedule Date Pending" },
};

/** X12 element 587, Acknowledgment Type (BAK02). */
export const ACK_TYPE_CODES: Record<string, { status: OrderAckStatus; meaning: string }> = {
  AC: { status: "changed", meaning: "Acknowledge - With Detail and Change" },
  AD: { status: "accepted", meaning: "Acknowledge - With Detail, No Change" },
  // Only the lines with exceptions are listed: the order stands, with changes.
  AE: { status: "changed", meaning: "Acknowledge - With Exception Detail Only" },
  AH: { status: "held", meaning: "Acknowledge - Hold Status" },
  AK: { status: "accepted", meaning: "Acknowledge - No Detail or Change" },
  AP: { status: "accepted", meaning: "Acknowledge - Product Replenishment" },
  AT: { status: "accepted", meaning: "Accepted" },
  NA: { status: "accepted", meaning: "No Acknowledgment Needed" },
  RD: { status: "rejected", meaning: "Reject with Detail" },
  RF: { status: "rejected", meaning: "Reject with Exception Detail Only" },
  RJ: { status: "rejected", meaning: "Rejected - No Detail" },
  RN: { status: "rejected", meaning: "Rejected - Not as Agreed" },
  RO: { status: "rejected", meaning: "Rejected With Counter Offer" },
  RV: { status: "rejected", meaning: "Rejected - Violates Industry Practices" },
  ZZ: { status: "unknown", meaning: "Mutually Defined" },
};

/** The ACK01 code a builder writes for a status given without one. */
const DEFAULT_CODE: Record<LineStatus, string> = { accepted: "IA", changed: "IC", backordered: "IB", rejected: "IR", held: "IH", unknown: "IA" };

export interface PurchaseOrderAck {
  /** BAK01: 00 original, 06 confirmation... */
  purpose?: string;
  /** BAK02 (see ACK_TYPE_CODES). */
  ackType?: string;
  /** BAK02 mapped. */
  status: OrderAckStatus;
  /** BAK03 */
  poNumber: string;
  /** BAK04: the date of the purchase order. */
  poDate?: string;
  releaseNumber?: string;
  /** BAK06 */
  requestReference?: string;
  contractNumber?: string;
  /** BAK08: the vendor's own order number. */
  sellerOrderNumber?: string;
  /** BAK09 */
  ackDate?: string;
  references: Reference[];
  parties: Party[];
  lines: AckLine[];
  totals?: { lineCount?: number; hashTotal?: number };
}

/** A PO1 line (quantity = PO102, the quantity ordered) and its ACK segments. */
export interface AckLine extends BaselineItem {
  /**
   * The first ACK's status. A line without ACK takes the order's: accepted
   * (BAK02 AD/AK/AE...: unlisted lines stand as ordered), rejected, held.
   */
  status: LineStatus;
  acks: LineAck[];
}

export interface LineAck {
  /** ACK01 (see LINE_STATUS_CODES). */
  code: string;
  status: LineStatus;
  /** ACK02: the quantity this status applies to. */
  quantity?: number;
  uom?: string;
  /** ACK04, e.g. 068 current schedule ship, 067 current schedule delivery, 017 estimated delivery. */
  dateQualifier?: string;
  /** ACK05 */
  date?: string;
  /** ACK07 onwards: the product acknowledged, when it differs (a substitution). */
  skus?: ProductIds;
}

export function parse855(view: TransactionView): Parsed<PurchaseOrderAck> {
  const issues = new Issues(view);
  const ack: PurchaseOrderAck = { status: "unknown", poNumber: "", references: [], parties: [], lines: [] };
  let sawBak = false;
  let line: AckLine | undefined;
  let ctt: Segment | undefined;

  for (const segment of view.segments) {
    switch (segment.id) {
      case "BAK": {
        sawBak = true;
        const ackType = element(segment, 2);
        Object.assign(
          ack,
          dropUndefined({
            purpose: element(segment, 1),
            ackType,
            status: statusOfAckType(issues, segment),
            poNumber: element(segment, 3) ?? "",
            poDate: readDate(issues, segment, 4),
            releaseNumber: element(segment, 5),
            requestReference: element(segment, 6),
            contractNumber: element(segment, 7),
            sellerOrderNumber: element(segment, 8),
            ackDate: readDate(issues, segment, 9),
          }),
        );
        break;
      }
      case "REF":
        if (!line) ack.references.push(readReference(segment));
        break;
      case "PO1": {
        line = { ...readBaselineItem(issues, segment), status: "unknown" as LineStatus, acks: [] };
        ack.lines.push(line);
        break;
      }
      case "PID":
        readItemDescription(line, segment);
        break;
      case "ACK":
        if (!line) {
          issues.note(segment, faultPhrase("ack_before_po1"));
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
        // N1 loops inside a line's loop are read past, not mixed with the header's.
        if (!line) readPartySegment(segment, ack.parties);
    }
  }

  for (const each of ack.lines) each.status = each.acks[0]?.status ?? statusWithoutAck(ack.status);
  if (!sawBak) issues.missingSegment("BAK", view.segments[1]);
  // CTT02 is summed over PO102 by some vendors and over ACK02 by others: only the line count is checked.
  if (ctt) checkTotals(issues, ctt, ack, false);
  return issues.parsed(ack);
}

/** Element 2 of BAK (855) or BCA (865), an acknowledgment type code, mapped. */
export function statusOfAckType(issues: Issues, segment: Segment): OrderAckStatus {
  const code = element(segment, 2);
  if (code === undefined) return "unknown";
  const known = ACK_TYPE_CODES[code];
  if (!known) issues.note(segment, faultPhrase(segment.id === "BCA" ? "bca02_code" : "bak02_code", { value: JSON.stringify(code) }), 2);
  return known?.status ?? "unknown";
}

/** An ACK segment, after a PO1 (855) or a POC (865). */
export function readLineAck(issues: Issues, segment: Segment): LineAck {
  const code = element(segment, 1) ?? "";
  const known = LINE_STATUS_CODES[code];
  if (!known) issues.note(segment, faultPhrase("ack01_code", { value: JSON.stringify(code) }), 1);
  const skus = productIds(segment, 7, 26);
  return dropUndefined({
    code,
    status: known?.status ?? "unknown",
    quantity: readNumber(issues, segment, 2),
    uom: element(segment, 3),
    dateQualifier: element(segment, 4),
    date: readDate(issues, segment, 5),
    skus: Object.keys(skus).length ? skus : undefined,
  });
}

/** A line without ACK stands as the acknowledgment as a whole says. */
export function statusWithoutAck(order: OrderAckStatus): LineStatus {
  if (order === "rejected" || order === "held" || order === "unknown") return order;
  return "accepted";
}

// ---------------------------------------------------------------------------
// Building

/** What the builder needs: a PurchaseOrderAck, with the derived fields optional. */
export interface PurchaseOrderAckInput extends Omit<PurchaseOrderAck, "status" | "lines" | "references" | "parties" | "totals"> {
  status?: OrderAckStatus;
  references?: Reference[];
  parties?: Party[];
  lines: AckLineInput[];
}

export interface AckLineInput extends Omit<AckLine, "status" | "acks" | "skus"> {
  /** Defaults to { SK: sku } when only sku is given. */
  skus?: ProductIds;
  status?: LineStatus;
  acks?: (Omit<LineAck, "code" | "status"> & { code?: string; status?: LineStatus })[];
}

export function build855(ack: PurchaseOrderAckInput, controlNumber: string): TransactionData {
  if (!ack.poNumber) throw new Error("855: poNumber is required");
  const segments: SegmentData[] = [
    [
      "BAK",
      ack.purpose ?? "00",
      ack.ackType ?? defaultAckType(ack),
      ack.poNumber,
      x12Date(ack.poDate),
      ack.releaseNumber,
      ack.requestReference,
      ack.contractNumber,
      ack.sellerOrderNumber,
      x12Date(ack.ackDate),
    ],
  ];
  for (const reference of ack.references ?? []) segments.push(referenceSegment(reference));
  for (const party of ack.parties ?? []) segments.push(...partySegments(party));
  let hashTotal = 0;
  for (const line of ack.lines) {
    hashTotal += line.quantity ?? 0;
    const skus = line.skus ?? (line.sku ? { SK: line.sku } : {});
    segments.push(["PO1", line.lineNumber, decimal(line.quantity), line.uom, decimal(line.unitPrice), undefined, ...productIdElements(skus)]);
    if (line.description) segments.push(["PID", "F", undefined, undefined, undefined, line.description]);
    const acks = line.acks ?? (line.status ? [{ status: line.status, quantity: line.quantity, uom: line.uom }] : []);
    for (const each of acks) {
      const code = each.code ?? DEFAULT_CODE[each.status ?? "accepted"];
      segments.push([
        "ACK",
        code,
        decimal(each.quantity),
        each.uom ?? (each.quantity !== undefined ? (line.uom ?? "EA") : undefined),
        each.dateQualifier ?? (each.date ? "068" : undefined),
        x12Date(each.date),
        undefined,
        ...productIdElements(each.skus ?? {}),
      ]);
    }
  }
  segments.push(["CTT", ack.lines.length, decimal(hashTotal)]);
  return { setId: "855", controlNumber, segments };
}

/** AD when every line stands as ordered, RD when every line is refused, AC otherwise. */
function defaultAckType(ack: PurchaseOrderAckInput): string {
  const statuses = ack.lines.flatMap((line) =>
    line.acks?.length ? line.acks.map((each) => each.status ?? LINE_STATUS_CODES[each.code ?? ""]?.status) : [line.status ?? "accepted"],
  );
  if (statuses.length > 0 && statuses.every((status) => status === "rejected")) return "RD";
  if (statuses.every((status) => status === "accepted")) return "AD";
  return "AC";
}
