// 850 purchase order: built from a drop-ship request (what the app sends a
// vendor), and parsed (corpus files, and the round trip).
import { faultPhrase } from "../texts";
import { AK4 } from "../x12/faults";
import type { SegmentData, TransactionData } from "../x12/writer";
import {
  checkTotals,
  contactSegment,
  decimal,
  dropUndefined,
  element,
  Issues,
  partySegments,
  productIdElements,
  readBaselineItem,
  readItemDescription,
  readContact,
  readDate,
  readPartySegment,
  readReference,
  readTotals,
  x12Date,
  type BaselineItem,
  type Contact,
  type Parsed,
  type Party,
  type ProductIds,
  type Reference,
  type Segment,
  type TransactionView,
} from "./types";

// ---------------------------------------------------------------------------
// Building

export interface DropShipOrderRequest {
  /** BEG03 */
  poNumber: string;
  /** The shop's order number: REF*CO (customer order number). */
  orderNumber?: string;
  /** BEG05 */
  date: Date;
  /** BEG02, default DS (drop ship). */
  orderType?: string;
  /** BEG01, default 00 (original); 05 replaces an order sent before. */
  purpose?: string;
  vendor?: {
    /** Our number for the vendor: REF*IA (internal vendor number). */
    number?: string;
    /** N1*VN, when given. */
    name?: string;
    idQualifier?: string;
    id?: string;
  };
  shipTo: { name: string; company?: string; address1: string; address2?: string; city: string; state: string; zip: string; country: string };
  /** The end customer, for the carrier: PER*IC. */
  contact?: { name: string; phone?: string; email?: string };
  /** DTM*010 */
  requestedShipDate?: Date;
  /** DTM*002 */
  requestedDeliveryDate?: Date;
  lines: DropShipLine[];
  /** Segments from the vendor's template, written right after BEG. */
  extraSegments?: SegmentData[];
}

export interface DropShipLine {
  lineNumber: number | string;
  /** The shop's SKU (qualifier SK unless options.skuQualifier says otherwise). */
  sku: string;
  /** The vendor's part number: VP. */
  vendorSku?: string;
  /** UP */
  upc?: string;
  quantity: number;
  /** PO103, default EA. */
  uom?: string;
  unitPrice?: number;
  /** PID*F (free-form description). */
  description?: string;
}

export interface Build850Options {
  /** The qualifier of the shop's SKU in PO1: SK (default), IN (buyer's item number) or BP. */
  skuQualifier?: string;
}

/** A cancelling 850 (BEG01 01) may go without the ship-to: the vendor knows the PO by its number. */
export type Build850Request = Omit<DropShipOrderRequest, "shipTo"> & Partial<Pick<DropShipOrderRequest, "shipTo">>;

export function build850(request: Build850Request, controlNumber: string, options: Build850Options = {}): TransactionData {
  if (!request.poNumber) throw new Error("850: poNumber is required");
  if (request.lines.length === 0) throw new Error(`850 ${request.poNumber}: an order needs at least one line`);
  if (!/^[^\s]{4,9}$/.test(controlNumber))
    throw new Error(`850 ${request.poNumber}: ST02 must be 4 to 9 characters, not ${JSON.stringify(controlNumber)} (control numbers wrap at 999999999)`);
  const skuQualifier = options.skuQualifier ?? "SK";
  const segments: SegmentData[] = [["BEG", request.purpose ?? "00", request.orderType ?? "DS", request.poNumber, undefined, x12Date(request.date)]];
  segments.push(...(request.extraSegments ?? []));
  if (request.vendor?.number) segments.push(["REF", "IA", request.vendor.number]);
  if (request.orderNumber) segments.push(["REF", "CO", request.orderNumber]);
  if (request.contact) segments.push(contactSegment({ function: "IC", ...request.contact }));
  if (request.requestedShipDate) segments.push(["DTM", "010", x12Date(request.requestedShipDate)]);
  if (request.requestedDeliveryDate) segments.push(["DTM", "002", x12Date(request.requestedDeliveryDate)]);

  const { shipTo, vendor } = request;
  if (shipTo)
    segments.push(
      ...partySegments({
        entity: "ST",
        name: shipTo.name,
        names: shipTo.company ? [shipTo.company] : undefined,
        address: [shipTo.address1, shipTo.address2].filter((line): line is string => Boolean(line)),
        city: shipTo.city,
        state: shipTo.state,
        zip: shipTo.zip,
        country: shipTo.country,
      }),
    );
  if (vendor?.name)
    segments.push(...partySegments({ entity: "VN", name: vendor.name, idQualifier: vendor.id ? (vendor.idQualifier ?? "92") : undefined, id: vendor.id }));

  let hashTotal = 0;
  for (const line of request.lines) {
    if (!Number.isFinite(line.quantity) || line.quantity <= 0)
      throw new Error(`850 ${request.poNumber} line ${line.lineNumber}: quantity must be positive, not ${line.quantity}`);
    hashTotal += line.quantity;
    const ids: ProductIds = {};
    if (line.vendorSku) ids.VP = line.vendorSku;
    ids[skuQualifier] = line.sku;
    if (line.upc) ids.UP = line.upc;
    segments.push(["PO1", String(line.lineNumber), decimal(line.quantity), line.uom ?? "EA", decimal(line.unitPrice), undefined, ...productIdElements(ids)]);
    if (line.description) segments.push(["PID", "F", undefined, undefined, undefined, line.description]);
  }
  segments.push(["CTT", request.lines.length, decimal(hashTotal)]);
  return { setId: "850", controlNumber, segments };
}

// ---------------------------------------------------------------------------
// Parsing

export interface PurchaseOrder {
  /** BEG01: 00 original, 01 cancellation, 05 replace... */
  purpose?: string;
  /** BEG02: SA stand-alone, DS drop ship, NE new order... */
  orderType?: string;
  poNumber: string;
  releaseNumber?: string;
  /** BEG05 */
  date?: string;
  contractNumber?: string;
  /** REF*CO */
  orderNumber?: string;
  /** REF*IA */
  vendorNumber?: string;
  /** Header REF segments, in order (REF*CO and REF*IA included). */
  references: Reference[];
  contacts: Contact[];
  /** Header DTM segments. */
  dates: { qualifier: string; date?: string }[];
  parties: Party[];
  /** The N1*ST party. */
  shipTo?: Party;
  lines: PurchaseOrderLine[];
  /** CTT01 number of line items, CTT02 hash total. */
  totals?: { lineCount?: number; hashTotal?: number };
}

/** A PO1 line. */
export type PurchaseOrderLine = BaselineItem;

export function parse850(view: TransactionView): Parsed<PurchaseOrder> {
  const issues = new Issues(view);
  const order: PurchaseOrder = { poNumber: "", references: [], contacts: [], dates: [], parties: [], lines: [] };
  let sawBeg = false;
  let line: PurchaseOrderLine | undefined;
  let ctt: Segment | undefined;

  for (const segment of view.segments) {
    switch (segment.id) {
      case "BEG":
        sawBeg = true;
        Object.assign(
          order,
          dropUndefined({
            purpose: element(segment, 1),
            orderType: element(segment, 2),
            poNumber: element(segment, 3) ?? "",
            releaseNumber: element(segment, 4),
            date: readDate(issues, segment, 5),
            contractNumber: element(segment, 6),
          }),
        );
        if (!order.poNumber) issues.elementFault(segment, 3, AK4.mandatoryMissing, (name) => faultPhrase("empty_po_number", { element: name }));
        break;
      case "REF":
        if (line) break;
        order.references.push(readReference(segment));
        break;
      case "PER":
        order.contacts.push(readContact(segment));
        break;
      case "DTM":
        if (line) break;
        order.dates.push(dropUndefined({ qualifier: element(segment, 1) ?? "", date: readDate(issues, segment, 2) }));
        break;
      case "PO1":
        line = readLine(issues, segment);
        order.lines.push(line);
        break;
      case "PID":
        readItemDescription(line, segment);
        break;
      case "CTT":
        ctt = segment;
        order.totals = readTotals(issues, segment);
        line = undefined;
        break;
      default:
        // N1 loops inside a line's loop are read past, not mixed with the header's.
        if (!line) readPartySegment(segment, order.parties);
    }
  }

  order.orderNumber = order.references.find((ref) => ref.qualifier === "CO")?.value;
  order.vendorNumber = order.references.find((ref) => ref.qualifier === "IA")?.value;
  order.shipTo = order.parties.find((party) => party.entity === "ST");
  dropUndefined(order);
  if (!sawBeg) issues.missingSegment("BEG", view.segments[1]);
  if (ctt) checkTotals(issues, ctt, order);
  return issues.parsed(order);
}

function readLine(issues: Issues, segment: Segment): PurchaseOrderLine {
  return readBaselineItem(issues, segment);
}
