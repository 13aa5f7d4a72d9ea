// Reads X12 text: any number of interchanges, each with its own delimiters
// read from its ISA. Tolerates a UTF-8 byte-order mark, line breaks and
// indentation between segments, line breaks inside segments when the
// terminator is not a line break (hard-wrapped files), and a missing final
// terminator. Segments are kept as offsets into the text (not objects) so a
// whole-file read costs little more memory than the file itself.
import { faultPhrase } from "../texts";
import { describeFault, said, type Fault } from "./faults";
import { EnvelopeReader, type Interchange } from "./envelope";
import { readIsa, type Delimiters } from "./isa";

export interface ReadOptions {
  /** Strict (default): control-structure faults make the read fail. Tolerant: they become warnings. */
  mode?: "strict" | "tolerant";
  /** The file is hard-wrapped (`unwrap_846`): every line break is dropped before reading. */
  unwrap?: boolean;
  /** Vendor hints (input_segmenter / input_delimiter); the ISA is trusted over them. */
  hints?: { segment?: string | null; element?: string | null };
}

export interface ReadResult {
  ok: boolean;
  interchanges: Interchange[];
  /** Faults that refuse the file (strict mode). */
  faults: Fault[];
  /** Faults accepted in tolerant mode, and notes such as a hint the ISA contradicted. */
  warnings: Fault[];
  segments: SegmentTable;
}

/** Every segment of the file as a [start, end) range of the text, plus its interchange's delimiters. */
export class SegmentTable {
  private starts = new Uint32Array(1024);
  private ends = new Uint32Array(1024);
  // Which interchange's delimiters: 32 bits, since a file may hold more than 65,535 interchanges (D71).
  private owners = new Uint32Array(1024);
  private strip: Uint8Array = new Uint8Array(1024);
  readonly delimiterSets: Delimiters[] = [];
  length = 0;

  constructor(readonly text: string) {}

  add(start: number, end: number, delimiterSet: number, stripLineBreaks: boolean) {
    if (this.length === this.starts.length) this.grow();
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.owners[this.length] = delimiterSet;
    this.strip[this.length] = stripLineBreaks ? 1 : 0;
    return this.length++;
  }

  private grow() {
    const size = this.starts.length * 2;
    const copy = <T extends Uint32Array | Uint8Array>(from: T, to: T) => (to.set(from), to);
    this.starts = copy(this.starts, new Uint32Array(size));
    this.ends = copy(this.ends, new Uint32Array(size));
    this.owners = copy(this.owners, new Uint32Array(size));
    this.strip = copy(this.strip, new Uint8Array(size));
  }

  // The last search for an element separator that ran past its segment: from
  // `farFrom`, the next one is at `farAt` (text.length when there is none). A
  // segment without a separator would otherwise send every later search to
  // the end of the text (D71). Written only then, so that the usual search
  // costs one comparison more than indexOf alone (D74).
  private farSeparator = "";
  private farFrom = 0;
  private farAt = -1;

  /** Position of the next `separator` at or after `from`; text.length when there is none. */
  private nextSeparator(separator: string, from: number, end: number): number {
    if (from <= this.farAt && from >= this.farFrom && separator === this.farSeparator) return this.farAt;
    let at = this.text.indexOf(separator, from);
    if (at === -1) at = this.text.length;
    if (at >= end) {
      this.farSeparator = separator;
      this.farFrom = from;
      this.farAt = at;
    }
    return at;
  }

  delimiters(index: number): Delimiters {
    return this.delimiterSets[this.owners[index]];
  }

  /** The segment's text without its terminator. */
  raw(index: number): string {
    const text = this.text.slice(this.starts[index], this.ends[index]);
    return this.strip[index] ? text.replace(/[\r\n]+/g, "") : text;
  }

  /** Elements, [0] being the segment ID. */
  elements(index: number): string[] {
    const separator = this.delimiters(index).element;
    if (this.strip[index]) return this.raw(index).split(separator);
    // Sliced straight from the file's text: twice as fast as slicing the
    // segment and splitting it (docs/performance.md).
    const text = this.text;
    const end = this.ends[index];
    let from = this.starts[index];
    const out: string[] = [];
    for (;;) {
      const next = this.nextSeparator(separator, from, end);
      if (next >= end) {
        out.push(text.slice(from, end));
        return out;
      }
      out.push(text.slice(from, next));
      from = next + separator.length;
    }
  }

  id(index: number): string {
    const start = this.starts[index];
    const end = this.ends[index];
    const separator = this.delimiters(index).element;
    const stop = this.nextSeparator(separator, start, end);
    const id = this.text.slice(start, stop > end ? end : stop);
    return this.strip[index] ? id.replace(/[\r\n]+/g, "") : id;
  }
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

/** Reads a whole file. */
export function readX12(input: string | Buffer | Uint8Array, options: ReadOptions = {}): ReadResult {
  const decoded = typeof input === "string" ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString("utf8");
  // A wrap can fall anywhere, even inside "ISA": the vendor says so, so all line breaks go.
  const text = options.unwrap ? decoded.replace(/[\r\n]+/g, "") : decoded;
  const segments = new SegmentTable(text);
  const envelope = new EnvelopeReader();
  const warnings: Fault[] = [];

  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const length = text.length;
  const lineBreaks = { lf: -2, cr: -2 };
  while (pos < length) {
    while (pos < length && isSpace(text.charCodeAt(pos))) pos++;
    if (pos >= length) break;
    if (!text.startsWith("ISA", pos)) {
      // Text where an interchange should begin: report it once and stop.
      const end = text.indexOf("ISA", pos);
      const stray = text.slice(pos, Math.min(pos + 20, end === -1 ? length : end)).trim();
      envelope.segment(segments.length, stray.slice(0, 3), () => [stray]);
      if (end === -1) break;
      pos = end;
      continue;
    }
    const isa = readIsa(text, pos, true);
    if (isa === null || "error" in isa) {
      envelope.faults.push({
        level: "interchange",
        segmentIndex: segments.length + 1,
        segmentId: "ISA",
        ack: { segment: "TA1", code: isa?.note ?? "022" },
        ...(isa ? { message: isa.error, coded: isa.coded } : said(faultPhrase("isa_incomplete"))),
      });
      break;
    }
    const set = segments.delimiterSets.push(isa.delimiters) - 1;
    noteHints(options, isa.delimiters, segments.length, warnings);
    const isaIndex = segments.add(pos, isa.next - isa.delimiters.segment.length, set, isa.stripLineBreaks);
    envelope.startInterchange(isaIndex, isa.elements, isa.delimiters, isa.faults);
    pos = scanInterchange(text, isa.next, set, isa.stripLineBreaks, segments, envelope, lineBreaks);
  }
  envelope.end();
  return finish(envelope, segments, warnings, options);
}

/**
 * Tokenizes segments from `pos` up to and including the IEA (or the end of the
 * text), feeding each to the envelope reader. Returns the position after it.
 */
function scanInterchange(
  text: string,
  pos: number,
  set: number,
  stripLineBreaks: boolean,
  segments: SegmentTable,
  envelope: EnvelopeReader,
  // Next line breaks at or after pos, shared by all interchanges of the file
  // and recomputed only when passed: a file without any costs one search.
  lineBreaks: { lf: number; cr: number },
): number {
  const delimiters = segments.delimiterSets[set];
  const terminator = delimiters.segment;
  const separator = delimiters.element;
  let nextSeparator = -1;
  const length = text.length;
  const elementsOf = (index: number) => segments.elements(index);
  while (pos < length) {
    // Segment IDs never begin with whitespace: line breaks and indentation between segments are skipped.
    while (pos < length && isSpace(text.charCodeAt(pos))) pos++;
    if (pos >= length) break;
    if (text.charCodeAt(pos) === 73 && text.startsWith("ISA", pos) && text[pos + 3] !== undefined && !/[A-Za-z0-9]/.test(text[pos + 3])) {
      return pos; // the next interchange, its IEA missing: the envelope reader reports it
    }
    let end = text.indexOf(terminator, pos);
    if (end === -1) end = length; // missing final terminator
    let segmentEnd = end;
    let strip = false;
    if (stripLineBreaks) {
      while (segmentEnd > pos && (text.charCodeAt(segmentEnd - 1) === 10 || text.charCodeAt(segmentEnd - 1) === 13)) segmentEnd--;
      if (lineBreaks.lf !== -1 && lineBreaks.lf < pos) lineBreaks.lf = text.indexOf("\n", pos);
      if (lineBreaks.cr !== -1 && lineBreaks.cr < pos) lineBreaks.cr = text.indexOf("\r", pos);
      strip = (lineBreaks.lf !== -1 && lineBreaks.lf < segmentEnd) || (lineBreaks.cr !== -1 && lineBreaks.cr < segmentEnd);
    }
    const index = segments.add(pos, segmentEnd, set, strip);
    // The segment ID, read without allocating the whole segment. The next
    // separator is searched for only once passed: a segment without one must
    // not send every later search to the end of the text (D71).
    if (nextSeparator < pos) {
      nextSeparator = text.indexOf(separator, pos);
      if (nextSeparator === -1) nextSeparator = length;
    }
    const idEnd = nextSeparator < segmentEnd ? nextSeparator : segmentEnd;
    let id = text.slice(pos, idEnd);
    if (strip && (id.includes("\n") || id.includes("\r"))) id = id.replace(/[\r\n]+/g, "");
    envelope.segment(index, id, elementsOf);
    pos = end + terminator.length;
    if (id === "IEA") return pos;
  }
  return pos;
}

function noteHints(options: ReadOptions, delimiters: Delimiters, index: number, warnings: Fault[]) {
  const hints = options.hints;
  if (!hints) return;
  const differs = (hint: string | null | undefined, actual: string) => hint && hint !== actual && !(hint === "\\n" && actual === "\n");
  if (differs(hints.segment, delimiters.segment) || differs(hints.element, delimiters.element)) {
    warnings.push({
      level: "interchange",
      segmentIndex: index + 1,
      segmentId: "ISA",
      ack: { segment: "TA1", code: "022" },
      ...said(
        faultPhrase("hints_differ", {
          hint_element: String(JSON.stringify(hints.element)),
          hint_segment: String(JSON.stringify(hints.segment)),
          element: JSON.stringify(delimiters.element),
          segment: JSON.stringify(delimiters.segment),
        }),
      ),
    });
  }
}

function finish(envelope: EnvelopeReader, segments: SegmentTable, warnings: Fault[], options: ReadOptions): ReadResult {
  const tolerant = options.mode === "tolerant";
  const faults = tolerant ? [] : envelope.faults;
  // Notes (D215) refuse nothing in either mode.
  const all = tolerant ? [...warnings, ...envelope.faults, ...envelope.notes] : [...warnings, ...envelope.notes];
  return { ok: faults.length === 0, interchanges: envelope.interchanges, faults, warnings: all, segments };
}

/** One line per fault of a refused file. */
export function describeFaults(result: Pick<ReadResult, "faults">): string[] {
  return result.faults.map(describeFault);
}
