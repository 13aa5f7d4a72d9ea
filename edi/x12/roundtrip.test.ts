// Property: whatever the delimiters, what the writer writes the reader reads
// back as the same interchange, segments and values.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Delimiters } from "./isa";
import { readX12 } from "./reader";
import { writeInterchange, type InterchangeData } from "./writer";
import { oneGroupInterchange } from "../../tests/support/x12-interchange";

const PUNCTUATION = ["*", "~", "|", "^", ">", "<", ":", "!", "`", "}", "{", "+", "\u001d", "\u001e", "\u001f"];

const delimiterSets: fc.Arbitrary<Delimiters> = fc
  .tuple(fc.shuffledSubarray(PUNCTUATION, { minLength: 4, maxLength: 4 }), fc.constantFrom<string | null>(null, "\n", "\r\n", "\u2026"))
  .map(([[element, segment, component, repetition], special]) => ({ element, component, repetition, segment: special ?? segment }));

// Values never contain a delimiter (the writer would replace it) nor a line break.
const value = fc.stringMatching(/^[A-Za-z0-9 .,#&'()/@-]{0,12}$/);
const segmentId = fc.stringMatching(/^[A-Z][A-Z0-9]{1,2}$/).filter((id) => !["ISA", "IEA", "GS", "GE", "ST", "SE", "ISB", "ISE", "TA1"].includes(id));
const body = fc.array(fc.tuple(segmentId, fc.array(value, { minLength: 1, maxLength: 8 })), { minLength: 1, maxLength: 12 });

describe("X12 writer and reader round trip", () => {
  it("reads back exactly what was written, for any delimiters", () => {
    fc.assert(
      fc.property(
        delimiterSets,
        fc.array(fc.array(body, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("00401", "00501"),
        fc.constantFrom("", "\n"),
        (delimiters, groups, version, lineBreak) => {
          const data: InterchangeData = {
            delimiters,
            sender: { qualifier: "ZZ", id: "OURCOMPANY" },
            receiver: { qualifier: "01", id: "123456789" },
            date: "261121",
            time: "1530",
            controlNumber: 42,
            version,
            lineBreak,
            groups: groups.map((transactions, g) => ({
              functionalId: "PO",
              sender: "OURCOMPANY",
              receiver: "123456789",
              date: "20261121",
              time: "1530",
              controlNumber: String(100 + g),
              transactions: transactions.map((segments, t) => ({
                setId: "850",
                controlNumber: String(1000 + t),
                segments: segments.map(([id, values]) => [id, ...values, "END"]),
              })),
            })),
          };
          const written = writeInterchange(data);
          const result = readX12(written.text);
          expect(result.faults).toEqual([]);
          expect(result.interchanges).toHaveLength(1);
          const interchange = result.interchanges[0];
          expect(interchange.delimiters.element).toBe(delimiters.element);
          expect(interchange.delimiters.segment).toBe(delimiters.segment);
          expect(interchange.delimiters.component).toBe(delimiters.component);
          expect(interchange.controlNumber).toBe("000000042");
          expect(interchange.groups.map((g) => g.transactions.length)).toEqual(groups.map((g) => g.length));
          // Every body segment comes back with its values.
          const bodies = interchange.groups.flatMap((group) =>
            group.transactions.map((t) => Array.from({ length: t.end - t.start - 1 }, (_, i) => result.segments.elements(t.start + 1 + i))),
          );
          expect(bodies).toEqual(data.groups.flatMap((group) => group.transactions.map((t) => t.segments)));
          expect(written.segmentCount).toBe(result.segments.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("replaces a delimiter found inside a value instead of shifting elements", () => {
    const delimiters = { element: "*", component: ">", segment: "~", repetition: "^" };
    const written = writeInterchange(
      oneGroupInterchange({
        delimiters,
        sender: "US",
        receiver: "THEM",
        date: "261121",
        time: "1200",
        controlNumber: 1,
        functionalId: "PO",
        transactions: [{ setId: "850", controlNumber: "0001", segments: [["N3", "12 Main St*Apt 4~B"]] }],
      }),
    );
    expect(written.replaced).toEqual(["12 Main St*Apt 4~B"]);
    const result = readX12(written.text);
    expect(result.ok).toBe(true);
    expect(result.segments.elements(3)).toEqual(["N3", "12 Main St Apt 4 B"]);
  });

  it("pads the ISA to its fixed widths and marks test interchanges", () => {
    const written = writeInterchange({
      delimiters: { element: "*", component: ">", segment: "~" },
      sender: { qualifier: "ZZ", id: "US" },
      receiver: { qualifier: "12", id: "8005551234" },
      date: "261121",
      time: "0905",
      controlNumber: 7,
      usage: "T",
      groups: [],
    });
    const isa = written.text.split("~")[0];
    expect(isa).toBe("ISA*00*          *00*          *ZZ*US             *12*8005551234     *261121*0905*U*00401*000000007*0*T*>");
    expect(isa + "~").toHaveLength(106); // 106 with its terminator
  });
});

describe("X12 reader on arbitrary input", () => {
  // Whatever a vendor sends, the reader answers with faults; it never throws.
  const noise = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc
      .string({ maxLength: 40 })
      .map((tail) => `ISA*00*          *00*          *ZZ*A              *ZZ*B              *261121*1200*U*00401*000000001*0*P*>~${tail}`),
    fc
      .array(fc.constantFrom("ISA", "*", "~", "GS", "ST", "SE", "GE", "IEA", "\r\n", ">", "00", " ", "…", "\uFEFF"), { maxLength: 80 })
      .map((parts) => parts.join("")),
  );

  it("never throws, and either reads the input or says why not", async () => {
    const { Readable } = await import("node:stream");
    const { readX12Stream } = await import("./stream");
    await fc.assert(
      fc.asyncProperty(noise, async (text) => {
        const result = readX12(text);
        expect(result.ok || result.faults.length > 0).toBe(true);
        for (const fault of result.faults) expect(fault.segmentIndex).toBeGreaterThan(0);
        const summary = await readX12Stream(Readable.from([text]), () => {});
        expect(summary.faults.length).toBe(result.faults.length);
      }),
      { numRuns: 500 },
    );
  });
});
