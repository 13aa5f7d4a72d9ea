// Every file of ../shared/edi-corpus behaves as its SOURCES.md says: the
// malformed ones are refused with a fault naming the segment at fault; the
// others parse, and writing them back with their delimiters gives the same segments.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mapTransactions } from "../documents";
import { readX12 } from "./reader";
import { writeSegmentsBack } from "./writer";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";

const CORPUS = EDI_CORPUS;

/** Refused files: the segment and acknowledgement code of (one of) their faults. */
const MALFORMED: Record<string, { segmentId: string; code: string; message: RegExp }> = {
  "other/node-x12__271.edi": { segmentId: "GS", code: "AK9 3", message: /has no GE/ },
  "997/staedi__invalid997_min.edi": { segmentId: "GE", code: "AK9 4", message: /GE02 .* does not match GS06/ },
  "999/staedi__invalid999.edi": { segmentId: "SE", code: "AK5 4", message: /SE01 says "16" segments, the transaction set has 18/ },
};
/** Refused for their content, by the document layer (edi/documents): the fault's segment. */
const CONTENT_MALFORMED: Record<string, { segmentId: string; message: RegExp }> = {
  "997/staedi__invalid997.edi": { segmentId: "AK1", message: /AK101 "HC NOT IN CODESET" is not a functional identifier code/ },
};

const files = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => readdirSync(path.join(CORPUS, dir.name)).map((name) => `${dir.name}/${name}`))
  .sort();

const segmentsOf = (result: ReturnType<typeof readX12>) => Array.from({ length: result.segments.length }, (_, index) => result.segments.elements(index));

describe("the EDI corpus", () => {
  it("is there", () => {
    expect(files.length).toBeGreaterThanOrEqual(23);
  });

  for (const file of files) {
    const expected = MALFORMED[file];
    it(`${file} ${expected ? "is refused" : "parses"}`, () => {
      const result = readX12(readFileSync(path.join(CORPUS, file)));
      if (expected) {
        expect(result.ok).toBe(false);
        const fault = result.faults.find((f) => f.segmentId === expected.segmentId && `${f.ack.segment} ${f.ack.code}` === expected.code);
        expect(fault, JSON.stringify(result.faults)).toBeDefined();
        expect(fault!.message).toMatch(expected.message);
        expect(fault!.segmentIndex).toBeGreaterThan(0);
        return;
      }
      expect(result.faults, JSON.stringify(result.faults)).toEqual([]);
      expect(result.interchanges.length).toBeGreaterThan(0);
      const contentFaults = mapTransactions(result).flatMap((d) => d.mapped?.faults ?? []);
      const content = CONTENT_MALFORMED[file];
      if (content) {
        expect(contentFaults.find((f) => f.segmentId === content.segmentId)?.message).toMatch(content.message);
      } else {
        expect(contentFaults, JSON.stringify(contentFaults)).toEqual([]);
      }
      const segments = segmentsOf(result);
      const again = readX12(writeSegmentsBack(result.segments));
      expect(again.ok).toBe(true);
      expect(segmentsOf(again)).toEqual(segments);
    });
  }

  // Each interchange as groups/transaction sets, space-separated.
  it.each([
    ["850/node-x12__850_fat.edi", "1/1 1/1"],
    ["997/staedi__simple997-multiple-interchanges.edi", "1/1 1/1 1/1"],
    ["mixed/staedi__invoice810_po850_dual.edi", "2/3"],
    ["other/pyx12__multiple_st_loops.txt", "1/4"],
    ["999/pyx12__834_lui_id_5010.999.txt", "2/4"],
  ])("reads the shape SOURCES.md lists for %s: %s", (file, shape) => {
    const result = readX12(readFileSync(path.join(CORPUS, file)));
    expect(result.interchanges.map((i) => `${i.groups.length}/${i.groups.reduce((n, g) => n + g.transactions.length, 0)}`).join(" ")).toBe(shape);
  });

  it("finds each file's delimiters in its ISA", () => {
    const delimiters = (file: string) => readX12(readFileSync(path.join(CORPUS, file))).interchanges[0].delimiters;
    expect(delimiters("850/node-x12__850_2.edi")).toMatchObject({ element: "*", segment: "\n", component: ">" });
    expect(delimiters("other/staedi__ts214_ellipses_segterm.edi")).toMatchObject({ segment: "…" });
    expect(delimiters("855/staedi__multi-tx-transaction-type.edi")).toMatchObject({ component: "^" });
    expect(delimiters("856/node-x12__856.edi")).toMatchObject({ repetition: "-" }); // 00406: ISA11 is the repetition separator
    expect(delimiters("850/node-x12__850.edi").repetition).toBeUndefined(); // 00400: ISA11 is "U"
  });

  it("unwraps a file hard-wrapped at 80 columns", () => {
    const result = readX12(readFileSync(path.join(CORPUS, "other/staedi__ts210_80char.edi")));
    expect(result.ok).toBe(true);
    expect(result.interchanges[0].date).toBe("200918");
    expect(result.interchanges[0].time).toBe("0224");
    expect(result.segments.elements(4)).toEqual(["N9", "PO", "721295"]);
  });
});
