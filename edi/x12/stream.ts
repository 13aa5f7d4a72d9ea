// Reads X12 from a stream segment by segment, with the same delimiter rules
// and control checks as readX12, holding only the unfinished tail of the
// input: a file of hundreds of megabytes keeps memory flat.
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import { EnvelopeReader, type Interchange } from "./envelope";
import type { Fault } from "./faults";
import { readIsa, type Delimiters } from "./isa";

export interface StreamedSegment {
  /** 0-based position in the file. */
  index: number;
  id: string;
  /** [0] is the segment ID. */
  elements: string[];
  delimiters: Delimiters;
  /** The transaction set the segment belongs to, if any. */
  setId?: string;
}

export interface StreamSummary {
  ok: boolean;
  faults: Fault[];
  warnings: Fault[];
  /** Envelope structure only (no segment content). */
  interchanges: Interchange[];
  segmentCount: number;
  bytes: number;
}

const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

export async function readX12Stream(
  source: Readable | AsyncIterable<Buffer | string>,
  onSegment: (segment: StreamedSegment) => void | Promise<void>,
  options: { mode?: "strict" | "tolerant"; /** the file is hard-wrapped (`unwrap_846`): every line break is dropped */ unwrap?: boolean } = {},
): Promise<StreamSummary> {
  const decoder = new StringDecoder("utf8");
  const envelope = new EnvelopeReader();
  let pending = "";
  let index = 0;
  let bytes = 0;
  let first = true;
  let delimiters: Delimiters | null = null;
  let stripLineBreaks = false;
  let setId: string | undefined;
  let strayReported = false;
  // pending[0, unterminatedUpTo) holds no segment terminator: an unfinished
  // segment is not searched again from its start for every chunk (D71).
  let unterminatedUpTo = 0;

  // The current segment's elements, read by the envelope through one shared
  // function (a function per segment would cost more than the parsing).
  let current: string[] = [];
  const elementsOf = () => current;

  /** Hands one segment on; a promise only when the consumer returned one. */
  function emit(raw: string): void | Promise<void> {
    const text = stripLineBreaks && (raw.includes("\n") || raw.includes("\r")) ? raw.replace(/[\r\n]+/g, "") : raw;
    const elements = text.split(delimiters!.element);
    const id = elements[0];
    const position = index++;
    if (id === "ST") setId = elements[1];
    current = elements;
    envelope.segment(position, id, elementsOf);
    const segment: StreamedSegment = { index: position, id, elements, delimiters: delimiters!, setId };
    if (id === "SE") setId = undefined;
    if (id === "IEA") delimiters = null;
    return onSegment(segment);
  }

  // Consumes complete segments from `pending`; returns the position of the unfinished tail.
  async function drain(final: boolean): Promise<number> {
    let pos = 0;
    const text = pending;
    if (first && text.charCodeAt(0) === 0xfeff) pos = 1;
    first = false;
    for (;;) {
      while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
      if (pos >= text.length) return pos;
      if (!delimiters) {
        if (!text.startsWith("ISA", pos)) {
          if (!final && text.length - pos < 3) return pos;
          // Text where an interchange should begin: reported once, up to the next ISA.
          if (!strayReported) {
            const stray = text.slice(pos, pos + 20).trim();
            current = [stray];
            envelope.segment(index++, stray.slice(0, 3), elementsOf);
            strayReported = true;
          }
          const next = text.indexOf("ISA", pos + 1);
          if (next === -1) return final ? text.length : Math.max(pos, text.length - 2);
          pos = next;
          continue;
        }
        const isa = readIsa(text, pos, final);
        if (isa === null) return pos; // wait for the rest of the ISA
        if ("error" in isa) {
          envelope.faults.push({
            level: "interchange",
            segmentIndex: index + 1,
            segmentId: "ISA",
            ack: { segment: "TA1", code: isa.note },
            message: isa.error,
            coded: isa.coded,
          });
          return text.length;
        }
        delimiters = isa.delimiters;
        stripLineBreaks = isa.stripLineBreaks;
        strayReported = false;
        const position = index++;
        envelope.startInterchange(position, isa.elements, isa.delimiters, isa.faults);
        const pendingWork = onSegment({ index: position, id: "ISA", elements: isa.elements, delimiters });
        if (pendingWork) await pendingWork;
        pos = isa.next;
        continue;
      }
      const end = text.indexOf(delimiters.segment, Math.max(pos, unterminatedUpTo));
      if (end === -1) {
        if (!final) {
          unterminatedUpTo = Math.max(pos, text.length - delimiters.segment.length + 1);
          return pos;
        }
        const work = emit(text.slice(pos).replace(/[\r\n]+$/, ""));
        if (work) await work;
        return text.length;
      }
      // A "\r" at the very end might be the first half of a "\r\n" terminator.
      if (!final && delimiters.segment === "\r" && end === text.length - 1) return pos;
      const terminatorLength = delimiters.segment.length;
      let segmentEnd = end;
      if (stripLineBreaks) while (segmentEnd > pos && (text.charCodeAt(segmentEnd - 1) === 10 || text.charCodeAt(segmentEnd - 1) === 13)) segmentEnd--;
      const work = emit(text.slice(pos, segmentEnd));
      if (work) await work;
      pos = end + terminatorLength;
    }
  }

  for await (const chunk of source as AsyncIterable<Buffer | string>) {
    bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
    const decoded = typeof chunk === "string" ? chunk : decoder.write(chunk);
    pending += options.unwrap ? decoded.replace(/[\r\n]+/g, "") : decoded;
    const consumed = await drain(false);
    pending = pending.slice(consumed);
    unterminatedUpTo = Math.max(0, unterminatedUpTo - consumed);
  }
  pending += decoder.end();
  await drain(true);
  unterminatedUpTo = 0;
  pending = "";
  envelope.end();

  const tolerant = options.mode === "tolerant";
  return {
    ok: tolerant || envelope.faults.length === 0,
    faults: tolerant ? [] : envelope.faults,
    warnings: [...(tolerant ? envelope.faults : []), ...envelope.notes], // notes refuse nothing (D215)
    interchanges: envelope.interchanges,
    segmentCount: index,
    bytes,
  };
}
