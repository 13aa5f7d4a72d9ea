// Writes X12 interchanges: the ISA with its fixed-width padding, the vendor's
// delimiters, GS/GE and ST/SE with correct counts. Values never carry a
// delimiter: one found in a value is replaced by a space (reported), since X12
// has no escaping and a stray "*" in an address would shift every element.
import { assertDelimiters, chooseRepetition, COMPONENT_CANDIDATES, firstFree } from "./delimiters";
import type { Delimiters } from "./isa";

/** A segment as elements; [0] is the segment ID. Arrays inside are components (or repetitions of components). */
export type SegmentData = Array<string | number | null | undefined | Array<string | number | null | undefined>>;

export interface TransactionData {
  setId: string;
  /** ST02; 4 to 9 characters. */
  controlNumber: string;
  /** ST03 (implementation convention), when used. */
  convention?: string;
  /** The body, without ST and SE. */
  segments: SegmentData[];
}

export interface GroupData {
  functionalId: string;
  sender: string;
  receiver: string;
  /** CCYYMMDD */
  date: string;
  /** HHMM */
  time: string;
  controlNumber: string;
  /** GS08, e.g. 004010 */
  version?: string;
  transactions: TransactionData[];
}

export interface InterchangeData {
  delimiters: Delimiters;
  sender: { qualifier: string; id: string };
  receiver: { qualifier: string; id: string };
  /** YYMMDD */
  date: string;
  /** HHMM */
  time: string;
  /** ISA13, up to 9 digits. */
  controlNumber: string | number;
  /** ISA12, default 00401. */
  version?: string;
  /** ISA15: P production, T test. */
  usage?: "P" | "T";
  ackRequested?: "0" | "1";
  groups: GroupData[];
  /** Interchange-level segments written right after the ISA, before any GS (a TA1). */
  serviceSegments?: SegmentData[];
  /** Added after each terminator for people reading the file (e.g. "\n"); never when the terminator is a line break. */
  lineBreak?: string;
}

export interface WriteResult {
  text: string;
  /** Values in which a delimiter had to be replaced. */
  replaced: string[];
  segmentCount: number;
}

const fit = (value: string, width: number) => value.slice(0, width).padEnd(width, " ");

/** Date and time for ISA09/10 and GS04/05 from a Date, in UTC. */
export function x12DateTime(at = new Date()) {
  const iso = at.toISOString();
  return { date8: iso.slice(0, 10).replace(/-/g, ""), date6: iso.slice(2, 10).replace(/-/g, ""), time: iso.slice(11, 16).replace(":", "") };
}

export class SegmentWriter {
  readonly replaced: string[] = [];
  private readonly forbidden: RegExp;

  constructor(readonly delimiters: Delimiters) {
    const chars = [delimiters.element, delimiters.component, delimiters.segment, delimiters.repetition ?? ""].join("").split("").filter(Boolean);
    const escaped = [...new Set(chars)].map((char) => char.replace(/[\\\]^-]/g, "\\$&")).join("");
    this.forbidden = new RegExp(`[${escaped}]`, "g");
  }

  private clean(value: string | number | null | undefined): string {
    if (value === null || value === undefined) return "";
    const text = String(value);
    this.forbidden.lastIndex = 0;
    if (!this.forbidden.test(text)) return text;
    this.replaced.push(text);
    return text.replace(this.forbidden, " ");
  }

  /** One value with delimiters replaced (reported in `replaced`). */
  value(value: string): string {
    return this.clean(value);
  }

  private element(value: SegmentData[number]): string {
    if (!Array.isArray(value)) return this.clean(value);
    return value.map((component) => this.clean(component)).join(this.delimiters.component);
  }

  /** One segment, with trailing empty elements left out. */
  segment(data: SegmentData): string {
    const values = data.map((value) => this.element(value));
    let last = values.length - 1;
    while (last > 0 && values[last] === "") last--;
    return values.slice(0, last + 1).join(this.delimiters.element);
  }

  /** One segment exactly as given (no trimming): for writing read segments back. */
  exact(elements: string[]): string {
    return elements.join(this.delimiters.element);
  }
}

export function writeInterchange(data: InterchangeData): WriteResult {
  const { delimiters } = data;
  const writer = new SegmentWriter(delimiters);
  const version = data.version ?? "00401";
  const isa11 = Number(version) >= 402 ? (delimiters.repetition ?? chooseRepetition(delimiters)) : "U";
  // The reader must read back what we write: the same rule refuses a vendor's delimiters on save (D72).
  assertDelimiters(Number(version) >= 402 ? { ...delimiters, repetition: isa11 } : delimiters, version);
  const control = String(data.controlNumber).padStart(9, "0");
  if (!/^\d{9}$/.test(control)) throw new Error(`ISA13 must be up to 9 digits, not ${JSON.stringify(data.controlNumber)}`);
  for (const group of data.groups) {
    // GS06 is N0 1/9 and ST02 AN 4/9: control numbers wrap (edi/control-numbers.ts), they never grow a tenth digit.
    if (!/^\d{1,9}$/.test(group.controlNumber)) throw new Error(`GS06 must be 1 to 9 digits, not ${JSON.stringify(group.controlNumber)}`);
    for (const transaction of group.transactions) {
      if (!/^[^\s]{4,9}$/.test(transaction.controlNumber)) throw new Error(`ST02 must be 4 to 9 characters, not ${JSON.stringify(transaction.controlNumber)}`);
    }
  }

  // IDs echoed from a partner's ISA may hold our delimiters or control characters: replaced by spaces, the width kept.
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const isaValue = (value: string) => writer.value(value).replace(/[\u0000-\u001f\u007f]/g, " ");
  const isa = [
    "ISA",
    "00",
    fit("", 10),
    "00",
    fit("", 10),
    fit(isaValue(data.sender.qualifier), 2),
    fit(isaValue(data.sender.id), 15),
    fit(isaValue(data.receiver.qualifier), 2),
    fit(isaValue(data.receiver.id), 15),
    data.date,
    data.time,
    isa11,
    version,
    control,
    data.ackRequested ?? "0",
    data.usage ?? "P",
    delimiters.component,
  ].join(delimiters.element);

  const lines: string[] = [isa];
  for (const segment of data.serviceSegments ?? []) lines.push(writer.segment(segment));
  for (const group of data.groups) {
    lines.push(
      writer.segment(["GS", group.functionalId, group.sender, group.receiver, group.date, group.time, group.controlNumber, "X", group.version ?? "004010"]),
    );
    for (const transaction of group.transactions) {
      lines.push(writer.segment(["ST", transaction.setId, transaction.controlNumber, transaction.convention]));
      for (const segment of transaction.segments) lines.push(writer.segment(segment));
      lines.push(writer.segment(["SE", transaction.segments.length + 2, transaction.controlNumber]));
    }
    lines.push(writer.segment(["GE", group.transactions.length, group.controlNumber]));
  }
  lines.push(writer.segment(["IEA", data.groups.length, control]));

  const isLineBreak = delimiters.segment === "\n" || delimiters.segment === "\r\n" || delimiters.segment === "\r";
  const after = delimiters.segment + (isLineBreak ? "" : (data.lineBreak ?? ""));
  return { text: lines.join(after) + after, replaced: writer.replaced, segmentCount: lines.length };
}

/** The vendor's output delimiters (`output_delimiter`, `output_segmenter`), with X12's usual defaults. */
export function vendorDelimiters(vendor: { output_delimiter?: string | null; output_segmenter?: string | null }, component?: string): Delimiters {
  const unescape = (value: string | null | undefined, fallback: string) => {
    if (!value) return fallback;
    return value.replace(/\\r/g, "\r").replace(/\\n/g, "\n").replace(/\\t/g, "\t");
  };
  const element = unescape(vendor.output_delimiter, "*");
  const segment = unescape(vendor.output_segmenter, "~");
  // The vendor chooses two; the component and repetition separators are the first of a fixed list that differ from them (D72).
  const chosenComponent = component ?? firstFree(COMPONENT_CANDIDATES, [element, segment]);
  return { element, segment, component: chosenComponent, repetition: chooseRepetition({ element, segment, component: chosenComponent }) };
}

/** Writes read segments back exactly, each with its interchange's delimiters. */
export function writeSegmentsBack(table: { length: number; elements(index: number): string[]; delimiters(index: number): Delimiters }): string {
  let out = "";
  for (let index = 0; index < table.length; index++) {
    const delimiters = table.delimiters(index);
    out += table.elements(index).join(delimiters.element) + delimiters.segment;
  }
  return out;
}
