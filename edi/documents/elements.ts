// One table of the elements the document readers (850, 855, 856, 810, 846, 865)
// read, per segment: maximum length, type and whether X12 makes it mandatory
// (004010, with 005010's larger maximum where it grew). checkElements applies
// it in one place for every document (mapTransaction, readInventoryStream):
// - a control character (U+0000–U+001F, U+007F) or U+FFFD (a byte that was not
//   UTF-8) in an element of these segments: AK4 6;
// - an element longer than its maximum: AK4 5 (R and N count digits only, as X12.6 does);
// - a mandatory element missing: AK4 1.
// Each is a fault: the set is refused and acknowledged with that code (D70).
// The form of dates, times, numbers and codes stays with the readers (warnings).
import { faultPhrase } from "../texts";
import { AK4 } from "../x12/faults";
import type { Issues, Segment } from "./types";

type ElementType = "AN" | "ID" | "DT" | "TM" | "N0" | "N2" | "R";
/** [position, maximum length, type, mandatory]. */
type ElementDefinition = readonly [number, number, ElementType, boolean];

const M = true;
const O = false;

/** PO1 (850, 855) and IT1 (810) are X12's baseline item data: the same elements, 01 to 11. */
const BASELINE_ITEM: readonly ElementDefinition[] = [
  [1, 20, "AN", O],
  [2, 15, "R", O],
  [3, 2, "ID", O],
  [4, 17, "R", O],
  [6, 2, "ID", O],
  [7, 48, "AN", O],
  [8, 2, "ID", O],
  [9, 48, "AN", O],
  [10, 2, "ID", O],
  [11, 48, "AN", O],
];

export const ELEMENTS: Record<string, readonly ElementDefinition[]> = {
  BEG: [
    [1, 2, "ID", M],
    [2, 2, "ID", M],
    [3, 22, "AN", M],
    [4, 30, "AN", O],
    [5, 8, "DT", M],
  ],
  BAK: [
    [1, 2, "ID", M],
    [2, 2, "ID", M],
    [3, 22, "AN", M],
    [4, 8, "DT", O],
    [5, 30, "AN", O],
    [6, 45, "AN", O],
    [7, 30, "AN", O],
    [8, 22, "AN", O],
    [9, 8, "DT", O],
  ],
  // 865 (004010): BCA02 is optional there, as BCA06 (the PO date) is mandatory.
  BCA: [
    [1, 2, "ID", M],
    [2, 2, "ID", O],
    [3, 22, "AN", M],
    [4, 30, "AN", O],
    [5, 8, "AN", O],
    [6, 8, "DT", M],
    [7, 45, "AN", O],
    [8, 30, "AN", O],
    [9, 30, "AN", O],
  ],
  // 865 line: POC03/POC04 quantities ordered and left, then product ID pairs from POC08.
  POC: [
    [1, 20, "AN", O],
    [2, 2, "ID", M],
    [3, 15, "R", O],
    [4, 9, "R", O],
    [5, 2, "ID", O],
    [6, 17, "R", O],
    [7, 2, "ID", O],
    [8, 2, "ID", O],
    [9, 48, "AN", O],
    [10, 2, "ID", O],
    [11, 48, "AN", O],
  ],
  BSN: [
    [1, 2, "ID", M],
    [2, 30, "AN", M],
    [3, 8, "DT", O],
    [4, 8, "TM", O],
    [5, 4, "ID", O],
  ],
  BIG: [
    [1, 8, "DT", M],
    [2, 22, "AN", M],
    [3, 8, "DT", O],
    [4, 22, "AN", O],
    [5, 30, "AN", O],
    [6, 22, "AN", O],
    [7, 2, "ID", O],
  ],
  BIA: [
    [1, 2, "ID", M],
    [2, 2, "ID", M],
    [3, 30, "AN", M],
    [4, 8, "DT", M],
    [5, 8, "TM", O],
  ],
  HL: [
    [1, 12, "AN", M],
    [2, 12, "AN", O],
    [3, 2, "ID", M],
    [4, 1, "ID", O],
  ],
  PRF: [
    [1, 22, "AN", M],
    [4, 8, "DT", O],
  ],
  REF: [
    [1, 3, "ID", M],
    [2, 50, "AN", O],
    [3, 80, "AN", O],
  ],
  MAN: [
    [1, 2, "ID", M],
    [2, 48, "AN", M],
  ],
  TD1: [
    [1, 5, "AN", O],
    [2, 7, "N0", O],
    [6, 2, "ID", O],
    [7, 10, "R", O],
    [8, 2, "ID", O],
  ],
  TD5: [
    [2, 2, "ID", O],
    [3, 80, "AN", O],
    [4, 2, "ID", O],
    [5, 35, "AN", O],
  ],
  LIN: [
    [1, 20, "AN", O],
    [2, 2, "ID", M],
    [3, 48, "AN", M],
    [4, 2, "ID", O],
    [5, 48, "AN", O],
    [6, 2, "ID", O],
    [7, 48, "AN", O],
    [8, 2, "ID", O],
    [9, 48, "AN", O],
  ],
  SN1: [
    [1, 20, "AN", O],
    [2, 10, "R", M],
    [3, 2, "ID", M],
    [5, 15, "R", O],
    [6, 2, "ID", O],
    [8, 2, "ID", O],
  ],
  PO1: BASELINE_ITEM,
  IT1: BASELINE_ITEM,
  ACK: [
    [1, 2, "ID", M],
    [2, 15, "R", O],
    [3, 2, "ID", O],
    [4, 3, "ID", O],
    [5, 8, "DT", O],
  ],
  DTM: [
    [1, 3, "ID", M],
    [2, 8, "DT", O],
    [3, 8, "TM", O],
  ],
  N1: [
    [1, 3, "ID", M],
    [2, 60, "AN", O],
    [3, 2, "ID", O],
    [4, 80, "AN", O],
  ],
  N2: [
    [1, 60, "AN", M],
    [2, 60, "AN", O],
  ],
  N3: [
    [1, 55, "AN", M],
    [2, 55, "AN", O],
  ],
  N4: [
    [1, 30, "AN", O],
    [2, 2, "ID", O],
    [3, 15, "ID", O],
    [4, 3, "ID", O],
  ],
  PER: [
    [1, 2, "ID", M],
    [2, 60, "AN", O],
    [3, 2, "ID", O],
    [4, 256, "AN", O],
    [5, 2, "ID", O],
    [6, 256, "AN", O],
    [7, 2, "ID", O],
    [8, 256, "AN", O],
  ],
  PID: [
    [1, 1, "ID", M],
    [5, 80, "AN", O],
  ],
  CTT: [
    [1, 6, "N0", M],
    [2, 10, "R", O],
  ],
  TDS: [[1, 15, "N2", M]],
  SAC: [
    [1, 1, "ID", M],
    [2, 4, "ID", O],
    [5, 15, "N2", O],
    [15, 80, "AN", O],
  ],
  QTY: [
    [1, 2, "ID", M],
    [2, 15, "R", O],
    [3, 2, "ID", O],
  ],
  SCH: [
    [1, 15, "R", M],
    [2, 2, "ID", M],
    [5, 3, "ID", M],
    [6, 8, "DT", M],
    [7, 8, "TM", O],
  ],
};

// eslint-disable-next-line no-control-regex
const INVALID = /[\u0000-\u001f\u007f\ufffd]/;

/** X12.6: the length of R and N elements counts digits, not the sign or the decimal point. */
const lengthOf = (value: string, type: ElementType) => (type === "R" || type === "N0" || type === "N2" ? value.replace(/[^0-9]/g, "").length : value.length);

/** Checks one segment's elements against ELEMENTS; a segment without an entry is left alone. */
export function checkElements(issues: Issues, segment: Segment): void {
  const definitions = ELEMENTS[segment.id];
  if (!definitions) return;
  const elements = segment.elements;
  for (let n = 1; n < elements.length; n++) {
    const value = elements[n];
    if (value && INVALID.test(value)) {
      const at = value.search(INVALID);
      issues.elementFault(segment, n, AK4.invalidCharacter, (name) =>
        faultPhrase("invalid_character", {
          element: name,
          character: `U+${value.charCodeAt(at).toString(16).toUpperCase().padStart(4, "0")}`,
          position: at + 1,
        }),
      );
    }
  }
  for (const [n, max, type, mandatory] of definitions) {
    const value = elements[n];
    if (value === undefined || value === "") {
      if (mandatory) issues.elementFault(segment, n, AK4.mandatoryMissing, (name) => faultPhrase("mandatory_missing", { element: name }));
      continue;
    }
    if (lengthOf(value, type) > max)
      issues.elementFault(segment, n, AK4.tooLong, (name) => faultPhrase("too_long", { element: name, max, length: value.length }));
  }
}

// ---------------------------------------------------------------------------
// What the app acts on (D219)

/** Elements a..b of a segment, named as X12 does (LIN02, LIN03...). */
const range = (segment: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => `${segment}${String(from + k).padStart(2, "0")}`);

/**
 * Per received set, the elements whose values the app applies (from what
 * app/dropship/flow reads out of each document): the order, the product, the
 * quantity, the tracking number and carrier, the invoice. A fault in any other
 * element (an address's N402, an 846's QTY03 unit) loses nothing the app
 * records, so a lenient vendor's set is applied with the fault noted. A set
 * not listed (997, 850) uses every element. Product IDs come in pairs from
 * their first qualifier on: every pair counts, as readers take the first of
 * any qualifier.
 */
export const APPLIED_ELEMENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  // shipmentInputs: PO (PRF01, else BSN02), HL structure, product and shipped quantity, tracking (REF, MAN), carrier (TD503 SCAC, TD505 routing).
  "856": new Set(["BSN02", ...range("HL", 1, 3), "PRF01", ...range("LIN", 1, 31), "SN102", "REF01", "REF02", "MAN01", "MAN02", "TD503", "TD505"]),
  // applyStock: the product and its quantity (QTY01 picks which quantity).
  "846": new Set([...range("LIN", 1, 31), "QTY01", "QTY02"]),
  // ackInputs: the PO, its status and each line's product, quantity, status and date.
  "855": new Set([...range("BAK", 1, 3), ...range("PO1", 1, 25), ...range("ACK", 1, 5)]),
  // cancellationAnswersFrom865: the PO, its change number and status, each line's number, product, quantity and status.
  "865": new Set([...range("BCA", 1, 5), ...range("POC", 1, 4), ...range("POC", 8, 27), ...range("ACK", 1, 2)]),
  // invoiceLines: invoice and PO numbers, each line's product, quantity and unit price.
  "810": new Set(["BIG02", "BIG04", ...range("IT1", 1, 25)]),
};

/** A set's element the app acts on: listed for its set, or any element of a set without a list. */
export const appliesElement = (setId: string, elementName: string) => APPLIED_ELEMENTS[setId]?.has(elementName) ?? true;
