// Shared pieces of the document mappers: one transaction set's segments taken
// out of a read file, element and component access, X12 dates and numbers in
// and out, N1 party loops, REF references, qualified product IDs, and the
// collector of faults and warnings.
//
// Faults and warnings, for every document: a value that is present but wrong
// (a quantity that is not a number, a date that is not a date, a code outside
// its list) is a fault, with the AK4 code a 997 would report; structure the
// document lacks (a missing BEG, AK1, TDS...) is a warning, so a partner's
// incomplete but readable file still maps.
import type { ReadResult, SegmentTable } from "../x12/reader";
import type { TransactionSet } from "../x12/envelope";
import type { Delimiters } from "../x12/isa";
import type { Phrase } from "../messages";
import { faultPhrase } from "../texts";
import { AK3, AK4, said, type Fault } from "../x12/faults";
import type { SegmentData } from "../x12/writer";

/** One segment of a transaction set. */
export interface Segment {
  id: string;
  /** [0] is the segment ID. */
  elements: string[];
  /** 0-based position in the file. */
  index: number;
  /** Position inside the transaction set, ST = 1 (AK302). */
  position: number;
}

/** One transaction set, ST to SE inclusive, ready for a parser. */
export interface TransactionView {
  setId: string;
  controlNumber: string;
  segments: Segment[];
  delimiters: Delimiters;
  /** GS08 of the group holding the set, when known. */
  version?: string;
  /** Where the set sits in the file, stamped on every fault so a 997 can report it. */
  location: { interchange?: number; group?: number; transaction?: number };
}

/** What every parser returns. */
export interface Parsed<T> {
  document: T;
  /** The first MAX_ISSUES_KEPT faults of the set (by position). */
  faults: Fault[];
  warnings: Fault[];
  /** Faults and warnings found past MAX_ISSUES_KEPT: counted, not kept (absent when none). */
  notKept?: { faults: number; warnings: number };
}

/**
 * Faults and warnings kept per set (issue 28): a hostile set of 100,000 bad
 * lines would otherwise build 500,000 sentences (seconds of CPU, hundreds of
 * MB). The rest are counted; the set is judged the same either way.
 */
export const MAX_ISSUES_KEPT = 100;

type ReadSource = Pick<ReadResult, "segments"> & Partial<Pick<ReadResult, "interchanges">>;

/** The elements of every segment of a transaction set, ST to SE inclusive. */
export function transactionSegments(table: SegmentTable, transaction: TransactionSet): string[][] {
  const out: string[][] = [];
  for (let index = transaction.start; index <= transaction.end; index++) out.push(table.elements(index));
  return out;
}

/**
 * Takes one transaction set out of a read file, with its location for fault
 * reports: `where` when the caller knows it, else searched for in result.interchanges.
 */
export function viewTransaction(result: ReadSource, transaction: TransactionSet, where?: Required<TransactionView["location"]>): TransactionView {
  let location: TransactionView["location"] = {};
  let version: string | undefined;
  if (where) {
    location = { ...where };
    version = result.interchanges?.[where.interchange]?.groups[where.group]?.version;
  } else {
    result.interchanges?.forEach((interchange, i) =>
      interchange.groups.forEach((group, g) => {
        const t = group.transactions.indexOf(transaction);
        if (t !== -1) {
          location = { interchange: i, group: g, transaction: t };
          version = group.version;
        }
      }),
    );
  }
  const segments: Segment[] = [];
  for (let index = transaction.start; index <= transaction.end; index++) {
    const elements = result.segments.elements(index);
    segments.push({ id: elements[0], elements, index, position: index - transaction.start + 1 });
  }
  return {
    setId: transaction.setId,
    controlNumber: transaction.controlNumber,
    segments,
    delimiters: result.segments.delimiters(transaction.start),
    version,
    location,
  };
}

/** Element n of a segment, undefined when absent or empty (X12 does not distinguish them). */
export function element(segment: { elements: string[] }, n: number): string | undefined {
  const value = segment.elements[n];
  return value === undefined || value === "" ? undefined : value;
}

/** An element's components (C040-style composites). */
export function components(value: string | undefined, delimiters: Delimiters): string[] {
  return value === undefined || value === "" ? [] : value.split(delimiters.component);
}

/** An element's repetitions (version 00402 and later, when ISA11 is a separator). */
export function repetitions(value: string | undefined, delimiters: Delimiters): string[] {
  if (value === undefined || value === "") return [];
  return delimiters.repetition ? value.split(delimiters.repetition) : [value];
}

// ---------------------------------------------------------------------------
// Faults and warnings

/** One of our sentences about an element, given the element's name (SE01). */
export type ElementPhrase = (element: string) => Phrase;

export class Issues {
  constructor(
    private readonly view: Pick<TransactionView, "location" | "setId" | "controlNumber">,
    readonly faults: Fault[] = [],
    readonly warnings: Fault[] = [],
    /**
     * Whether a malformed value (a date, a number, a code) refuses the set. Only
     * where the app acts on every value (the 997); elsewhere a bad DTM date must
     * not cost a shipment, so it is a warning.
     */
    private readonly strictValues = false,
    /** How many of each list are kept; the 846 stream keeps its own bound (it empties the lists as it goes). */
    private readonly keep = MAX_ISSUES_KEPT,
  ) {}

  /** Faults and warnings past MAX_ISSUES_KEPT, counted without building their sentences. */
  private readonly notKept = { faults: 0, warnings: 0 };

  private full(list: "faults" | "warnings"): boolean {
    if (this[list].length < this.keep) return false;
    this.notKept[list]++;
    return true;
  }

  /** A value of the wrong form: a fault where values are strict, else a warning. */
  valueProblem(segment: Segment, n: number, code: string, message: string | ElementPhrase) {
    if (this.strictValues) return this.elementFault(segment, n, code, message);
    if (this.full("warnings")) return;
    this.warnings.push(this.elementIssue(segment, n, code, message));
  }

  private elementIssue(segment: Segment, n: number, code: string, message: string | ElementPhrase): Fault {
    const name = `${segment.id}${String(n).padStart(2, "0")}`;
    return {
      level: "element",
      segmentIndex: segment.index + 1,
      segmentId: segment.id,
      element: n,
      ack: { segment: "AK4", code },
      ...(typeof message === "string" ? { message: `${name} ${message}` } : said(message(name))),
      positionInTransaction: segment.position,
      ...this.view.location,
    };
  }

  /** A value present but wrong: reported as an AK4 element fault. */
  elementFault(segment: Segment, n: number, code: string, message: string | ElementPhrase) {
    if (this.full("faults")) return;
    this.faults.push(this.elementIssue(segment, n, code, message));
  }

  /** A mandatory segment the set lacks: a warning (see the header comment). */
  missingSegment(id: string, at: Segment | undefined, message?: string | Phrase) {
    if (this.full("warnings")) return;
    const phrase =
      message === undefined
        ? faultPhrase("no_segment", { set: this.view.setId, control: this.view.controlNumber, segment: id })
        : typeof message === "string"
          ? null
          : message;
    this.warnings.push({
      level: "segment",
      segmentIndex: (at?.index ?? 0) + 1,
      segmentId: id,
      ack: { segment: "AK3", code: AK3.mandatoryMissing },
      ...(phrase ? said(phrase) : { message: message as string }),
      positionInTransaction: at?.position,
      ...this.view.location,
    });
  }

  /**
   * Anything else worth telling: about an element (totals that do not add up,
   * a code outside its list), or about a segment out of its place.
   */
  note(segment: Segment, message: string | Phrase, n?: number, code: string = AK4.invalidCode) {
    if (this.full("warnings")) return;
    this.warnings.push({
      level: n === undefined ? "segment" : "element",
      segmentIndex: segment.index + 1,
      segmentId: segment.id,
      element: n,
      ack: n === undefined ? { segment: "AK3", code: AK3.unexpected } : { segment: "AK4", code },
      ...(typeof message === "string" ? { message } : said(message)),
      positionInTransaction: segment.position,
      ...this.view.location,
    });
  }

  /** What a reader returns: the document and what was found while reading it. */
  parsed<T>(document: T): Parsed<T> {
    const { faults, warnings } = this.notKept;
    return { document, faults: this.faults, warnings: this.warnings, ...(faults || warnings ? { notKept: { faults, warnings } } : {}) };
  }
}

// ---------------------------------------------------------------------------
// Numbers and dates, in and out

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const WHOLE = /^[+-]?\d+$/;

/** A decimal (R) or integer (N0) element as a number; a fault when it is not one. */
export function readNumber(issues: Issues, segment: Segment, n: number): number | undefined {
  return readMatching(issues, segment, n, DECIMAL, "not_number");
}

/** An N2 element (implied two decimals, e.g. TDS01 "255438" = 2554.38) as integer cents. */
export function readCents(issues: Issues, segment: Segment, n: number): number | undefined {
  const value = element(segment, n);
  // Some senders write the decimal point anyway: accept it, but say so.
  if (value !== undefined && !WHOLE.test(value.trim()) && DECIMAL.test(value.trim())) {
    issues.note(
      segment,
      faultPhrase("implied_decimal", { element: `${segment.id}${String(n).padStart(2, "0")}`, value: JSON.stringify(value) }),
      n,
      AK4.invalidCharacter,
    );
    return Math.round(Number(value) * 100);
  }
  return readMatching(issues, segment, n, WHOLE, "not_amount");
}

/** Element n as a number when `pattern` matches it; else the fault `fault` (invalid character), and undefined. */
function readMatching(issues: Issues, segment: Segment, n: number, pattern: RegExp, fault: "not_number" | "not_amount"): number | undefined {
  const value = element(segment, n);
  if (value === undefined) return undefined;
  if (pattern.test(value.trim())) return Number(value);
  issues.valueProblem(segment, n, AK4.invalidCharacter, (name) => faultPhrase(fault, { element: name, value: JSON.stringify(value) }));
  return undefined;
}

/** CCYYMMDD (or YYMMDD, before version 004010) as YYYY-MM-DD; a fault when it is not a date. */
export function readDate(issues: Issues, segment: Segment, n: number): string | undefined {
  const value = element(segment, n);
  if (value === undefined) return undefined;
  const iso = isoDate(value);
  if (!iso) issues.valueProblem(segment, n, AK4.invalidDate, (name) => faultPhrase("not_date", { element: name, value: JSON.stringify(value) }));
  return iso;
}

/** HHMM[SS[d..]] as HH:MM or HH:MM:SS; a fault when it is not a time. */
export function readTime(issues: Issues, segment: Segment, n: number): string | undefined {
  const value = element(segment, n);
  if (value === undefined) return undefined;
  const match = /^(\d{2})(\d{2})(\d{2})?\d*$/.exec(value);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || (match[3] !== undefined && Number(match[3]) > 59)) {
    issues.valueProblem(segment, n, AK4.invalidTime, (name) => faultPhrase("not_time", { element: name, value: JSON.stringify(value) }));
    return undefined;
  }
  return match[3] === undefined ? `${match[1]}:${match[2]}` : `${match[1]}:${match[2]}:${match[3]}`;
}

export function isoDate(value: string): string | undefined {
  let year: number, month: number, day: number;
  if (/^\d{8}$/.test(value)) {
    [year, month, day] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)), Number(value.slice(6, 8))];
  } else if (/^\d{6}$/.test(value)) {
    // Six-digit dates of old versions: the usual 50-year window.
    const yy = Number(value.slice(0, 2));
    [year, month, day] = [yy < 50 ? 2000 + yy : 1900 + yy, Number(value.slice(2, 4)), Number(value.slice(4, 6))];
  } else return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** YYYY-MM-DD or a Date (UTC) as CCYYMMDD. */
export function x12Date(value: string | Date | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString().slice(0, 10).replace(/-/g, "");
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new Error(`not a date YYYY-MM-DD: ${JSON.stringify(value)}`);
  return value.replace(/-/g, "");
}

/** HH:MM[:SS] as HHMM[SS]. */
export function x12Time(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{2}:\d{2}(:\d{2})?$/.test(value)) throw new Error(`not a time HH:MM[:SS]: ${JSON.stringify(value)}`);
  return value.replace(/:/g, "");
}

/** A number for an R element: no exponent, no float noise (0.1 + 0.2 → "0.3"), no trailing zeros. */
export function decimal(value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  const text = value.toFixed(6).replace(/\.?0+$/, "");
  return text === "-0" ? "0" : text;
}

/** Integer cents for an N2 element. */
export function cents(value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value)) throw new Error(`cents must be an integer, not ${value}`);
  return String(value);
}

// ---------------------------------------------------------------------------
// Product IDs, references, parties, contacts

/** Product IDs by qualifier (VP vendor part, SK SKU, IN buyer item, UP UPC...). */
export type ProductIds = Record<string, string>;

/** Qualifier/ID pairs from element `from` to `to` (PO106/PO107..., LIN02/LIN03...). */
export function productIds(segment: Segment, from: number, to = segment.elements.length - 1): ProductIds {
  const ids: ProductIds = {};
  for (let n = from; n + 1 <= to; n += 2) {
    const qualifier = element(segment, n);
    const id = element(segment, n + 1);
    if (qualifier && id !== undefined && !(qualifier in ids)) ids[qualifier] = id;
  }
  return ids;
}

/** The pairs written back: [qualifier, id, qualifier, id...]. */
export function productIdElements(ids: ProductIds): string[] {
  return Object.entries(ids).flatMap(([qualifier, id]) => [qualifier, id]);
}

// The merchant's own SKU first; the vendor's number when that is all there is.
const SKU_PREFERENCE = ["SK", "IN", "BP", "CB", "PN", "VP", "VN", "MG", "UP", "UK", "EN", "UI"];
const VENDOR_SKU = ["VP", "VN"];

/**
 * The baseline item data that PO1 (850, 855) and IT1 (810) share: line
 * number, quantity, unit, unit price, then product ids from element 6.
 */
export interface BaselineItem {
  /** As written: it is an identifier (e.g. "000001"). */
  lineNumber?: string;
  quantity?: number;
  uom?: string;
  unitPrice?: number;
  skus: ProductIds;
  /** The merchant's SKU picked from skus (SK, IN, BP... before the vendor's VP). */
  sku?: string;
  vendorSku?: string;
  description?: string;
}

export function readBaselineItem(issues: Issues, segment: Segment): BaselineItem {
  const skus = productIds(segment, 6);
  return dropUndefined({
    lineNumber: element(segment, 1),
    quantity: readNumber(issues, segment, 2),
    uom: element(segment, 3),
    unitPrice: readNumber(issues, segment, 4),
    skus,
    sku: pickSku(skus),
    vendorSku: pickVendorSku(skus),
  });
}

/** A PID after a line's baseline item: its free-form description (PID05), the first one only. */
export function readItemDescription(line: BaselineItem | undefined, segment: Segment): void {
  if (line && line.description === undefined && element(segment, 5) !== undefined) line.description = element(segment, 5);
}

export function pickSku(ids: ProductIds): string | undefined {
  for (const qualifier of SKU_PREFERENCE) if (ids[qualifier] !== undefined) return ids[qualifier];
  return Object.values(ids)[0];
}

export function pickVendorSku(ids: ProductIds): string | undefined {
  for (const qualifier of VENDOR_SKU) if (ids[qualifier] !== undefined) return ids[qualifier];
  return undefined;
}

/** A REF segment. */
export interface Reference {
  qualifier: string;
  value: string;
  description?: string;
}

export function readReference(segment: Segment): Reference {
  return dropUndefined({ qualifier: element(segment, 1) ?? "", value: element(segment, 2) ?? "", description: element(segment, 3) });
}

export function referenceSegment(reference: Reference): SegmentData {
  return ["REF", reference.qualifier, reference.value, reference.description];
}

/** An N1 loop: N1 with its N2, N3 and N4. */
export interface Party {
  /** N101 entity code: ST ship to, BT bill to, VN vendor, SF ship from, BY buyer, RE remit to... */
  entity: string;
  name?: string;
  /** N103/N104: the party's ID and its qualifier (1 DUNS, 9 DUNS+4, 92 assigned by buyer...). */
  idQualifier?: string;
  id?: string;
  /** N2 additional names. */
  names?: string[];
  /** N3 address lines, in order (N301, N302, then the next N3). */
  address?: string[];
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}

/** Feeds N1/N2/N3/N4 segments into the party list of whatever level is current. */
export function readPartySegment(segment: Segment, parties: Party[]): boolean {
  const last = parties[parties.length - 1];
  switch (segment.id) {
    case "N1":
      parties.push(dropUndefined({ entity: element(segment, 1) ?? "", name: element(segment, 2), idQualifier: element(segment, 3), id: element(segment, 4) }));
      return true;
    case "N2":
      if (!last) return false;
      last.names = [...(last.names ?? []), ...[element(segment, 1), element(segment, 2)].filter(isDefined)];
      return true;
    case "N3":
      if (!last) return false;
      last.address = [...(last.address ?? []), ...[element(segment, 1), element(segment, 2)].filter(isDefined)];
      return true;
    case "N4":
      if (!last) return false;
      Object.assign(last, dropUndefined({ city: element(segment, 1), state: element(segment, 2), zip: element(segment, 3), country: element(segment, 4) }));
      return true;
  }
  return false;
}

export function partySegments(party: Party): SegmentData[] {
  const out: SegmentData[] = [["N1", party.entity, party.name, party.idQualifier, party.id]];
  const pairs = (values: string[] | undefined) => {
    const rows: string[][] = [];
    for (let i = 0; i < (values?.length ?? 0); i += 2) rows.push(values!.slice(i, i + 2));
    return rows;
  };
  for (const names of pairs(party.names)) out.push(["N2", ...names]);
  for (const lines of pairs(party.address)) out.push(["N3", ...lines]);
  if (party.city || party.state || party.zip || party.country) out.push(["N4", party.city, party.state, party.zip, party.country]);
  return out;
}

/** A PER segment. */
export interface Contact {
  /** PER01: IC information contact, BD buyer, DC delivery contact... */
  function: string;
  name?: string;
  phone?: string;
  email?: string;
  fax?: string;
}

export function readContact(segment: Segment): Contact {
  const contact: Contact = { function: element(segment, 1) ?? "", name: element(segment, 2) };
  const field: Record<string, "phone" | "email" | "fax"> = { TE: "phone", EM: "email", FX: "fax" };
  for (let n = 3; n < segment.elements.length; n += 2) {
    const key = field[element(segment, n) ?? ""];
    const value = element(segment, n + 1);
    if (key && value !== undefined && contact[key] === undefined) contact[key] = value;
  }
  return dropUndefined(contact);
}

export function contactSegment(contact: Contact): SegmentData {
  const communications = (
    [
      ["TE", contact.phone],
      ["EM", contact.email],
      ["FX", contact.fax],
    ] as const
  ).filter(([, value]) => value !== undefined);
  return ["PER", contact.function, contact.name, ...communications.flat()];
}

/** CTT01 number of line items, CTT02 hash total (the sum of the lines' quantities). */
export function readTotals(issues: Issues, ctt: Segment): { lineCount?: number; hashTotal?: number } {
  return dropUndefined({ lineCount: readNumber(issues, ctt, 1), hashTotal: readNumber(issues, ctt, 2) });
}

/**
 * CTT01 is the number of line segments (PO1, IT1...); CTT02, when sent and
 * `checkHash`, the sum of their quantities. A mismatch is a warning: the lines
 * themselves are what the app uses.
 */
export function checkTotals(
  issues: Issues,
  ctt: Segment,
  document: { lines: { quantity?: number }[]; totals?: { lineCount?: number; hashTotal?: number } },
  checkHash = true,
) {
  const { lineCount, hashTotal } = document.totals ?? {};
  if (lineCount !== undefined && lineCount !== document.lines.length) {
    issues.note(ctt, faultPhrase("ctt_lines", { count: lineCount, lines: document.lines.length }), 1);
  }
  const sum = document.lines.reduce((total, line) => total + (line.quantity ?? 0), 0);
  if (checkHash && hashTotal !== undefined && Math.abs(hashTotal - sum) > 1e-6) {
    issues.note(ctt, faultPhrase("ctt_hash", { hash: hashTotal, sum: decimal(sum)! }), 2);
  }
}

// ---------------------------------------------------------------------------
// Small utilities

export const isDefined = <T>(value: T | undefined): value is T => value !== undefined;

/** Leaves out undefined properties so parsed objects print and compare cleanly. */
export function dropUndefined<T extends object>(value: T): T {
  // A new object rather than `delete`: deleting turns each line's object into a slow dictionary (a third of mapping 100,000 lines).
  const out = {} as T;
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

/** Adds to a list only values it does not hold yet. */
export function addUnique(list: string[], ...values: (string | undefined)[]) {
  for (const value of values) if (value !== undefined && !list.includes(value)) list.push(value);
  return list;
}
