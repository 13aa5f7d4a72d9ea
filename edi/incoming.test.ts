import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentsSortKey, recogniseIncomingFile, sortIncomingFiles } from "./incoming";
import { tradingProfile, type VendorEdiFields } from "./vendor-profile";
import { readX12 } from "./x12/reader";
import { readX12Stream } from "./x12/stream";
import { Readable } from "node:stream";
import { EDI_CORPUS } from "../tests/support/edi-corpus";

const CORPUS = EDI_CORPUS;
const ours = { qualifier: "ZZ", id: "HOUSEROPS" };
const vendor = (fields: Partial<VendorEdiFields> = {}): VendorEdiFields => ({
  id: 1,
  name: "Acme",
  edi_format: 1,
  edi_identifier: "ACME",
  edi_qualifier: "ZZ",
  ...fields,
});
const profileOf = (v: VendorEdiFields) => tradingProfile(v, ours).profile;
const corpus = (file: string) => readFileSync(path.join(CORPUS, file));

describe("incoming files", () => {
  it("says a file that is neither X12 nor CSV is not one, not 'closest to an 846' (D218)", () => {
    // "ISA*00*" and a few fields in EBCDIC (code page 037), as an AS400 writes it unconverted.
    const ebcdic = Buffer.from("c9e2c15cf0f05c40404040404040404040405cf0f05c404040404040404040405ce9e95ce5c5d5c4d6d9".repeat(4), "hex");
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => (i * 37) % 256));
    const csvVendor = vendor({ edi_format: 0 });
    for (const v of [vendor(), csvVendor]) {
      expect(recogniseIncomingFile("ship.edi", ebcdic, v, profileOf(v))).toMatchObject({
        accept: true,
        type: null,
        reason: "not an X12 or CSV file: EBCDIC text (an AS400 file not converted to ASCII?)",
      });
      expect(recogniseIncomingFile("ship.csv", binary, v, profileOf(v)).reason).toBe("not an X12 or CSV file: binary data");
      expect(recogniseIncomingFile("ship.pdf", Buffer.from("%PDF-1.7\n%\u00e2\u00e3"), v, profileOf(v)).reason).toBe("not an X12 or CSV file: a PDF document");
    }
    // Text stays what it was: a CSV header, and X12 with control characters as delimiters.
    expect(recogniseIncomingFile("stock.csv", "sku,quantity\nX,5\n", csvVendor, profileOf(csvVendor)).type).toBe("846");
    expect(recogniseIncomingFile("x.edi", corpus("856/node-x12__856.edi"), vendor(), profileOf(vendor())).type).toBe("856");
  });

  it("picks up only names matching regex_format", () => {
    const v = vendor({ regex_format: "^(855|856)_.*\\.edi$" });
    expect(recogniseIncomingFile("856_1.edi", corpus("856/node-x12__856.edi"), v, profileOf(v))).toMatchObject({ accept: true, type: "856" });
    expect(recogniseIncomingFile("readme.txt", "hello", v, profileOf(v))).toMatchObject({ accept: false, type: null });
  });

  it("recognises a hard-wrapped 846 (unwrap_846) even when a line break splits ST*846", () => {
    const wrapped =
      "ISA*00*          *00*          *ZZ*ACME           *ZZ*HOUSEROPS      *261121*1200*U*00401*000000001*0*P*>~" +
      "GS*IB*ACME*HOUSEROPS*20261121*1200*1*X*004010~S\nT*846*0001~BIA*00*DD*1*20261121~";
    const wraps = vendor({ unwrap_846: 1 });
    expect(recogniseIncomingFile("inv.edi", wrapped, wraps, profileOf(wraps)).type).toBe("846");
    expect(recogniseIncomingFile("inv.edi", wrapped, vendor(), profileOf(vendor())).type).toBeNull();
  });

  it("recognises X12 documents by ST01, or first by the vendor's contents regex", () => {
    const v = vendor();
    expect(recogniseIncomingFile("a", corpus("855/node-x12__855.edi"), v, profileOf(v)).type).toBe("855");
    expect(recogniseIncomingFile("b", corpus("997/staedi__simple997.edi"), v, profileOf(v)).type).toBe("997");
    expect(recogniseIncomingFile("c", corpus("other/node-x12__271.edi"), v, profileOf(v))).toMatchObject({
      type: null,
      reason: "ST01 271 is not a document this app exchanges",
    });
    const withRegex = vendor({ "810_file_contents_regex": "BIG\\*" });
    expect(recogniseIncomingFile("d", corpus("810/staedi__simple810.edi"), withRegex, profileOf(withRegex))).toMatchObject({
      type: "810",
      reason: "810_file_contents_regex matches",
    });
  });

  it("hands CSV vendors' files to the CSV recogniser", () => {
    const v = vendor({ edi_format: 0, regex_format: "\\.csv$" });
    expect(recogniseIncomingFile("t.csv", "po_number,sku,quantity,tracking_number\nPO1,S,1,1Z\n", v, profileOf(v))).toMatchObject({
      accept: true,
      type: "856",
    });
    expect(recogniseIncomingFile("t.edi", "x", v, profileOf(v)).accept).toBe(false);
  });

  it("orders a run's files by name, or by the date inside them when the vendor asks", () => {
    const isa = (date: string, time: string, control: string) =>
      `ISA*00*          *00*          *ZZ*A              *ZZ*B              *${date}*${time}*U*00401*${control}*0*P*>~`;
    const files = [
      { name: "a_ship.edi", firstBytes: isa("261121", "0900", "000000003") },
      { name: "b_ack.edi", firstBytes: isa("261120", "1700", "000000002") },
      { name: "c_nodate.txt", firstBytes: "no date here" },
      { name: "d_ack2.edi", firstBytes: isa("261121", "0900", "000000001") },
    ];
    expect(sortIncomingFiles(files, { sortByContents: false }).map((f) => f.name)).toEqual(["a_ship.edi", "b_ack.edi", "c_nodate.txt", "d_ack2.edi"]);
    expect(sortIncomingFiles(files, { sortByContents: true }).map((f) => f.name)).toEqual(["b_ack.edi", "d_ack2.edi", "a_ship.edi", "c_nodate.txt"]);
    expect(contentsSortKey("sku,quantity,available_date\nS1,4,11/21/2026\n")).toBe("202611210000|");
  });

  it("unwrap_846: drops every line break, even one that splits ISA itself", async () => {
    const flat =
      "ISA*00*          *00*          *ZZ*VENDOR         *ZZ*US             *261121*1200*U*00401*000000001*0*P*>~" +
      "GS*IB*VENDOR*US*20261121*1200*1*X*004010~ST*846*0001~BIA*00*MM*INV1*20261121~LIN**SK*SKU-1~QTY*33*5~SE*5*0001~GE*1*1~IEA*1*000000001~";
    // Hard-wrapped at 80 columns, with one more break right inside "ISA".
    const wrapped = ("IS\n" + flat.slice(2)).replace(/(.{80})/g, "$1\r\n");
    expect(readX12(wrapped).ok).toBe(false);
    const unwrapped = readX12(wrapped, { unwrap: true });
    expect(unwrapped.faults).toEqual([]);
    expect(unwrapped.segments.elements(5)).toEqual(["QTY", "33", "5"]);
    const seen: string[] = [];
    const summary = await readX12Stream(
      Readable.from(
        Buffer.from(wrapped)
          .toString("utf8")
          .match(/[\s\S]{1,7}/g)!,
      ),
      (segment) => void seen.push(segment.id),
      { unwrap: true },
    );
    expect(summary.ok).toBe(true);
    expect(seen).toEqual(["ISA", "GS", "ST", "BIA", "LIN", "QTY", "SE", "GE", "IEA"]);
  });
});
