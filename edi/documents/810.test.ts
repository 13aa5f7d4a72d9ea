import { describe, expect, it } from "vitest";
import type { TransactionData } from "../x12/writer";
import { build810, invoiceTotalCents, parse810, type Invoice } from "./810";
import { cleanDocument, corpusDocuments, expectEverySetMapped, expectRoundTrips, ROUND_TRIP_DELIMITERS, writeAndReadSet } from "./test-support";

const invoices = (path: string) => corpusDocuments(path, "810");

function writeAndRead(transaction: TransactionData) {
  return parse810(writeAndReadSet(transaction, ROUND_TRIP_DELIMITERS[0], "IN").view);
}

describe("810 corpus files", () => {
  const chips = (invoice: Invoice) => {
    expect(invoice).toMatchObject({
      date: "1997-12-11",
      invoiceNumber: "00001",
      poNumber: "A99999-01",
      totalCents: 255438,
      totals: { lineCount: 7 },
      charges: [],
    });
    expect(invoice.parties.map((party) => [party.entity, party.name, party.city])).toEqual([
      ["ST", "BUYSNACKS PORT", "ATHENS"],
      ["BT", "BUYSNACKS", "TEMPLE"],
      ["RE", "FOODSELLER", "DALLAS"],
    ]);
    expect(invoice.lines).toHaveLength(7);
    expect(invoice.lines[0]).toEqual({
      quantity: 16,
      uom: "CA",
      unitPrice: 12.34,
      skus: { UA: "002840022222" },
      sku: "002840022222",
      description: "CRUNCHY CHIPS LSS",
    });
    // TDS01 carries two implied decimals: 255438 is 2554.38, the sum of the seven lines.
    expect(invoiceTotalCents(invoice)).toBe(255438);
  };

  it("reads both 810s of simple810.edi", () => {
    const [first, second] = invoices("810/staedi__simple810.edi");
    chips(cleanDocument(first));
    expect(second.document).toMatchObject({ date: "1997-12-15", poNumber: "A99999-04", totals: { lineCount: 2 } });
    expect(second.document.lines.map((line) => [line.sku, line.quantity])).toEqual([
      ["002840022222", 50],
      ["002840066666", 100],
    ]);
  });

  it("reads the two 810s of the dual 810/850 file (IN group)", () => {
    const all = invoices("mixed/staedi__invoice810_po850_dual.edi");
    expect(all).toHaveLength(2);
    chips(all[0].document);
  });

  it("maps every 810 of every file in 810/ without throwing", () => {
    expectEverySetMapped("810");
  });
});

describe("build810", () => {
  const invoice: Invoice = {
    date: "2024-05-20",
    invoiceNumber: "INV-55",
    poDate: "2024-05-01",
    poNumber: "PO-1001",
    transactionType: "DI",
    currency: "USD",
    references: [{ qualifier: "VN", value: "SO-9" }],
    parties: [
      { entity: "RE", name: "Acme Supply", idQualifier: "92", id: "ACME", address: ["PO Box 1"], city: "Newark", state: "NJ", zip: "07101" },
      { entity: "ST", name: "Jane Doe", address: ["1 Main St"], city: "Springfield", state: "IL", zip: "62701", country: "US" },
    ],
    lines: [
      {
        lineNumber: "1",
        quantity: 2,
        uom: "EA",
        unitPrice: 9.99,
        skus: { VP: "AC-100", SK: "TSHIRT" },
        sku: "TSHIRT",
        vendorSku: "AC-100",
        description: "T-shirt",
      },
      {
        lineNumber: "2",
        quantity: 1,
        uom: "EA",
        unitPrice: 4.5,
        skus: { SK: "MUG" },
        sku: "MUG",
        charges: [{ type: "allowance", code: "C310", amountCents: 50, percent: 10, description: "Promo" }],
      },
    ],
    totalCents: 2898,
    charges: [{ type: "charge", code: "D240", amountCents: 550, description: "Freight" }],
    totals: { lineCount: 2 },
  };

  it("round-trips through writeInterchange and readX12 with any delimiters", () => {
    expectRoundTrips(build810(invoice, "0001"), "IN", parse810, invoice);
  });

  it("writes TDS in cents, the summary SAC after it, SAC15 descriptions, no trailing empty elements", () => {
    const { segments } = build810(invoice, "0001");
    expect(segments[0]).toEqual(["BIG", "20240520", "INV-55", "20240501", "PO-1001", undefined, undefined, "DI"]);
    const tds = segments.findIndex((segment) => segment[0] === "TDS");
    expect(segments[tds]).toEqual(["TDS", "2898"]);
    // SAC01, SAC02, SAC05 the amount, SAC06 to SAC14 empty, SAC15 the description.
    expect(segments[tds + 1]).toEqual(["SAC", "C", "D240", undefined, undefined, "550", ...Array<undefined>(9).fill(undefined), "Freight"]);
  });

  it("computes TDS from the lines and charges when the total is not given", () => {
    const { totalCents: _, ...withoutTotal } = invoice;
    // 2 × 9.99 + 4.50 − 0.50 allowance + 5.50 freight = 29.48
    expect(invoiceTotalCents(withoutTotal)).toBe(2948);
    expect(build810(withoutTotal, "0001").segments.find((segment) => segment[0] === "TDS")).toEqual(["TDS", "2948"]);
  });

  it("warns about an amount that is not one, and a SAC01 outside A/C/N (values do not refuse an invoice)", () => {
    const parsed = writeAndRead({
      setId: "810",
      controlNumber: "0001",
      segments: [
        ["BIG", "20240520", "I"],
        ["IT1", "1", "1", "EA", "2"],
        ["TDS", "12.5X"],
        ["SAC", "Q", "D240"],
        ["CTT", 1],
      ],
    });
    expect(parsed.warnings.map((warning) => [warning.segmentId, warning.element, warning.ack.code])).toEqual([
      ["TDS", 1, "6"],
      ["SAC", 1, "7"],
    ]);
    expect(parsed.document.totalCents).toBeUndefined();
    expect(parsed.faults).toEqual([]);
  });
});
