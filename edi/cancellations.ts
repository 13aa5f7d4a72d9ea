// Cancellations (issue 29): what we send a vendor when lines of a drop-ship PO
// it already has are cancelled (an 860, an 850 with BEG01 01/05, or the
// cancellation CSV, per vendor), and the vendor's answer read from an 865, an
// 855 that acknowledges the change, or the cancellation-answer CSV.
import { cancellationOutcomeOf, readCancellationCsv } from "./csv/read";
import { mapTransactions } from "./documents";
import { build850, type DropShipOrderRequest } from "./documents/850";
import { ACK_TYPE_CODES, type PurchaseOrderAck } from "./documents/855";
import { build860 } from "./documents/860";
import type { ChangeAckLine, PurchaseOrderChangeAck } from "./documents/865";
import { element, isoDate, pickSku, productIds, viewTransaction } from "./documents/types";
import { vendorInterchange, with850Template, type InterchangeNumbers } from "./purchase-orders";
import type { TradingProfile } from "./vendor-profile";
import { readX12 } from "./x12/reader";

export { writeCancellationCsv } from "./csv/write";

export type CancellationFormat = "850" | "860" | "csv";

export interface CancellationLine {
  lineNumber: number;
  sku: string;
  vendorSku?: string;
  ordered: number;
  cancelled: number;
  unitPrice?: number;
}

export interface CancellationOrder {
  poNumber: string;
  orderNumber?: string;
  poDate: Date;
  changeNumber: number;
  changeDate: Date;
  /** Free text: why (e.g. "Order cancelled by the customer"). Sent in the CSV only: see docs/edi.md. */
  reason?: string;
  lines: CancellationLine[];
  /** Every line of the PO is in `lines`, each cancelled in full. */
  wholeOrder: boolean;
  /** For the 850 format's replacement (partial): the ship-to as our 850 had it. */
  shipTo?: DropShipOrderRequest["shipTo"];
  vendor?: { number: string; name: string };
}

/** A whole cancellation: every line of the PO, each in full. */
const isWholeOrder = (order: CancellationOrder) => order.wholeOrder && order.lines.every((line) => line.cancelled === line.ordered);

/**
 * One interchange (the profile's envelope, delimiters, sender/receiver and
 * usage, as purchaseOrderInterchange), one group, one set per order, GS08 the
 * profile's 850 version (the version the PO went in). "860": GS01 PC, build860.
 * "850": GS01 PO with the vendor's 850 template; a whole cancellation is BEG01
 * 01 with the PO's lines at their ordered quantity, a partial one BEG01 05
 * (replace) with each line at what remains, lines cancelled in full left out.
 */
export function cancellationInterchange(
  profile: TradingProfile,
  format: "850" | "860",
  orders: readonly CancellationOrder[],
  numbers: InterchangeNumbers,
  now: Date,
): string {
  const version = profile.documents["850"].version;
  const controlNumber = (i: number) => numbers.groups[0].transactions[i];
  if (format === "860") {
    const transactions = orders.map((order, i) => build860(order, controlNumber(i)));
    return vendorInterchange(profile, "PC", version, transactions, numbers, now);
  }
  const transactions = orders.map((order, i) => build850(with850Template(profile, replacementOrder(order), now), controlNumber(i)));
  return vendorInterchange(profile, "PO", version, transactions, numbers, now);
}

/** The 850 that cancels (BEG01 01) or replaces (05) the PO; a replacement needs the ship-to, as the vendor's copy of the PO is replaced whole. */
function replacementOrder(order: CancellationOrder) {
  const whole = isWholeOrder(order);
  if (!whole && !order.shipTo) throw new Error(`850 ${order.poNumber}: a partial cancellation replaces the PO (BEG01 05) and needs its ship-to`);
  const lines = whole
    ? order.lines.map((line) => ({ ...line, remaining: line.ordered }))
    : order.lines.map((line) => ({ ...line, remaining: line.ordered - line.cancelled }));
  const kept = lines.filter((line) => line.remaining > 0);
  if (!kept.length) throw new Error(`850 ${order.poNumber}: every line is cancelled in full: that is a whole cancellation (wholeOrder)`);
  return {
    poNumber: order.poNumber,
    orderNumber: order.orderNumber,
    date: order.poDate,
    purpose: whole ? "01" : "05",
    vendor: order.vendor,
    shipTo: order.shipTo,
    lines: kept.map((line) => ({ lineNumber: line.lineNumber, sku: line.sku, vendorSku: line.vendorSku, quantity: line.remaining, unitPrice: line.unitPrice })),
  };
}

// ---------------------------------------------------------------------------
// A cancellation file we sent, read back (the demo vendor answers from it)

export interface CancellationInFile {
  poNumber: string;
  /** BCH05 or change_number; an 850 carries none. */
  changeNumber?: number;
  /** BCH01 / BEG01 01; from the CSV, when every line has nothing remaining. */
  wholeOrder: boolean;
  /** The PO's date, YYYY-MM-DD, as the file repeats it (BCH06, BEG05); the CSV carries none. */
  poDate?: string;
  lines: {
    lineNumber: string;
    sku: string;
    /** Unknown for an 860 QD line and an 850 05 line: they say only what remains. */
    ordered?: number;
    cancelled?: number;
    remaining: number;
  }[];
}

/** The cancellations of a file we sent: an 860, an 850 with BEG01 01 or 05, or the cancellation CSV. */
export function cancellationsInFile(content: Buffer, format: CancellationFormat): CancellationInFile[] {
  if (format === "csv")
    return readCancellationCsv(content).cancellations.map((cancellation) => ({
      poNumber: cancellation.poNumber,
      changeNumber: cancellation.changeNumber,
      wholeOrder: cancellation.lines.every((line) => line.remaining === 0),
      lines: cancellation.lines.map((line) => ({ ...line, lineNumber: line.lineNumber ?? "" })),
    }));
  const read = readX12(content);
  if (format === "850") {
    return mapTransactions(read).flatMap(({ mapped }) => {
      if (mapped?.type !== "850" || (mapped.document.purpose !== "01" && mapped.document.purpose !== "05")) return [];
      const whole = mapped.document.purpose === "01";
      return [
        {
          poNumber: mapped.document.poNumber,
          wholeOrder: whole,
          ...(mapped.document.date ? { poDate: mapped.document.date } : {}),
          lines: mapped.document.lines.map((line) => {
            const quantity = line.quantity ?? 0;
            return {
              lineNumber: line.lineNumber ?? "",
              sku: line.sku ?? "",
              ...(whole ? { ordered: quantity, cancelled: quantity, remaining: 0 } : { remaining: quantity }),
            };
          }),
        },
      ];
    });
  }
  const out: CancellationInFile[] = [];
  for (const interchange of read.interchanges)
    for (const group of interchange.groups)
      for (const transaction of group.transactions) {
        if (transaction.setId !== "860") continue;
        const view = viewTransaction(read, transaction);
        const bch = view.segments.find((segment) => segment.id === "BCH");
        const change = Number(bch && element(bch, 5));
        const poDate = bch && isoDate(element(bch, 6) ?? "");
        const lines = view.segments
          .filter((segment) => segment.id === "POC")
          .map((poc) => {
            const quantity = Number(element(poc, 3) ?? 0);
            const deleted = element(poc, 2) === "DI";
            return {
              lineNumber: element(poc, 1) ?? "",
              sku: pickSku(productIds(poc, 8)) ?? "",
              ...(deleted ? { ordered: quantity, cancelled: quantity, remaining: 0 } : { remaining: quantity }),
            };
          });
        out.push({
          poNumber: (bch && element(bch, 3)) ?? "",
          ...(Number.isInteger(change) && change > 0 ? { changeNumber: change } : {}),
          wholeOrder: bch ? element(bch, 1) === "01" : false,
          ...(poDate ? { poDate } : {}),
          lines,
        });
      }
  return out;
}

// ---------------------------------------------------------------------------
// The vendor's answer

export type CancellationOutcome = "accepted" | "refused";

export interface CancellationAnswerLine {
  lineNumber?: string;
  sku?: string;
  quantity?: number;
  outcome: CancellationOutcome;
  code?: string;
  reason?: string;
}

export interface CancellationAnswer {
  poNumber: string;
  changeNumber?: number;
  /** accepted when every answered line (or the PO as a whole) is accepted; refused when any is refused. */
  outcome: CancellationOutcome;
  lines: CancellationAnswerLine[];
  /** The vendor's codes (BCA02, ACK01s, BAK02 …) and words, for staff. */
  codes: string[];
  reason?: string;
}

/**
 * ACK01 codes that accept a cancelled line: ID item deleted (the usual
 * answer), IA item accepted, IC/IQ accepted with changes (the quantity
 * decrease). Any other code refuses it: IR and R1–R8 say so, AC/AR say the
 * item is shipped or released for shipment, IB/IH/BP that it still stands.
 */
export const CANCELLATION_ACCEPTING_CODES: ReadonlySet<string> = new Set(["ID", "IA", "IC", "IQ"]);

/** The acknowledgment as a whole (BCA02, BAK02): accepted or changed is accepted; rejected, held or unknown refused. */
function outcomeOfAckType(code: string | undefined): CancellationOutcome {
  const status = code === undefined ? undefined : ACK_TYPE_CODES[code]?.status;
  return status === "accepted" || status === "changed" ? "accepted" : "refused";
}

/** An answered line: its first ACK decides; a line without ACK takes the acknowledgment's outcome. */
function answerLine(line: Pick<ChangeAckLine, "lineNumber" | "sku" | "quantity" | "acks">, whole: CancellationOutcome): CancellationAnswerLine {
  const ack = line.acks[0];
  const outcome = ack ? (CANCELLATION_ACCEPTING_CODES.has(ack.code) ? "accepted" : "refused") : whole;
  const quantity = ack?.quantity ?? line.quantity;
  return {
    ...(line.lineNumber !== undefined ? { lineNumber: line.lineNumber } : {}),
    ...(line.sku !== undefined ? { sku: line.sku } : {}),
    ...(quantity !== undefined ? { quantity } : {}),
    outcome,
    ...(ack ? { code: ack.code } : {}),
  };
}

/** The answer an acknowledgment gives, its codes in order: the ack type's, then each ACK01. */
function answerFrom(
  ack: { poNumber: string; ackType?: string; lines: Pick<ChangeAckLine, "lineNumber" | "sku" | "quantity" | "acks">[] },
  changeNumber?: string,
): CancellationAnswer {
  const whole = outcomeOfAckType(ack.ackType);
  // A refusing ack type refuses every line, whatever its ACK says.
  const lines = ack.lines.map((line) => answerLine(line, whole)).map((line) => (whole === "refused" ? { ...line, outcome: whole } : line));
  const codes = [ack.ackType, ...ack.lines.flatMap((line) => line.acks.map((each) => each.code))].filter((code): code is string => Boolean(code));
  const change = Number(changeNumber);
  return {
    poNumber: ack.poNumber,
    ...(changeNumber !== undefined && Number.isInteger(change) ? { changeNumber: change } : {}),
    outcome: cancellationOutcomeOf([whole, ...lines.map((line) => line.outcome)]),
    lines,
    codes: [...new Set(codes)],
  };
}

/** The 865's answer (one per set, so usually one). */
export function cancellationAnswersFrom865(document: PurchaseOrderChangeAck): CancellationAnswer[] {
  return [answerFrom(document, document.changeNumber)];
}

/**
 * An 855 that answers a change (BAK01 01 cancellation or 04 change), else
 * null (a regular 855). ACK01 ID = accepted; IR/R* or BAK02 RJ/RD/... =
 * refused; AT/AK/AD/AC with no lines = accepted. The 855 has no change number.
 */
export function cancellationAnswerFrom855(ack: PurchaseOrderAck): CancellationAnswer | null {
  if (ack.purpose !== "01" && ack.purpose !== "04") return null;
  return answerFrom(ack);
}
