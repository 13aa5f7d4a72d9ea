import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Delimiters } from "../x12/isa";
import { build860, type PurchaseOrderCancellation } from "./860";
import { ROUND_TRIP_DELIMITERS, writeAndReadSet } from "./test-support";

const base: PurchaseOrderCancellation = {
  poNumber: "PO10001",
  poDate: new Date("2026-11-20T10:00:00Z"),
  changeNumber: 1,
  changeDate: new Date("2026-11-27T09:30:00Z"),
  orderNumber: "100000123",
  wholeOrder: false,
  lines: [],
};

/** The set's segments as the vendor reads them: written into an interchange (functional group PC) and read back. */
function segmentsOf(cancellation: PurchaseOrderCancellation, delimiters: Delimiters = ROUND_TRIP_DELIMITERS[0]) {
  const { result, transaction } = writeAndReadSet(build860(cancellation, "0001"), delimiters, "PC");
  const rows: string[][] = [];
  for (let index = transaction.start; index <= transaction.end; index++) rows.push(result.segments.elements(index));
  return rows;
}

describe("860 cancellation", () => {
  it("cancels a whole PO with BCH01 01 and a DI line per cancelled line, its quantity in POC03", () => {
    const rows = segmentsOf({
      ...base,
      wholeOrder: true,
      lines: [
        { lineNumber: 1, sku: "SKU-A", vendorSku: "V-100", ordered: 2, cancelled: 2 },
        { lineNumber: 2, sku: "SKU-B", ordered: 1, cancelled: 1 },
      ],
    });
    expect(rows.map((row) => row[0])).toEqual(["ST", "BCH", "REF", "POC", "POC", "CTT", "SE"]);
    expect(rows[1]).toEqual(["BCH", "01", "DS", "PO10001", "", "1", "20261120", "", "", "", "", "20261127"]);
    expect(rows[2]).toEqual(["REF", "CO", "100000123"]);
    expect(rows[3]).toEqual(["POC", "1", "DI", "2", "0", "EA", "", "", "VP", "V-100", "SK", "SKU-A"]);
    expect(rows[4]).toEqual(["POC", "2", "DI", "1", "0", "EA", "", "", "SK", "SKU-B"]);
    expect(rows[5]).toEqual(["CTT", "2", "3"]);
    expect(rows[6][1]).toBe(String(rows.length));
  });

  it("cancels 2 of 5 with BCH01 04 and a QD line: 3 still ordered and to ship", () => {
    const rows = segmentsOf({ ...base, lines: [{ lineNumber: 3, sku: "SKU-C", ordered: 5, cancelled: 2 }] });
    expect(rows[1][1]).toBe("04");
    expect(rows.find((row) => row[0] === "POC")).toEqual(["POC", "3", "QD", "3", "3", "EA", "", "", "SK", "SKU-C"]);
  });

  it("is a change (04), not a cancellation of the PO, when only some lines go, even each in full", () => {
    const rows = segmentsOf({ ...base, wholeOrder: false, lines: [{ lineNumber: 1, sku: "SKU-A", ordered: 2, cancelled: 2 }] });
    expect(rows[1][1]).toBe("04");
    expect(rows[2 + 1]).toEqual(["POC", "1", "DI", "2", "0", "EA", "", "", "SK", "SKU-A"]);
  });

  it("reads back the same with every delimiter set the vendors use", () => {
    const cancellation = { ...base, lines: [{ lineNumber: 1, sku: "SKU-A", ordered: 5, cancelled: 2 }] };
    const expected = segmentsOf(cancellation);
    for (const delimiters of ROUND_TRIP_DELIMITERS) expect(segmentsOf(cancellation, delimiters)).toEqual(expected);
  });

  it("refuses what cannot be a cancellation", () => {
    expect(() => build860({ ...base, lines: [] }, "0001")).toThrow("needs at least one line");
    expect(() => build860({ ...base, lines: [{ lineNumber: 1, sku: "A", ordered: 2, cancelled: 3 }] }, "0001")).toThrow("3 of 2 cannot be cancelled");
    expect(() => build860({ ...base, lines: [{ lineNumber: 1, sku: "A", ordered: 2, cancelled: 0 }] }, "0001")).toThrow("0 of 2 cannot be cancelled");
    expect(() => build860({ ...base, changeNumber: 0, lines: [{ lineNumber: 1, sku: "A", ordered: 1, cancelled: 1 }] }, "0001")).toThrow("change number");
    expect(() => build860({ ...base, lines: [{ lineNumber: 1, sku: "A", ordered: 1, cancelled: 1 }] }, "01")).toThrow("ST02");
  });

  it("writes what docs/edi.md shows", () => {
    const docs = readFileSync(new URL("../../docs/edi.md", import.meta.url), "utf8");
    const shown = docs.slice(docs.indexOf("**860, PO change")).split("```")[1].trim().split("\n");
    const rows = segmentsOf({
      ...base,
      poNumber: "PO100045001-7",
      poDate: new Date("2026-11-21T12:00:00Z"),
      orderNumber: "100045001",
      lines: [
        { lineNumber: 1, sku: "SKU-10001", vendorSku: "AC-100", ordered: 2, cancelled: 2 },
        { lineNumber: 3, sku: "SKU-10003", ordered: 5, cancelled: 2 },
      ],
    });
    expect(rows.slice(1, -1).map((row) => `${row.join("*").replace(/\**$/, "")}~`)).toEqual(shown);
  });
});
