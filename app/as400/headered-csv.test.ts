// The shared reader of the AS400's headered CSV files: what every area's file
// gets from it (BOM, line endings, header names) and what refuses a file.
import { describe, expect, it } from "vitest";
import { readHeaderedCsv, rowsFittingHeader, type HeaderedCsvFormat } from "./headered-csv";

class TestFileError extends Error {}

const format: HeaderedCsvFormat = {
  columns: ["store_id", "sku", "qty"],
  required: ["store_id", "sku"],
  aliases: { item: "sku" },
  notThisKind: "not a test file",
  expectedHeader: "store_id, sku, qty",
  refuse: (message) => new TestFileError(message),
};

const read = (content: string | Buffer) => readHeaderedCsv(content, format);
const cells = (content: string | Buffer) => read(content).rows.map((row) => [row.line, row.cell("store_id"), row.cell("sku"), row.cell("qty")]);

describe("headered CSV", () => {
  it("reads a file with a BOM, its header in any case and order, and ignores unknown columns", () => {
    const csv = read(Buffer.from("\uFEFFSKU, Store ID ,Colour,qty\nA1,12,red,3\n"));
    expect(csv.headerNames).toEqual(["sku", "store_id", "colour", "qty"]);
    expect(csv.has("colour")).toBe(false);
    expect(csv.rows.map((row) => [row.cell("store_id"), row.cell("sku"), row.cell("qty"), row.cell("colour")])).toEqual([["12", "A1", "3", ""]]);
  });

  it("takes CRLF, CR and LF line endings alike, and numbers the lines as the file has them", () => {
    const expected = [
      [2, "1", "A", "5"],
      [4, "2", "B", ""],
    ];
    expect(cells("store_id,sku,qty\r\n1,A,5\r\n\r\n2,B\r\n")).toEqual(expected);
    expect(cells("store_id,sku,qty\r1,A,5\r\r2,B\r")).toEqual(expected);
    expect(cells("store_id,sku,qty\n1,A,5\n\n2,B\n")).toEqual(expected);
  });

  it("gives the line a row starts on when a quoted value spans lines", () => {
    const [row] = read('store_id,sku\n1,"A\nB"\n').rows;
    expect([row.line, row.lastLine, row.cell("sku")]).toEqual([2, 3, "A\nB"]);
  });

  it("accepts another name for a column", () => {
    expect(cells("store_id,item\n1,A\n")).toEqual([[2, "1", "A", ""]]);
  });

  it("refuses an empty file, asking for the header row", () => {
    for (const empty of ["", "\n\n", "\uFEFF", " , \n"]) {
      expect(() => read(empty)).toThrow(TestFileError);
      expect(() => read(empty)).toThrow("the file is empty: it needs a header row (store_id, sku, qty)");
    }
  });

  it("refuses a file naming a column twice, under its own name or another", () => {
    expect(() => read("store_id,sku,SKU\n")).toThrow("line 1: the column sku is named twice");
    expect(() => read("\n\nstore_id,sku,item\n")).toThrow("line 3: the column sku is named twice");
  });

  it("refuses a file without a required column, naming what the header has", () => {
    expect(() => read("store_id,qty\n1,2\n")).toThrow("line 1: not a test file: missing required column sku (the header row has: store_id, qty)");
    expect(() => read("order,qty\n")).toThrow("line 1: not a test file: missing required columns store_id, sku (the header row has: order, qty)");
  });

  it("refuses what is not CSV", () => {
    expect(() => read('store_id,sku\n1,"A\n')).toThrow(/^not readable as CSV: /);
  });

  it("leaves out a row with more values than the header has columns, its problem in file order", () => {
    const csv = read("store_id,sku\n1,A\n2,B,extra\n3,\n");
    const problems: string[] = [];
    const fitting: number[] = [];
    for (const row of rowsFittingHeader(csv, problems)) {
      fitting.push(row.line);
      if (!row.cell("sku")) problems.push(`line ${row.line}: sku is empty`);
    }
    expect(fitting).toEqual([2, 4]);
    expect(problems).toEqual(["line 3: 3 values but the header has 2 columns (a comma in a value that is not quoted?)", "line 4: sku is empty"]);
  });
});
