// 860 purchase order change, buyer initiated: how the app tells a vendor that
// lines of a drop-ship PO it already has are cancelled (issue 29). Only built:
// the vendor answers with an 865 (or an 855 / a 997).
import type { SegmentData, TransactionData } from "../x12/writer";
import { decimal, productIdElements, x12Date, type ProductIds } from "./types";

export interface CancelledLine {
  /** POC01: the line number our 850 gave it (PO101). */
  lineNumber: number | string;
  /** The shop's SKU, as our 850 sent it. */
  sku: string;
  /** The vendor's part number, when our 850 sent one: VP. */
  vendorSku?: string;
  /** What the 850 ordered of this line, before any cancellation. */
  ordered: number;
  /** How many of them are cancelled now: all of `ordered` (POC02 DI) or fewer (QD). */
  cancelled: number;
  /** POC05, default EA. */
  uom?: string;
}

export interface PurchaseOrderCancellation {
  /** BCH03: the PO number of our 850. */
  poNumber: string;
  /** BCH06: the date of our 850 (its BEG05). */
  poDate: Date;
  /** BCH05: this change's number for the PO, 1 for its first. */
  changeNumber: number;
  /** BCH11: when the cancellation was decided. */
  changeDate: Date;
  /** BCH02, default DS (drop ship), as our 850's BEG02. */
  orderType?: string;
  /** The shop's order number: REF*CO, as in our 850. */
  orderNumber?: string;
  /** The cancelled lines; `wholeOrder` when they are every line of the PO, each cancelled in full. */
  lines: CancelledLine[];
  wholeOrder: boolean;
}

export interface Build860Options {
  /** The qualifier of the shop's SKU, as in our 850's PO1: SK (default), IN or BP. */
  skuQualifier?: string;
}

/**
 * BCH01 01 (cancellation) when the whole PO is cancelled, 04 (change) otherwise; every
 * cancelled line is a POC: DI (delete item) with POC03 the quantity cancelled and POC04 0
 * when the line goes in full, QD (quantity decrease) with POC03 the quantity still ordered
 * and POC04 the quantity still to ship when only part of it goes. The cancelled quantity
 * is thus ordered − POC03 for QD, and POC03 for DI.
 */
export function build860(cancellation: PurchaseOrderCancellation, controlNumber: string, options: Build860Options = {}): TransactionData {
  const { poNumber } = cancellation;
  if (!poNumber) throw new Error("860: poNumber is required");
  if (cancellation.lines.length === 0) throw new Error(`860 ${poNumber}: a cancellation needs at least one line`);
  if (!/^[^\s]{4,9}$/.test(controlNumber)) throw new Error(`860 ${poNumber}: ST02 must be 4 to 9 characters, not ${JSON.stringify(controlNumber)}`);
  if (!Number.isInteger(cancellation.changeNumber) || cancellation.changeNumber < 1)
    throw new Error(`860 ${poNumber}: the change number must be a positive whole number, not ${cancellation.changeNumber}`);
  const whole = cancellation.wholeOrder && cancellation.lines.every((line) => line.cancelled === line.ordered);
  const segments: SegmentData[] = [
    [
      "BCH",
      whole ? "01" : "04",
      cancellation.orderType ?? "DS",
      poNumber,
      undefined,
      String(cancellation.changeNumber),
      x12Date(cancellation.poDate),
      undefined,
      undefined,
      undefined,
      undefined,
      x12Date(cancellation.changeDate),
    ],
  ];
  if (cancellation.orderNumber) segments.push(["REF", "CO", cancellation.orderNumber]);
  const skuQualifier = options.skuQualifier ?? "SK";
  let hashTotal = 0;
  for (const line of cancellation.lines) {
    if (!Number.isInteger(line.ordered) || line.ordered <= 0 || !Number.isInteger(line.cancelled) || line.cancelled <= 0 || line.cancelled > line.ordered)
      throw new Error(`860 ${poNumber} line ${line.lineNumber}: ${line.cancelled} of ${line.ordered} cannot be cancelled`);
    const inFull = line.cancelled === line.ordered;
    const remaining = line.ordered - line.cancelled;
    const ids: ProductIds = {};
    if (line.vendorSku) ids.VP = line.vendorSku;
    ids[skuQualifier] = line.sku;
    const quantity = inFull ? line.cancelled : remaining;
    hashTotal += quantity;
    segments.push([
      "POC",
      String(line.lineNumber),
      inFull ? "DI" : "QD",
      decimal(quantity),
      decimal(inFull ? 0 : remaining),
      line.uom ?? "EA",
      undefined,
      undefined,
      ...productIdElements(ids),
    ]);
  }
  segments.push(["CTT", cancellation.lines.length, decimal(hashTotal)]);
  return { setId: "860", controlNumber, segments };
}
