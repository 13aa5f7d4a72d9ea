// 810 invoice: parsed (a vendor bills us) and built (the demo vendor, tests).
// Money in N2 elements (TDS01, SAC05: implied two decimals) stays integer
// cents; unit prices (R elements) are plain numbers.
import { faultPhrase } from "../texts";
import { AK4 } from "../x12/faults";
import type { SegmentData, TransactionData } from "../x12/writer";
import {
  cents,
  checkTotals,
  decimal,
  dropUndefined,
  element,
  Issues,
  partySegments,
  productIdElements,
  readBaselineItem,
  readItemDescription,
  readCents,
  readDate,
  readNumber,
  readPartySegment,
  readReference,
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

export interface Invoice {
  /** BIG01 */
  date?: string;
  /** BIG02 */
  invoiceNumber: string;
  /** BIG03 */
  poDate?: string;
  /** BIG04 */
  poNumber?: string;
  releaseNumber?: string;
  /** BIG07: DI debit invoice, CR credit memo... */
  transactionType?: string;
  /** CUR02 */
  currency?: string;
  references: Reference[];
  parties: Party[];
  lines: InvoiceLine[];
  /** TDS01 in cents (2554.38 → 255438). */
  totalCents?: number;
  /** SAC segments outside the lines (header and summary). */
  charges: Charge[];
  totals?: { lineCount?: number };
}

/** An IT1 line (quantity invoiced), with its own SAC segments. */
export interface InvoiceLine extends BaselineItem {
  /** SAC segments of this line. */
  charges?: Charge[];
}

export interface Charge {
  /** SAC01: A allowance, C charge, N neither. */
  type: "allowance" | "charge" | "none";
  /** SAC02, e.g. D240 freight, C310 discount, H850 tax. */
  code?: string;
  /** SAC05 in cents. */
  amountCents?: number;
  /** SAC07 */
  percent?: number;
  /** SAC15 */
  description?: string;
}

const CHARGE_TYPE: Record<string, Charge["type"]> = { A: "allowance", C: "charge", N: "none" };
const CHARGE_CODE: Record<Charge["type"], string> = { allowance: "A", charge: "C", none: "N" };

export function parse810(view: TransactionView): Parsed<Invoice> {
  const issues = new Issues(view);
  const invoice: Invoice = { invoiceNumber: "", references: [], parties: [], lines: [], charges: [] };
  let sawBig = false;
  let tds: Segment | undefined;
  let line: InvoiceLine | undefined;
  let ctt: Segment | undefined;

  for (const segment of view.segments) {
    switch (segment.id) {
      case "BIG":
        sawBig = true;
        Object.assign(
          invoice,
          dropUndefined({
            date: readDate(issues, segment, 1),
            invoiceNumber: element(segment, 2) ?? "",
            poDate: readDate(issues, segment, 3),
            poNumber: element(segment, 4),
            releaseNumber: element(segment, 5),
            transactionType: element(segment, 7),
          }),
        );
        if (!invoice.invoiceNumber) issues.elementFault(segment, 2, AK4.mandatoryMissing, (name) => faultPhrase("empty_invoice_number", { element: name }));
        break;
      case "CUR":
        if (!line && element(segment, 2)) invoice.currency = element(segment, 2);
        break;
      case "REF":
        if (!line) invoice.references.push(readReference(segment));
        break;
      case "IT1": {
        line = readBaselineItem(issues, segment);
        invoice.lines.push(line);
        break;
      }
      case "PID":
        readItemDescription(line, segment);
        break;
      case "SAC": {
        const charge = readCharge(issues, segment);
        if (line) line.charges = [...(line.charges ?? []), charge];
        else invoice.charges.push(charge);
        break;
      }
      case "TDS":
        // The summary starts: a SAC after it is the invoice's, not the last line's.
        line = undefined;
        tds = segment;
        invoice.totalCents = readCents(issues, segment, 1);
        if (invoice.totalCents === undefined) delete invoice.totalCents;
        break;
      case "CTT":
        ctt = segment;
        line = undefined;
        invoice.totals = dropUndefined({ lineCount: readNumber(issues, segment, 1) });
        break;
      default:
        // N1 loops inside a line's loop are read past, not mixed with the header's.
        if (!line) readPartySegment(segment, invoice.parties);
    }
  }
  if (!sawBig) issues.missingSegment("BIG", view.segments[1]);
  if (!tds) issues.missingSegment("TDS", view.segments[view.segments.length - 1]);
  if (ctt) checkTotals(issues, ctt, invoice, false);
  return issues.parsed(invoice);
}

function readCharge(issues: Issues, segment: Segment): Charge {
  const indicator = element(segment, 1) ?? "";
  const type = CHARGE_TYPE[indicator];
  if (!type)
    issues.valueProblem(segment, 1, AK4.invalidCode, (name) => faultPhrase("not_allowance_indicator", { element: name, value: JSON.stringify(indicator) }));
  return dropUndefined({
    type: type ?? "none",
    code: element(segment, 2),
    amountCents: readCents(issues, segment, 5),
    percent: readNumber(issues, segment, 7),
    description: element(segment, 15),
  });
}

// ---------------------------------------------------------------------------
// Building

export interface InvoiceInput extends Omit<Invoice, "references" | "parties" | "charges" | "lines" | "totals"> {
  references?: Reference[];
  parties?: Party[];
  charges?: Charge[];
  lines: (Omit<InvoiceLine, "skus"> & { skus?: ProductIds })[];
}

/** The invoice total in cents: lines, plus charges, minus allowances. */
export function invoiceTotalCents(invoice: Pick<InvoiceInput, "lines" | "charges">): number {
  const sign = (charge: Charge) => (charge.type === "charge" ? 1 : charge.type === "allowance" ? -1 : 0);
  const charges = (list: Charge[] | undefined) => (list ?? []).reduce((sum, charge) => sum + sign(charge) * (charge.amountCents ?? 0), 0);
  const lines = invoice.lines.reduce((sum, line) => sum + Math.round((line.quantity ?? 0) * (line.unitPrice ?? 0) * 100) + charges(line.charges), 0);
  return lines + charges(invoice.charges);
}

export function build810(invoice: InvoiceInput, controlNumber: string): TransactionData {
  if (!invoice.invoiceNumber) throw new Error("810: invoiceNumber is required");
  const segments: SegmentData[] = [
    ["BIG", x12Date(invoice.date), invoice.invoiceNumber, x12Date(invoice.poDate), invoice.poNumber, invoice.releaseNumber, undefined, invoice.transactionType],
  ];
  if (invoice.currency) segments.push(["CUR", "SE", invoice.currency]);
  for (const reference of invoice.references ?? []) segments.push(referenceSegment(reference));
  for (const party of invoice.parties ?? []) segments.push(...partySegments(party));
  for (const line of invoice.lines) {
    const skus = line.skus ?? (line.sku ? { SK: line.sku } : {});
    segments.push(["IT1", line.lineNumber, decimal(line.quantity), line.uom ?? "EA", decimal(line.unitPrice), undefined, ...productIdElements(skus)]);
    if (line.description) segments.push(["PID", "F", undefined, undefined, undefined, line.description]);
    for (const charge of line.charges ?? []) segments.push(chargeSegment(charge));
  }
  segments.push(["TDS", cents(invoice.totalCents ?? invoiceTotalCents(invoice))]);
  for (const charge of invoice.charges ?? []) segments.push(chargeSegment(charge));
  segments.push(["CTT", invoice.lines.length]);
  return { setId: "810", controlNumber, segments };
}

function chargeSegment(charge: Charge): SegmentData {
  const percent = decimal(charge.percent);
  // SAC06 says what SAC07 is a percent of; 3 = discount/gross.
  return [
    "SAC",
    CHARGE_CODE[charge.type],
    charge.code,
    undefined,
    undefined,
    cents(charge.amountCents),
    percent === undefined ? undefined : "3",
    percent,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    charge.description,
  ];
}
