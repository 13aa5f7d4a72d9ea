import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { describeFault } from "./faults";
import { readX12 } from "./reader";
import { readX12Stream } from "./stream";
import { delimiterProblem } from "./isa";
import { isaSegment } from "../../tests/support/x12-interchange";

/** A small valid 850 interchange; `edit` changes its segments before they are joined. */
function interchange(
  options: { el?: string; seg?: string; comp?: string; between?: string; isa06?: string; edit?: (segments: string[]) => string[]; version?: string } = {},
) {
  const el = options.el ?? "*";
  const seg = options.seg ?? "~";
  const comp = options.comp ?? ">";
  const isa = isaSegment({
    sender: options.isa06 ?? "SENDERID       ",
    receiver: "RECEIVERID     ",
    date: "261121",
    version: options.version,
    control: "000000905",
    component: comp,
    element: el,
  });
  let segments = [
    isa,
    ["GS", "PO", "SENDERID", "RECEIVERID", "20261121", "1200", "905", "X", "004010"].join(el),
    ["ST", "850", "0001"].join(el),
    ["BEG", "00", "DS", "PO123", "", "20261121"].join(el),
    ["N1", "ST", "JANE DOE"].join(el),
    ["PO1", "1", "2", "EA", "19.95", "", "VP", "SKU-1"].join(el),
    ["SE", "5", "0001"].join(el),
    ["GE", "1", "905"].join(el),
    ["IEA", "1", "000000905"].join(el),
  ];
  if (options.edit) segments = options.edit(segments);
  return segments.map((s) => s + seg).join(options.between ?? "");
}

const faultsOf = (text: string | Buffer) =>
  readX12(text).faults.map((fault) => ({
    id: fault.segmentId,
    index: fault.segmentIndex,
    ack: `${fault.ack.segment} ${fault.ack.code}`,
    element: fault.element,
  }));
const replace = (from: RegExp, to: string) => (segments: string[]) => segments.map((s) => s.replace(from, to));

describe("X12 reader: control checks", () => {
  it("accepts a well-formed interchange", () => {
    const result = readX12(interchange());
    expect(result.ok).toBe(true);
    const group = result.interchanges[0].groups[0];
    expect(group).toMatchObject({ functionalId: "PO", controlNumber: "905" });
    expect(group.transactions[0]).toMatchObject({ setId: "850", controlNumber: "0001", start: 2, end: 6, closed: true });
  });

  it("SE01 must count the segments of the set", () => {
    expect(faultsOf(interchange({ edit: replace(/^SE\*5/, "SE*6") }))).toEqual([{ id: "SE", index: 7, ack: "AK5 4", element: 1 }]);
  });
  it("SE02 must equal ST02", () => {
    expect(faultsOf(interchange({ edit: replace(/^SE\*5\*0001/, "SE*5*0002") }))).toEqual([{ id: "SE", index: 7, ack: "AK5 3", element: 2 }]);
  });
  it("GE01 must count the sets of the group", () => {
    expect(faultsOf(interchange({ edit: replace(/^GE\*1/, "GE*2") }))).toEqual([{ id: "GE", index: 8, ack: "AK9 5", element: 1 }]);
  });
  it("GE02 must equal GS06", () => {
    expect(faultsOf(interchange({ edit: replace(/^GE\*1\*905/, "GE*1*906") }))).toEqual([{ id: "GE", index: 8, ack: "AK9 4", element: 2 }]);
  });
  it("IEA01 must count the groups", () => {
    expect(faultsOf(interchange({ edit: replace(/^IEA\*1/, "IEA*2") }))).toEqual([{ id: "IEA", index: 9, ack: "TA1 021", element: 1 }]);
  });
  it("IEA02 must equal ISA13", () => {
    expect(faultsOf(interchange({ edit: replace(/^IEA\*1\*000000905/, "IEA*1*000000906") }))).toEqual([{ id: "IEA", index: 9, ack: "TA1 001", element: 2 }]);
  });
  it("reports a missing SE, GE or IEA at the header it belongs to", () => {
    // The set without its SE still counts for GE01, so only the missing SE is reported.
    expect(faultsOf(interchange({ edit: (s) => s.filter((x) => !x.startsWith("SE*")) }))).toEqual([{ id: "ST", index: 3, ack: "AK5 2", element: undefined }]);
    expect(faultsOf(interchange({ edit: (s) => s.filter((x) => !x.startsWith("GE*")) }))).toEqual([{ id: "GS", index: 2, ack: "AK9 3", element: undefined }]);
    expect(faultsOf(interchange({ edit: (s) => s.filter((x) => !x.startsWith("IEA*")) }))).toEqual([
      { id: "ISA", index: 1, ack: "TA1 023", element: undefined },
    ]);
  });
  it("refuses an ISA of the wrong shape, naming the element", () => {
    const result = readX12(interchange({ isa06: "SENDERID      " }));
    expect(result.ok).toBe(false);
    expect(result.faults.map(describeFault)).toEqual(['segment 1 (ISA): ISA06 must be 15 characters, found 14 ("SENDERID      ") [TA1 006]']);
    // The delimiters are still right, so everything after the ISA reads normally.
    expect(result.interchanges[0].groups[0].transactions).toHaveLength(1);
  });
  it("refuses segments out of place and text that is not X12", () => {
    expect(faultsOf(interchange({ edit: (s) => [...s.slice(0, 2), "N1*ST*X", ...s.slice(2)] }))[0]).toMatchObject({ id: "N1", ack: "AK3 2" });
    expect(readX12("hello world").faults[0].message).toMatch(/outside an interchange|not an X12/);
    expect(readX12("").faults[0].message).toMatch(/no ISA segment/);
  });
  it("checks the GS: element count, date, time and control number", () => {
    expect(faultsOf(interchange({ edit: replace(/^GS\*PO\*SENDERID\*RECEIVERID\*20261121/, "GS*PO*SENDERID*RECEIVERID*BAD_DATE") }))).toEqual([
      { id: "GS", index: 2, ack: "TA1 024", element: 4 },
    ]);
    expect(faultsOf(interchange({ edit: replace(/^GS\*PO\*/, "GS*PO*EXTRA*") }))[0]).toMatchObject({ id: "GS", ack: "TA1 024" });
  });
  it("reports faults as warnings in tolerant mode", () => {
    const result = readX12(interchange({ edit: replace(/^SE\*5/, "SE*9") }), { mode: "tolerant" });
    expect(result.ok).toBe(true);
    expect(result.faults).toEqual([]);
    expect(result.warnings.map((w) => w.ack.code)).toEqual(["4"]);
  });
  it("notes when the vendor's delimiter hints contradict the ISA, and trusts the ISA", () => {
    const result = readX12(interchange({ seg: "~" }), { hints: { segment: "|", element: "*" } });
    expect(result.ok).toBe(true);
    expect(result.warnings[0].message).toContain("the ISA's are used");
  });
});

describe("X12 reader: delimiters and layout", () => {
  const cases: Array<[string, Parameters<typeof interchange>[0]]> = [
    ["~ element separator and } terminator", { el: "~", seg: "}" }],
    ["~ element separator and * terminator", { el: "~", seg: "*" }],
    ["| terminator, ~ component, CRLF and indentation between segments", { seg: "|", comp: "~", between: "\r\n    " }],
    ["CRLF as the only terminator", { seg: "\r\n" }],
    ["LF as the only terminator", { seg: "\n" }],
    ["backtick component separator", { el: "~", seg: "*", comp: "`" }],
    ["U+2026 ellipsis terminator with CRLF", { seg: "…", between: "\r\n" }],
    ["> element separator and + component", { el: ">", comp: "+", seg: "\r\n" }],
    ["ISA12 00040 (an odd version value)", { seg: "\r\n", version: "00040" }],
  ];
  for (const [name, options] of cases) {
    it(`reads ${name}`, () => {
      const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(interchange(options), "utf8")]);
      const result = readX12(withBom);
      expect(result.faults).toEqual([]);
      expect(result.segments.elements(5)).toEqual(["PO1", "1", "2", "EA", "19.95", "", "VP", "SKU-1"]);
    });
  }

  it("reads a file without its final terminator", () => {
    const text = interchange({ seg: "\r\n" }).replace(/\r\n$/, "");
    expect(readX12(text).ok).toBe(true);
  });

  it("reads an interchange of TA1 acknowledgements only (no groups)", () => {
    const text = interchange({
      edit: (s) => [s[0], "TA1*000000123*261120*1200*A*000", "TA1*000000124*261120*1200*R*022", "IEA*0*000000905"],
    });
    const result = readX12(text);
    expect(result.ok).toBe(true);
    expect(result.interchanges[0].serviceSegments).toEqual([1, 2]);
  });

  it("reads ISB/ISE and several interchanges with different delimiters", () => {
    const first = interchange({ edit: (s) => [s[0], "ISB*1", "ISE*200601*0515*04", ...s.slice(1)] });
    const second = interchange({ el: "|", seg: "\n" });
    const result = readX12(first + "\r\n" + second);
    expect(result.ok).toBe(true);
    expect(result.interchanges.map((i) => i.delimiters.element)).toEqual(["*", "|"]);
  });

  it("refuses an ISA whose ISA06 is 14 characters when the terminator is a space before CRLF", () => {
    const result = readX12(interchange({ isa06: "SENDERID      ", seg: " ", between: "\r\n" }));
    expect(result.ok).toBe(false);
    expect(result.faults[0]).toMatchObject({ segmentId: "ISA", element: 6, ack: { segment: "TA1", code: "006" } });
  });

  it("refuses a segment that lost its terminator (SE count off)", () => {
    const text = interchange({ between: "\r\n" }).replace("N1*ST*JANE DOE~", "N1*ST*JANE DOE");
    const result = readX12(text);
    expect(result.faults.map((f) => `${f.segmentId} ${f.ack.segment} ${f.ack.code}`)).toEqual(["SE AK5 4"]);
  });

  it("streams the same segments and faults as the whole-file read, whatever the chunk size", async () => {
    const text = interchange({ seg: "…", between: "\r\n" }) + interchange({ el: "~", seg: "}", edit: replace(/^GE\*1\*905/, "GE*1*7") });
    const whole = readX12(text);
    for (const size of [1, 3, 50, 100_000]) {
      const seen: string[][] = [];
      const chunks = Buffer.from(text, "utf8");
      const source = Readable.from(Array.from({ length: Math.ceil(chunks.length / size) }, (_, i) => chunks.subarray(i * size, (i + 1) * size)));
      const summary = await readX12Stream(source, (segment) => void seen.push(segment.elements));
      expect(seen).toEqual(Array.from({ length: whole.segments.length }, (_, i) => whole.segments.elements(i)));
      expect(summary.faults.map(describeFault)).toEqual(whole.faults.map(describeFault));
    }
  });
});

describe("X12 reader: the terminator is the character after ISA16 (issue 16, item 1)", () => {
  const segmentsOf = (result: ReturnType<typeof readX12>) => Array.from({ length: result.segments.length }, (_, i) => result.segments.elements(i));
  const streamed = async (text: string, size = 7) => {
    const seen: string[][] = [];
    const bytes = Buffer.from(text, "utf8");
    const source = Readable.from(Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size)));
    const summary = await readX12Stream(source, (segment) => void seen.push(segment.elements));
    return { seen, summary };
  };

  for (const [name, lineBreak] of [
    ["LF", "\n"],
    ["CRLF", "\r\n"],
    ["CR", "\r"],
  ] as const) {
    it(`reads an indented file whose terminator is ${name}: spaces and tabs are indentation`, async () => {
      const text = interchange({ seg: lineBreak, between: "  \t  " });
      const result = readX12(text);
      expect(result.faults).toEqual([]);
      expect(result.interchanges[0].delimiters.segment).toBe(lineBreak);
      expect(result.segments.elements(3)).toEqual(["BEG", "00", "DS", "PO123", "", "20261121"]);
      const { seen, summary } = await streamed(text);
      expect(summary.faults).toEqual([]);
      expect(seen).toEqual(segmentsOf(result));
    });
  }

  it("keeps a space inside an element of an indented file (not split on it)", () => {
    const result = readX12(interchange({ seg: "\n", between: "    " }));
    expect(result.ok).toBe(true);
    expect(result.segments.elements(4)).toEqual(["N1", "ST", "JANE DOE"]);
  });

  it("tolerates CR, LF and CRLF after a ~ terminator, and a BOM", () => {
    for (const between of ["\r", "\n", "\r\n", "\r\n\t"]) {
      const result = readX12("\ufeff" + interchange({ seg: "~", between }));
      expect(result.faults).toEqual([]);
      expect(result.interchanges[0].delimiters.segment).toBe("~");
    }
  });
});

describe("X12 reader: delimiters must be distinct and not letters, digits or spaces (issue 16, item 2)", () => {
  const codes = (text: string) => readX12(text).faults.map((f) => `${f.segmentId}${f.element ?? ""} ${f.ack.segment} ${f.ack.code}`);
  it("refuses a letter or digit as the element separator with TA1 026", () => {
    // The interchange cannot be read at all (the "no ISA" fault follows).
    expect(codes(interchange({ el: "A" }))[0]).toBe("ISA TA1 026");
    expect(codes(interchange({ el: " " }))[0]).toBe("ISA TA1 026");
  });
  it("refuses a component separator that is a letter, a space or the element separator with TA1 027", () => {
    expect(codes(interchange({ comp: "A" }))).toContain("ISA16 TA1 027");
    expect(codes(interchange({ comp: " " }))).toContain("ISA16 TA1 027");
  });
  it("refuses a segment terminator that is a letter, a space or another delimiter with TA1 004", () => {
    expect(codes(interchange({ seg: " " }))).toContain("ISA16 TA1 004");
    expect(codes(interchange({ seg: ">", comp: ">" }))).toContain("ISA16 TA1 004");
  });
  it("from 00402 on, refuses ISA11 equal to another delimiter with TA1 016", () => {
    const isa11 =
      (value: string, version = "00501") =>
      (segments: string[]) => [segments[0].replace("*U*00401*", `*${value}*${version}*`), ...segments.slice(1)];
    expect(codes(interchange({ edit: isa11(">") }))).toEqual(["ISA11 TA1 016"]);
    expect(codes(interchange({ edit: isa11("~") }))).toEqual(["ISA11 TA1 016"]);
    expect(codes(interchange({ edit: isa11(" ") }))).toEqual(["ISA11 TA1 016"]);
    // A distinct separator is read as the repetition separator.
    const ok = readX12(interchange({ edit: isa11("^") }));
    expect(ok.faults).toEqual([]);
    expect(ok.interchanges[0].delimiters.repetition).toBe("^");
    // Before 00402 ISA11 is the standards identifier: ">" there is no repetition separator, and no delimiter.
    expect(readX12(interchange({ edit: isa11("U", "00401") })).faults).toEqual([]);
    // A letter from 00402 on is the old "U" kept: read as no repetition separator (real files, D70).
    expect(readX12(interchange({ edit: isa11("U") })).interchanges[0].delimiters.repetition).toBeUndefined();
  });
  it("delimiterProblem checks a set of delimiters for writers", () => {
    expect(delimiterProblem({ element: "*", component: ">", segment: "~", repetition: "^" }, "00501")).toBeNull();
    expect(delimiterProblem({ element: "*", component: ">", segment: "\r\n" }, "00401")).toBeNull();
    expect(delimiterProblem({ element: "*", component: "*", segment: "~" }, "00401")).toMatchObject({ delimiter: "component", note: "027" });
    expect(delimiterProblem({ element: "*", component: ">", segment: "~", repetition: ">" }, "00501")).toMatchObject({ delimiter: "repetition", note: "016" });
    expect(delimiterProblem({ element: "**", component: ">", segment: "~" }, "00401")).toMatchObject({ delimiter: "element", note: "026" });
    expect(delimiterProblem({ element: "*", component: ">", segment: "A" }, "00401")).toMatchObject({ delimiter: "segment", note: "004" });
  });
  it("the stream reader refuses the same delimiters", async () => {
    const text = interchange({ el: "A" });
    const summary = await readX12Stream(Readable.from([Buffer.from(text)]), () => undefined);
    expect(summary.faults.map((f) => f.ack.code)[0]).toBe("026");
  });
});

describe("X12 reader: hostile input, read with the right result (issue 16, item 6)", () => {
  it("a. segments without an element separator: each is read as its ID alone", async () => {
    const { noSeparatorSegments } = await import("../../bench/edi/generate");
    const text = noSeparatorSegments(50_000);
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    expect(result.segments.length).toBe(50_000 + 6);
    expect(result.segments.elements(3)).toEqual(["ZZ"]);
    expect(result.segments.id(50_002)).toBe("ZZ");
    expect(result.segments.elements(50_003)).toEqual(["SE", "50002", "0001"]);
    let count = 0;
    const summary = await readX12Stream(Readable.from([Buffer.from(text)]), () => void count++);
    expect(summary.faults).toEqual([]);
    expect(count).toBe(50_000 + 6);
  });

  it("d. 70,000 interchanges whose delimiters differ: each is read with its own", async () => {
    const { manyInterchanges, HOSTILE_DELIMITERS } = await import("../../bench/edi/generate");
    const result = readX12(manyInterchanges(70_000));
    expect(result.faults).toEqual([]);
    expect(result.interchanges).toHaveLength(70_000);
    for (const i of [0, 1, 65_535, 65_536, 65_537, 69_999]) {
      const expected = HOSTILE_DELIMITERS[i % HOSTILE_DELIMITERS.length];
      const interchange = result.interchanges[i];
      expect(interchange.delimiters).toMatchObject(expected);
      const big = interchange.groups[0].transactions[0].start + 1;
      expect(result.segments.delimiters(big)).toMatchObject(expected);
      expect(result.segments.elements(big)).toEqual(["BIG", "20261124", `INV-${i}`]);
    }
  });
});
