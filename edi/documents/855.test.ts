import { describe, expect, it } from "vitest";
import type { TransactionData } from "../x12/writer";
import { build855, LINE_STATUS_CODES, parse855, type PurchaseOrderAck } from "./855";
import { MAX_ISSUES_KEPT } from "./types";
import { cleanDocument, corpusDocuments, expectEverySetMapped, expectRoundTrips, ROUND_TRIP_DELIMITERS, writeAndReadSet } from "./test-support";

const acknowledgements = (path: string) => corpusDocuments(path, "855");

function writeAndRead(transaction: TransactionData) {
  return parse855(writeAndReadSet(transaction, ROUND_TRIP_DELIMITERS[0], "PR").view);
}

describe("855 corpus files", () => {
  it("reads node-x12 855.edi: BAK, two N3 lines, accepted and rejected lines", () => {
    const document = cleanDocument(acknowledgements("855/node-x12__855.edi")[0]);
    expect(document).toMatchObject({
      purpose: "00",
      ackType: "AD",
      status: "accepted",
      poNumber: "POTEST1112",
      poDate: "2020-10-15",
      requestReference: "60169126",
      ackDate: "2020-10-15",
      totals: { lineCount: 4, hashTotal: 5 },
    });
    expect(document.references).toEqual([{ qualifier: "ZZZ", value: "ORDER PROCESSED" }]);
    expect(document.parties[0]).toMatchObject({
      entity: "ST",
      address: ["REGULAR EDI ACCOUNT", "ATTN ACQ SERVS", "7615 DISALLE BOULEVARD"],
      city: "FORT WAYNE",
      state: "IN",
      zip: "46825",
    });
    expect(document.lines.map((line) => [line.lineNumber, line.sku, line.status])).toEqual([
      ["1", "9780446360265", "accepted"],
      ["2", "9780767928427", "rejected"],
      ["3", "9780099599531", "rejected"],
      ["4", "9780446360272", "accepted"],
    ]);
    expect(document.lines[0]).toMatchObject({
      quantity: 3,
      uom: "UN",
      unitPrice: 4.5,
      description: "DIC WEBSTERS NEW WORLD",
      acks: [{ code: "IA", status: "accepted", quantity: 3, uom: "UN" }],
    });
    expect(document.lines[1].acks).toEqual([{ code: "IR", status: "rejected", quantity: 0, uom: "UN" }]);
  });

  it("reads both 855s of the StAEDI multi-set file (^ component separator)", () => {
    const all = acknowledgements("855/staedi__multi-tx-transaction-type.edi");
    expect(all.map((each) => [each.document.poNumber, each.document.purpose, each.document.ackType, each.document.status, each.document.poDate])).toEqual([
      ["ORDER1", "54", "AC", "changed", "2026-01-27"],
      ["ORDER2", "54", "AC", "changed", "2026-01-27"],
    ]);
    expect(all.every((each) => each.faults.length === 0 && each.document.lines.length === 0)).toBe(true);
  });

  it("maps every 855 of every file in 855/ without throwing", () => {
    expectEverySetMapped("855");
  });
});

describe("ACK01 line item status codes", () => {
  it("maps every code of element 668 to a status", () => {
    const byStatus = (status: string) =>
      Object.keys(LINE_STATUS_CODES)
        .filter((code) => LINE_STATUS_CODES[code].status === status)
        .sort();
    expect(Object.keys(LINE_STATUS_CODES)).toHaveLength(26);
    expect(byStatus("accepted")).toEqual(["AA", "AC", "AR", "IA", "IE", "SP"]);
    expect(byStatus("backordered")).toEqual(["BP", "IB"]);
    expect(byStatus("rejected")).toEqual(["ID", "IR", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]);
    expect(byStatus("changed")).toEqual(["DR", "IC", "IP", "IQ", "IS"]);
    expect(byStatus("held")).toEqual(["IF", "IH", "IW"]);
  });
});

describe("build855", () => {
  const ack: PurchaseOrderAck = {
    purpose: "00",
    ackType: "AC",
    status: "changed",
    poNumber: "PO-1001",
    poDate: "2024-05-01",
    sellerOrderNumber: "SO-9",
    ackDate: "2024-05-02",
    references: [{ qualifier: "CO", value: "#1001" }],
    parties: [{ entity: "ST", name: "Jane Doe", address: ["1 Main St"], city: "Springfield", state: "IL", zip: "62701", country: "US" }],
    lines: [
      {
        lineNumber: "1",
        quantity: 5,
        uom: "EA",
        unitPrice: 9.99,
        skus: { VP: "AC-100", SK: "TSHIRT" },
        sku: "TSHIRT",
        vendorSku: "AC-100",
        description: "T-shirt",
        status: "accepted",
        acks: [
          { code: "IA", status: "accepted", quantity: 3, uom: "EA", dateQualifier: "068", date: "2024-05-03" },
          { code: "BP", status: "backordered", quantity: 2, uom: "EA", dateQualifier: "068", date: "2024-06-01" },
        ],
      },
      {
        lineNumber: "2",
        quantity: 1,
        uom: "EA",
        skus: { SK: "MUG" },
        sku: "MUG",
        status: "changed",
        acks: [{ code: "IS", status: "changed", quantity: 1, uom: "EA", skus: { SK: "MUG-BLUE" } }],
      },
      {
        lineNumber: "3",
        quantity: 4,
        uom: "EA",
        skus: { SK: "CAP" },
        sku: "CAP",
        status: "rejected",
        acks: [{ code: "R2", status: "rejected", quantity: 0, uom: "EA" }],
      },
      // No ACK: the line stands as ordered (the order is not rejected).
      { lineNumber: "4", quantity: 1, uom: "EA", skus: { SK: "PEN" }, sku: "PEN", status: "accepted", acks: [] },
    ],
    totals: { lineCount: 4, hashTotal: 11 },
  };

  it("round-trips through writeInterchange and readX12 with any delimiters", () => {
    expectRoundTrips(build855(ack, "0001"), "PR", parse855, ack);
  });

  it("writes BAK, PO1, ACK with its date and substitute product, CTT", () => {
    const { segments } = build855(ack, "0001");
    expect(segments[0]).toEqual(["BAK", "00", "AC", "PO-1001", "20240501", undefined, undefined, undefined, "SO-9", "20240502"]);
    expect(segments).toContainEqual(["ACK", "BP", "2", "EA", "068", "20240601", undefined]);
    expect(segments).toContainEqual(["ACK", "IS", "1", "EA", undefined, undefined, undefined, "SK", "MUG-BLUE"]);
    expect(segments[segments.length - 1]).toEqual(["CTT", 4, "11"]);
  });

  it("fills ACK01 and BAK02 from statuses for a demo vendor", () => {
    const codes = (transaction: TransactionData) =>
      transaction.segments.filter((segment) => segment[0] === "ACK" || segment[0] === "BAK").map((segment) => segment[segment[0] === "BAK" ? 2 : 1]);
    const line = (status: "accepted" | "backordered" | "rejected") => ({ lineNumber: "1", sku: "A", quantity: 1, uom: "EA", status });
    expect(codes(build855({ poNumber: "P", lines: [line("accepted"), line("backordered")] }, "0001"))).toEqual(["AC", "IA", "IB"]);
    expect(codes(build855({ poNumber: "P", lines: [line("accepted")] }, "0001"))).toEqual(["AD", "IA"]);
    expect(codes(build855({ poNumber: "P", lines: [line("rejected"), line("rejected")] }, "0001"))).toEqual(["RD", "IR", "IR"]);
    const parsed = writeAndRead(build855({ poNumber: "P", lines: [line("backordered")] }, "0001"));
    expect(parsed.document.lines[0]).toMatchObject({ skus: { SK: "A" }, status: "backordered", acks: [{ code: "IB", quantity: 1, uom: "EA" }] });
  });

  it("warns about an ACK01 outside the code list and keeps the line (status unknown)", () => {
    const transaction = build855({ poNumber: "P", lines: [{ lineNumber: "1", sku: "A", quantity: 1, acks: [{ code: "ZZ" }] }] }, "0001");
    const parsed = writeAndRead(transaction);
    expect(parsed.faults).toEqual([]);
    expect(parsed.document.lines[0].status).toBe("unknown");
    expect(parsed.warnings).toEqual([expect.objectContaining({ segmentId: "ACK", element: 1, ack: { segment: "AK4", code: "7" } })]);
  });
});

describe("855 with a bad value on every line (issue 28)", () => {
  it("keeps the first MAX_ISSUES_KEPT warnings and counts the rest", () => {
    const lines = 500;
    const segments: TransactionData["segments"] = [["BAK", "00", "AC", "PO1", "20260101"]];
    for (let i = 1; i <= lines; i++) segments.push(["PO1", String(i), "x", "EA", "bogus", undefined, "SK", `SKU${i}`]);
    segments.push(["CTT", lines]);
    const parsed = writeAndRead({ setId: "855", controlNumber: "0001", segments });
    expect(parsed.document.lines).toHaveLength(lines);
    // Two bad values per line (PO102, PO104): 1,000 warnings found, 100 kept.
    expect(parsed.warnings).toHaveLength(MAX_ISSUES_KEPT);
    expect(parsed.warnings[0]).toMatchObject({ segmentId: "PO1", element: 2 });
    expect(parsed.notKept).toEqual({ faults: 0, warnings: 2 * lines - MAX_ISSUES_KEPT });
  });
});
