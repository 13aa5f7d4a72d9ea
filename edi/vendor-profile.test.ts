import { describe, expect, it } from "vitest";
import { acmeVendorFields } from "../tests/support/edi-samples";
import { fillTemplate, parseSegmentTemplate, tradingProfile } from "./vendor-profile";

const ours = { qualifier: "ZZ", id: "HOUSEROPS", testQualifier: "ZZ", testId: "HOUSEROPSTEST" };
const vendor = acmeVendorFields;

describe("vendor trading profile", () => {
  it("uses the vendor's production identity, or its test identity and usage T in test mode", () => {
    const production = tradingProfile(vendor(), ours);
    expect(production.errors).toEqual({});
    expect(production.profile).toMatchObject({ usage: "P", sender: { id: "HOUSEROPS" }, receiver: { qualifier: "01", id: "ACMEEDI" } });
    const test = tradingProfile(vendor({ test_mode: 1 }), ours).profile;
    expect(test).toMatchObject({ usage: "T", sender: { id: "HOUSEROPSTEST" }, receiver: { qualifier: "ZZ", id: "ACMETEST" } });
  });

  it("takes the output delimiters, with \\n and \\r\\n written as escapes", () => {
    expect(tradingProfile(vendor({ output_delimiter: "|", output_segmenter: "\\r\\n" }), ours).profile.output).toMatchObject({ element: "|", segment: "\r\n" });
    expect(tradingProfile(vendor({ output_delimiter: null, output_segmenter: "" }), ours).profile.output).toMatchObject({ element: "*", segment: "~" });
  });

  it("names every field that cannot work", () => {
    const { errors } = tradingProfile(
      vendor({
        edi_identifier: "",
        output_delimiter: "A",
        regex_format: "([",
        "856_file_contents_regex": "*bad",
        "850_format": "4010",
        "850_segments": "REF*IA*{nope}\nst*1",
      }),
      ours,
    );
    expect(Object.keys(errors).sort()).toEqual(["850_format", "850_segments", "856_file_contents_regex", "edi_identifier", "output_delimiter", "regex_format"]);
    expect(errors["850_segments"]).toEqual([
      expect.stringContaining("line 1: unknown placeholder {nope}"),
      expect.stringContaining('line 2: "st" is not a segment ID'),
    ]);
  });

  it("refuses output delimiters the reader would refuse (D72): equal ones, a line break as element separator", () => {
    expect(Object.keys(tradingProfile(vendor({ output_delimiter: "|", output_segmenter: "|" }), ours).errors)).toEqual(["output_segmenter"]);
    expect(Object.keys(tradingProfile(vendor({ output_delimiter: "\\n", output_segmenter: "~" }), ours).errors)).toEqual(["output_delimiter"]);
    expect(tradingProfile(vendor({ output_delimiter: "^", output_segmenter: ">" }), ours).errors).toEqual({});
  });

  it("does not ask CSV vendors for X12 identities", () => {
    expect(tradingProfile(vendor({ edi_format: 0, edi_identifier: null, edi_qualifier: null }), ours).errors).toEqual({});
  });

  it("reads flags and per-document settings", () => {
    const { profile } = tradingProfile(
      vendor({
        sort_files_by_file_contents: 1,
        use_cost: 1,
        unwrap_846: 1,
        "997_enabled": 0,
        "846_enabled": 1,
        "850_format": "004010VICS",
        "856_file_contents_regex": "^ISA.*\\*SH\\*",
        regex_format: "^(855|856|997)_.*\\.edi$",
      }),
      ours,
    );
    expect(profile).toMatchObject({ sortByContents: true, useCost: true, unwrap846: true });
    expect(profile.documents["997"].enabled).toBe(false);
    expect(profile.documents["846"].enabled).toBe(true);
    expect(profile.documents["855"].enabled).toBe(true);
    expect(profile.documents["850"].version).toBe("004010VICS");
    expect(profile.documents["810"].version).toBe("004010");
    expect(profile.documents["856"].contentsPattern!.test("ISA*00*...GS*SH*")).toBe(true);
    expect(profile.fileNamePattern!.test("856_20261121.edi")).toBe(true);
    expect(profile.fileNamePattern!.test("notes.txt")).toBe(false);
  });
});

describe("EDI strictness (D219)", () => {
  it("is lenient unless the vendor says strict", () => {
    expect(tradingProfile(vendor(), ours).profile.strictness).toBe("lenient");
    expect(tradingProfile(vendor({ edi_strictness: "strict" }), ours).profile.strictness).toBe("strict");
    expect(tradingProfile(vendor({ edi_strictness: "lenient" }), ours).profile.strictness).toBe("lenient");
  });
});

describe("segment templates", () => {
  it("fills placeholders and keeps components", () => {
    const { segments, errors } = parseSegmentTemplate(
      "# our buyer\nREF*IA*{vendor_store_id}\nPER*BD*Purchasing*TE*8005551234~\n\nMSG*PO {po_number}>URGENT",
      "850",
    );
    expect(errors).toEqual([]);
    expect(fillTemplate(segments, { vendor_store_id: "DS01", po_number: "PO77" })).toEqual([
      ["REF", "IA", "DS01"],
      ["PER", "BD", "Purchasing", "TE", "8005551234"],
      ["MSG", ["PO PO77", "URGENT"]],
    ]);
  });

  it("refuses envelope segments and unbalanced braces", () => {
    expect(parseSegmentTemplate("GS*PO*X\nREF*IA*{po_number", "850").errors).toEqual([
      "line 1: GS is written by the envelope, not by a template",
      "line 2: unbalanced braces",
    ]);
  });
});
