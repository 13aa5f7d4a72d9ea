// 846 inventory advice: one record per LIN loop (LIN, PID, QTY, SCH/DTM).
// Vendors send whole catalogues, hundreds of megabytes, so the main reader
// streams: built on readX12Stream, it holds one segment and one record at a
// time. parse846 reads a small set whole (tests, mapTransaction). The
// generator writes big valid files quickly, for benchmarks.
import type { Readable } from "node:stream";
import { faultPhrase } from "../texts";
import { said, type Fault } from "../x12/faults";
import type { Delimiters } from "../x12/isa";
import { checkElements } from "./elements";
import { readX12Stream, type StreamSummary } from "../x12/stream";
import { SegmentWriter, writeInterchange, x12DateTime, type SegmentData, type TransactionData } from "../x12/writer";
import {
  decimal,
  dropUndefined,
  element,
  Issues,
  pickSku,
  pickVendorSku,
  productIdElements,
  productIds,
  readDate,
  readNumber,
  readTime,
  x12Date,
  x12Time,
  type Parsed,
  type ProductIds,
  type Segment,
  type TransactionView,
} from "./types";

export interface InventoryRecord {
  /** LIN01 */
  lineNumber?: string;
  skus: ProductIds;
  sku?: string;
  vendorSku?: string;
  /** The first QTY of the loop. */
  quantity?: number;
  /** QTY01: 33 quantity available for sale, 17 on hand, 02 cumulative, 29 inventory... */
  quantityQualifier?: string;
  uom?: string;
  /** Further QTY segments of the loop, when the vendor sends several. */
  otherQuantities?: { qualifier: string; quantity?: number; uom?: string }[];
  /** SCH06 (or DTM02 in the loop): when the scheduled quantity becomes available. */
  date?: string;
  /** SCH05 / DTM01, e.g. 018 available, 169 product availability. */
  dateQualifier?: string;
  /** SCH01 */
  scheduledQuantity?: number;
  /** PID05 */
  description?: string;
}

export interface InventoryHeader {
  /** BIA01: 00 original... */
  purpose?: string;
  /** BIA02: DD distributor inventory report, MM merchandise management, MB... */
  reportType?: string;
  /** BIA03 */
  reference?: string;
  /** BIA04 */
  date?: string;
  /** BIA05 */
  time?: string;
}

export interface InventoryAdvice extends InventoryHeader {
  records: InventoryRecord[];
  totals?: { lineCount?: number };
}

/** The quantity a vendor can ship now: QTY*33 when sent, else QTY*17 (on hand), else the first QTY. */
export function availableQuantity(record: InventoryRecord): number | undefined {
  const all = [{ qualifier: record.quantityQualifier, quantity: record.quantity }, ...(record.otherQuantities ?? [])];
  return (all.find((each) => each.qualifier === "33") ?? all.find((each) => each.qualifier === "17") ?? all[0])?.quantity;
}

/**
 * Turns the segments of 846 sets into records, one segment at a time: feed()
 * returns the record a segment completes (the next LIN, CTT or SE ends a loop).
 */
class InventoryAssembler {
  header: InventoryHeader = {};
  lineCount?: number;
  /** 0-based file position of the LIN of the record feed() last returned. */
  finishedAt = -1;
  private record?: InventoryRecord;
  private startedAt = -1;
  private dated = false;

  constructor(readonly issues: Issues) {}

  feed(segment: Segment): InventoryRecord | undefined {
    const issues = this.issues;
    switch (segment.id) {
      case "ST":
        this.header = {};
        this.lineCount = undefined;
        this.record = undefined;
        return undefined;
      case "BIA":
        this.header = dropUndefined({
          purpose: element(segment, 1),
          reportType: element(segment, 2),
          reference: element(segment, 3),
          date: readDate(issues, segment, 4),
          time: readTime(issues, segment, 5),
        });
        return undefined;
      case "LIN": {
        const done = this.finish();
        const skus = productIds(segment, 2);
        this.record = dropUndefined({ lineNumber: element(segment, 1), skus, sku: pickSku(skus), vendorSku: pickVendorSku(skus) });
        this.startedAt = segment.index;
        this.dated = false;
        return done;
      }
      case "PID":
        if (this.record && this.record.description === undefined && element(segment, 5) !== undefined) this.record.description = element(segment, 5);
        return undefined;
      case "QTY": {
        const record = this.record;
        if (!record) return undefined;
        const qualifier = element(segment, 1) ?? "";
        const quantity = readNumber(issues, segment, 2);
        // QTY03 is a composite (C001) whose first component is the unit.
        const uom = element(segment, 3)?.split(/[^A-Za-z0-9]/)[0] || undefined;
        if (record.quantityQualifier === undefined && record.quantity === undefined) {
          Object.assign(record, dropUndefined({ quantity, quantityQualifier: qualifier || undefined, uom }));
        } else {
          (record.otherQuantities ??= []).push(dropUndefined({ qualifier, quantity, uom }));
        }
        return undefined;
      }
      case "SCH":
        if (!this.record || this.dated) return undefined;
        this.dated = true;
        Object.assign(
          this.record,
          dropUndefined({
            scheduledQuantity: readNumber(issues, segment, 1),
            dateQualifier: element(segment, 5),
            date: readDate(issues, segment, 6),
          }),
        );
        if (this.record.uom === undefined && element(segment, 2)) this.record.uom = element(segment, 2);
        return undefined;
      case "DTM":
        if (!this.record || this.dated) return undefined;
        this.dated = true;
        Object.assign(this.record, dropUndefined({ dateQualifier: element(segment, 1), date: readDate(issues, segment, 2) }));
        return undefined;
      case "CTT":
        this.lineCount = readNumber(issues, segment, 1);
        return this.finish();
      case "SE":
        return this.finish();
      default:
        return undefined;
    }
  }

  private finish(): InventoryRecord | undefined {
    const done = this.record;
    this.record = undefined;
    this.finishedAt = this.startedAt;
    return done;
  }
}

/** Reads one 846 set whole. */
export function parse846(view: TransactionView): Parsed<InventoryAdvice> {
  const issues = new Issues(view);
  const assembler = new InventoryAssembler(issues);
  const records: InventoryRecord[] = [];
  let sawBia = false;
  let ctt: Segment | undefined;
  for (const segment of view.segments) {
    if (segment.id === "BIA") sawBia = true;
    if (segment.id === "CTT") ctt = segment;
    const record = assembler.feed(segment);
    if (record) records.push(record);
  }
  if (!sawBia) issues.missingSegment("BIA", view.segments[1]);
  const document: InventoryAdvice = { ...assembler.header, records };
  if (assembler.lineCount !== undefined) {
    document.totals = { lineCount: assembler.lineCount };
    if (assembler.lineCount !== records.length) issues.note(ctt!, faultPhrase("ctt_lines_846", { count: assembler.lineCount, lines: records.length }), 1);
  }
  return issues.parsed(document);
}

// ---------------------------------------------------------------------------
// Streaming

export interface InventoryContext {
  header: InventoryHeader;
  /** ST02 of the set holding the record. */
  controlNumber: string;
  /** 1-based file position of the record's LIN. */
  segmentIndex: number;
  /** Where the set is, as faults name it (0-based interchange, group and transaction): to skip a set that has faults. */
  location: { interchange: number; group: number; transaction: number };
}

export interface InventoryStreamResult {
  /** The envelope as readX12Stream read it: ok, faults, warnings, segment and byte counts. */
  envelope: StreamSummary;
  /** Content faults and warnings of the 846 sets, at most MAX_LISTED of each (then one line saying how many more). */
  faults: Fault[];
  warnings: Fault[];
  records: number;
  /** One per 846 set. */
  headers: (InventoryHeader & { controlNumber: string })[];
}

const MAX_LISTED = 1000;

/**
 * Streams the 846 sets of a file, calling onRecord per LIN loop; awaits it, so
 * a slow consumer slows the reading rather than filling memory. Segments of
 * other transaction sets are read past.
 */
export async function readInventoryStream(
  source: Readable | AsyncIterable<Buffer | string>,
  onRecord: (record: InventoryRecord, context: InventoryContext) => void | Promise<void>,
  options: { mode?: "strict" | "tolerant"; /** hard-wrapped (`unwrap_846`): every line break is dropped */ unwrap?: boolean } = {},
): Promise<InventoryStreamResult> {
  const faults: Fault[] = [];
  const warnings: Fault[] = [];
  const headers: InventoryStreamResult["headers"] = [];
  const location = { interchange: -1, group: -1, transaction: -1 };
  let view = { setId: "846", controlNumber: "", location: { ...location } };
  let assembler = new InventoryAssembler(new Issues(view, faults, warnings, false, Infinity));
  let start = 0;
  let records = 0;
  let dropped = 0;
  let sawBia = false;

  const envelope = await readX12Stream(
    source,
    // Not async: a promise per segment would double the cost of a big file; only onRecord's is passed on.
    (streamed) => {
      const { id } = streamed;
      if (id === "ISA") Object.assign(location, { interchange: location.interchange + 1, group: -1, transaction: -1 });
      else if (id === "GS") Object.assign(location, { group: location.group + 1, transaction: -1 });
      else if (id === "ST") location.transaction++;
      if (streamed.setId !== "846") return;
      if (id === "ST") {
        start = streamed.index;
        sawBia = false;
        view = { setId: "846", controlNumber: streamed.elements[2] ?? "", location: { ...location } };
        assembler = new InventoryAssembler(new Issues(view, faults, warnings, false, Infinity));
      }
      const segment: Segment = { id, elements: streamed.elements, index: streamed.index, position: streamed.index - start + 1 };
      checkElements(assembler.issues, segment); // the element table (elements.ts), as mapTransaction applies it
      if (id === "BIA") sawBia = true;
      if (id === "SE" && !sawBia) assembler.issues.missingSegment("BIA", segment);
      const record = assembler.feed(segment);
      if (id === "BIA") headers.push({ ...assembler.header, controlNumber: view.controlNumber });
      // Bounded lists: a file with a bad quantity on every line must not grow memory.
      if (faults.length > MAX_LISTED) dropped += faults.splice(MAX_LISTED).length;
      if (warnings.length > MAX_LISTED) dropped += warnings.splice(MAX_LISTED).length;
      if (!record) return;
      records++;
      return onRecord(record, { header: assembler.header, controlNumber: view.controlNumber, segmentIndex: assembler.finishedAt + 1, location: view.location });
    },
    options,
  );
  if (dropped > 0) {
    warnings.push({
      level: "transaction",
      segmentIndex: envelope.segmentCount,
      segmentId: "",
      ack: { segment: "AK5", code: "5" },
      ...said(faultPhrase("not_listed", { count: dropped })),
    });
  }
  return { envelope, faults, warnings, records, headers };
}

/**
 * The same stream as an async iterator: `for await (const record of inventoryRecords(file))`.
 * The generator's return value is the InventoryStreamResult. Leaving the loop
 * early stops the reading.
 */
export async function* inventoryRecords(
  source: Readable | AsyncIterable<Buffer | string>,
  options: { mode?: "strict" | "tolerant" } = {},
): AsyncGenerator<InventoryRecord, InventoryStreamResult | undefined> {
  const queue: InventoryRecord[] = [];
  const HIGH_WATER = 1024;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;
  let finished = false;
  let stopped = false;
  let failure: unknown;
  let result: InventoryStreamResult | undefined;
  const stop = new Error("inventoryRecords: the consumer stopped");

  const reading = readInventoryStream(
    source,
    (record) => {
      if (stopped) throw stop;
      queue.push(record);
      wakeConsumer?.();
      if (queue.length < HIGH_WATER) return;
      // A full queue: the reading waits for the consumer to take a batch.
      return new Promise<void>((resolve) => (wakeProducer = resolve)).then(() => {
        if (stopped) throw stop;
      });
    },
    options,
  )
    .then(
      (value) => void (result = value),
      (error) => void (failure = error),
    )
    .finally(() => {
      finished = true;
      wakeConsumer?.();
    });

  try {
    for (;;) {
      if (queue.length > 0) {
        const batch = queue.splice(0);
        const producer = wakeProducer;
        wakeProducer = undefined;
        producer?.();
        for (const record of batch) yield record;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wakeConsumer = resolve));
      wakeConsumer = undefined;
    }
  } finally {
    if (!finished) {
      stopped = true;
      wakeProducer?.();
      await reading;
    }
  }
  if (failure && failure !== stop) throw failure;
  return result;
}

// ---------------------------------------------------------------------------
// Building

export interface InventoryAdviceInput extends InventoryHeader {
  records: (Omit<InventoryRecord, "skus"> & { skus?: ProductIds })[];
}

export function build846(advice: InventoryAdviceInput, controlNumber: string): TransactionData {
  const segments: SegmentData[] = [["BIA", advice.purpose ?? "00", advice.reportType ?? "DD", advice.reference, x12Date(advice.date), x12Time(advice.time)]];
  for (const record of advice.records) segments.push(...recordSegments(record));
  segments.push(["CTT", advice.records.length]);
  return { setId: "846", controlNumber, segments };
}

function recordSegments(record: InventoryAdviceInput["records"][number]): SegmentData[] {
  const skus = record.skus ?? (record.sku ? { SK: record.sku } : {});
  const out: SegmentData[] = [["LIN", record.lineNumber, ...productIdElements(skus)]];
  if (record.description) out.push(["PID", "F", undefined, undefined, undefined, record.description]);
  if (record.quantity !== undefined || record.quantityQualifier !== undefined) {
    out.push(["QTY", record.quantityQualifier ?? "33", decimal(record.quantity), record.uom ?? "EA"]);
  }
  for (const other of record.otherQuantities ?? []) out.push(["QTY", other.qualifier, decimal(other.quantity), other.uom]);
  if (record.date !== undefined) {
    // SCH carries a quantity and its date; a bare date goes in a DTM.
    if (record.scheduledQuantity !== undefined)
      out.push(["SCH", decimal(record.scheduledQuantity), record.uom ?? "EA", undefined, undefined, record.dateQualifier ?? "018", x12Date(record.date)]);
    else out.push(["DTM", record.dateQualifier ?? "018", x12Date(record.date)]);
  }
  return out;
}

export interface Generate846Options {
  /** Default `*` `~` `>`. */
  delimiters?: Delimiters;
  sender?: { qualifier: string; id: string };
  receiver?: { qualifier: string; id: string };
  date?: Date;
  /** ISA13 and GS06. */
  controlNumber?: number;
  /** LIN loops per 846 set; the standard's LIN loop limit is 10000. */
  linesPerTransaction?: number;
  skuPrefix?: string;
  /** Added after each terminator, e.g. "\n". */
  lineBreak?: string;
  /** Yield the file in chunks of about this many characters rather than return one string. */
  chunkSize?: number;
}

/**
 * A large valid 846 interchange: `lineCount` LIN loops (LIN with SK and UP,
 * QTY*33, and every tenth an SCH restock date), split into sets of
 * linesPerTransaction in one IB group. About 58 bytes a line: 900,000 lines
 * make 52 MB. Segments are written by hand (not SegmentWriter) for speed;
 * every value is digits or the checked SKU prefix, so none holds a delimiter.
 */
export function generate846(lineCount: number, options?: Generate846Options & { chunkSize?: undefined }): string;
export function generate846(lineCount: number, options: Generate846Options & { chunkSize: number }): Generator<string>;
export function generate846(lineCount: number, options: Generate846Options = {}): string | Generator<string> {
  if (options.chunkSize !== undefined) return generate846Chunks(lineCount, options);
  // Joined from 64 KB pieces: appending to one growing string is ten times slower.
  return [...generate846Chunks(lineCount, { ...options, chunkSize: 1 << 16 })].join("");
}

function* generate846Chunks(lineCount: number, options: Generate846Options): Generator<string> {
  const delimiters = options.delimiters ?? { element: "*", segment: "~", component: ">" };
  const e = delimiters.element;
  const end = delimiters.segment + (/^[\r\n]+$/.test(delimiters.segment) ? "" : (options.lineBreak ?? ""));
  const prefix = options.skuPrefix ?? "SKU-";
  const used = [delimiters.element, delimiters.segment, delimiters.component, delimiters.repetition ?? ""].join("");
  if ([...prefix].some((char) => used.includes(char))) throw new Error(`generate846: the SKU prefix ${JSON.stringify(prefix)} holds a delimiter`);
  const perSet = Math.max(1, options.linesPerTransaction ?? 10000);
  const chunkSize = options.chunkSize ?? 1 << 16;
  const at = options.date ?? new Date();
  const { date8, time } = x12DateTime(at);
  const control = options.controlNumber ?? 1;
  const sender = options.sender ?? { qualifier: "ZZ", id: "VENDOR" };
  const receiver = options.receiver ?? { qualifier: "ZZ", id: "MERCHANT" };

  // The ISA comes from writeInterchange (fixed widths, padding): its first 105 characters.
  const isa = writeInterchange({ delimiters, sender, receiver, date: x12DateTime(at).date6, time, controlNumber: control, groups: [] }).text.slice(0, 105);
  const writer = new SegmentWriter(delimiters);
  const sets = Math.max(1, Math.ceil(lineCount / perSet));
  const restock = x12DateTime(new Date(at.getTime() + 14 * 86_400_000)).date8;

  // Pieces joined per chunk: join() gives a flat string, where += would leave
  // a rope of small strings that costs the garbage collector dearly once kept.
  let pieces: string[] = [isa, end, writer.segment(["GS", "IB", sender.id, receiver.id, date8, time, control, "X", "004010"]), end];
  let size = 0;
  let line = 0;
  for (let set = 1; set <= sets; set++) {
    const controlNumber = String(set).padStart(4, "0");
    const lines = Math.min(perSet, lineCount - line);
    let segments = 2;
    pieces.push(`ST${e}846${e}${controlNumber}${end}BIA${e}00${e}DD${e}INV${set}${e}${date8}${end}`);
    for (let n = 0; n < lines; n++) {
      line++;
      const quantity = (line * 7919) % 500;
      let piece =
        `LIN${e}${line}${e}SK${e}${prefix}${String(line).padStart(7, "0")}${e}UP${e}` +
        `${String(line).padStart(12, "0")}${end}QTY${e}33${e}${quantity}${e}EA${end}`;
      segments += 2;
      if (line % 10 === 0) {
        piece += `SCH${e}${quantity + 100}${e}EA${e}${e}${e}018${e}${restock}${end}`;
        segments++;
      }
      pieces.push(piece);
      size += piece.length;
      if (size >= chunkSize) {
        yield pieces.join("");
        pieces = [];
        size = 0;
      }
    }
    pieces.push(`CTT${e}${lines}${end}SE${e}${segments + 2}${e}${controlNumber}${end}`);
  }
  pieces.push(`GE${e}${sets}${e}${control}${end}IEA${e}1${e}${String(control).padStart(9, "0")}${end}`);
  yield pieces.join("");
}
