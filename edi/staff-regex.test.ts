import { describe, expect, it } from "vitest";
import { recogniseIncomingFile, RECOGNISE_BYTES } from "./incoming";
import { recogniseCsvFile } from "./csv/recognise";
import { checkStaffRegex, MAX_STAFF_REGEX_LENGTH } from "./staff-regex";
import { tradingProfile, type VendorEdiFields } from "./vendor-profile";

describe("staff-typed regular expressions", () => {
  it("accepts the patterns vendors use", () => {
    for (const pattern of ["", "  ", "^(855|856)_.*\\.edi$", "ST\\*997", "BIG\\*", "/^ack_.*\\.csv$/i", "[a-z]{1,3}\\.csv", "(?<name>x)\\d+"]) {
      expect(checkStaffRegex(pattern), pattern).toBeNull();
    }
  });

  it("refuses patterns that can backtrack catastrophically", () => {
    for (const pattern of ["(a+)+$", "^(\\w+\\s?)*$", "(x+x+)+y", "(.*a){20}", "/(a+)+$/i", "^(([a-z])+.)+[A-Z]([a-z])+$"]) {
      expect(checkStaffRegex(pattern), pattern).toEqual({ problem: "unsafe" });
    }
  });

  it("refuses invalid syntax with the engine's reason, and over-long patterns", () => {
    expect(checkStaffRegex("([")).toMatchObject({ problem: "invalid", detail: expect.stringContaining("Invalid regular expression") });
    expect(checkStaffRegex("*.csv")).toMatchObject({ problem: "invalid" });
    expect(checkStaffRegex("a".repeat(MAX_STAFF_REGEX_LENGTH))).toBeNull();
    expect(checkStaffRegex("a".repeat(MAX_STAFF_REGEX_LENGTH + 1))).toEqual({ problem: "too_long", max: MAX_STAFF_REGEX_LENGTH });
  });
});

describe("vendor regexes run on bounded input", () => {
  const ours = { qualifier: "ZZ", id: "HOUSEROPS" };
  it("an X12 contents regex sees the first 4 KB of a file only", () => {
    const v: VendorEdiFields = { id: 1, name: "Acme", edi_format: 1, edi_identifier: "ACME", edi_qualifier: "ZZ", "856_file_contents_regex": "MARKER" };
    const profile = tradingProfile(v, ours).profile;
    const early = `MARKER${" ".repeat(RECOGNISE_BYTES)}`;
    const late = `${" ".repeat(RECOGNISE_BYTES)}MARKER`;
    expect(recogniseIncomingFile("a.edi", early, v, profile).type).toBe("856");
    expect(recogniseIncomingFile("a.edi", late, v, profile).type).toBeNull();
    expect(recogniseIncomingFile("a.edi", Buffer.from(late), v, profile).type).toBeNull();
  });

  it("a CSV contents regex too", () => {
    const v = { "856_file_contents_regex": "MARKER" };
    expect(recogniseCsvFile("a.csv", `MARKER\n${"x,1\n".repeat(RECOGNISE_BYTES)}`, v).type).toBe("856");
    expect(recogniseCsvFile("a.csv", `${"x,1\n".repeat(RECOGNISE_BYTES)}MARKER\n`, v).type).not.toBe("856");
  });
});
