import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { delimiterProblem } from "./isa";
import { chooseRepetition, delimiterProblems } from "./delimiters";
import { readX12 } from "./reader";
import { vendorDelimiters, writeInterchange } from "./writer";
import { oneGroupInterchange } from "../../tests/support/x12-interchange";

const interchange = (delimiters: Parameters<typeof writeInterchange>[0]["delimiters"], version = "00401") =>
  oneGroupInterchange({
    delimiters,
    sender: "US",
    receiver: "THEM",
    date: "261125",
    time: "0700",
    controlNumber: 1,
    version,
    functionalId: "PO",
    transactions: [{ setId: "850", controlNumber: "0001", segments: [["BEG", "00", "DS", "PO1", "", "20261125"]] }],
  });

describe("delimiters we write (D72)", () => {
  it("accepts the usual sets, CRLF and LF terminators among them", () => {
    expect(delimiterProblems({ element: "*", component: ">", repetition: "^", segment: "~" })).toEqual([]);
    expect(delimiterProblems({ element: "|", component: ":", repetition: "^", segment: "\r\n" })).toEqual([]);
    expect(delimiterProblems({ element: "*", component: ">", segment: "\n" })).toEqual([]);
  });

  it("refuses equal, alphanumeric, space and line-break separators", () => {
    expect(delimiterProblems({ element: "*", component: ">", segment: "*" })).toEqual([
      expect.stringContaining("element separator and the segment terminator"),
    ]);
    expect(delimiterProblems({ element: "A", component: ">", segment: "~" })[0]).toContain("letter, a digit or a space");
    expect(delimiterProblems({ element: " ", component: ">", segment: "~" })[0]).toContain("letter, a digit or a space");
    expect(delimiterProblems({ element: "\n", component: ">", segment: "~" })[0]).toContain("line break");
    expect(delimiterProblems({ element: "*", component: ">", repetition: "*", segment: "~" })[0]).toContain("element separator and the repetition separator");
    expect(delimiterProblems({ element: "*", component: "\r", segment: "\r\n" }).join()).toContain("component separator and the segment terminator");
    // Before 00402 ISA11 is "U", not a separator.
    expect(delimiterProblems({ element: "*", component: ">", repetition: "*", segment: "~" }, "00401")).toEqual([]);
  });

  it("the writer throws on a set the reader would refuse, and what it writes reads back", () => {
    expect(() => writeInterchange(interchange({ element: "*", component: ">", segment: "*" }))).toThrow(
      /cannot be written: the element separator and the segment terminator/,
    );
    expect(() => writeInterchange(interchange({ element: "*", component: "*", segment: "~" }))).toThrow(/cannot be written/);
    const written = writeInterchange(interchange({ element: "^", component: ">", segment: "~" }, "00501"));
    expect(written.text.split("^")[11]).toBe("|"); // ISA11: not "^", the element separator
    expect(readX12(written.text).ok).toBe(true);
  });

  it("chooses the repetition separator as the first candidate free of the three others", () => {
    expect(chooseRepetition({ element: "*", component: ">", segment: "~" })).toBe("^");
    expect(chooseRepetition({ element: "^", component: ">", segment: "~" })).toBe("|");
    expect(chooseRepetition({ element: "^", component: "|", segment: "!" })).toBe("`");
  });

  it("a vendor's ^ or > moves our repetition and component separators aside", () => {
    expect(vendorDelimiters({ output_delimiter: "^", output_segmenter: ">" })).toEqual({ element: "^", segment: ">", component: ":", repetition: "|" });
    expect(delimiterProblems(vendorDelimiters({ output_delimiter: "|", output_segmenter: "|" }))).not.toEqual([]);
    expect(delimiterProblems(vendorDelimiters({ output_delimiter: "\\n", output_segmenter: "~" }))).not.toEqual([]);
  });
});

describe("the writer's rule and the reader's", () => {
  it("never accepts a set of delimiters the reader refuses, for any characters and version", () => {
    const char = fc.constantFrom(..."*~^|:>!`\\{}@#$%&;+=<\n\r\t aZ09".split(""), "\r\n");
    fc.assert(
      fc.property(char, char, char, char, fc.constantFrom("00401", "00402", "00501", "00801"), (element, component, repetition, segment, version) => {
        const delimiters = { element, component, repetition, segment };
        if (delimiterProblems(delimiters, version).length === 0) expect(delimiterProblem(delimiters, version)).toBeNull();
      }),
      { numRuns: 2_000 },
    );
  });
});
