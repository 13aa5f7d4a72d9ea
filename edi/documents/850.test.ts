import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Delimiters } from "../x12/isa";
import { readX12 } from "../x12/reader";
import type { TransactionData } from "../x12/writer";
import { build850, parse850, type DropShipOrderRequest, type PurchaseOrder } from "./850";
import { mapTransaction } from "./index";
import { viewTransaction } from "./types";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";
import { JANE_DOE } from "../../tests/support/edi-samples";
import { cleanDocument, corpusDocuments, expectEverySetMapped, expectRoundTrips, ROUND_TRIP_DELIMITERS, writeAndReadSet } from "./test-support";

const CORPUS = EDI_CORPUS;
const read = (path: string) => readX12(readFileSync(`${CORPUS}/${path}`), { mode: "tolerant" });
const purchaseOrders = (path: string) => corpusDocuments(path, "850");

/** build → writeInterchange → readX12 → the set, read back. */
function writeAndRead(transaction: TransactionData, delimiters: Delimiters, functionalId: string) {
  const written = writeAndReadSet(transaction, delimiters, functionalId);
  expect(written.replaced).toEqual([]);
  return written;
}

describe("850 corpus files", () => {
  const widgets = (order: PurchaseOrder) => {
    expect(order).toMatchObject({ purpose: "00", orderType: "SA", poNumber: "08292233294", date: "2010-11-27", contractNumber: "610385385" });
    expect(order.references).toEqual([
      { qualifier: "DP", value: "038" },
      { qualifier: "PS", value: "R" },
    ]);
    expect(order.dates).toEqual([{ qualifier: "002", date: "2010-12-14" }]);
    expect(order.shipTo).toEqual({
      entity: "ST",
      name: "XYZ RETAIL",
      idQualifier: "9",
      id: "0003947268292",
      address: ["31875 SOLON RD"],
      city: "SOLON",
      state: "OH",
      zip: "44139",
    });
    expect(order.lines).toHaveLength(6);
    expect(order.lines[0]).toEqual({
      lineNumber: "1",
      quantity: 120,
      uom: "EA",
      unitPrice: 9.25,
      skus: { CB: "065322-117", PR: "RO", VN: "AB3542" },
      sku: "065322-117",
      vendorSku: "AB3542",
      description: "SMALL WIDGET",
    });
    expect(order.lines.map((line) => line.quantity)).toEqual([120, 220, 126, 76, 72, 696]);
    expect(order.lines[5]).toMatchObject({ unitPrice: 9.55, vendorSku: "DX1875", description: "ORANGE WIDGET" });
    expect(order.totals).toEqual({ lineCount: 6 });
  };

  it("reads node-x12 850.edi (~ terminator) and 850_2.edi (newline terminator) alike", () => {
    for (const file of ["850/node-x12__850.edi", "850/node-x12__850_2.edi"]) {
      const [mapped] = purchaseOrders(file);
      widgets(cleanDocument(mapped));
    }
  });

  it("reads both interchanges of 850_fat.edi", () => {
    const orders = purchaseOrders("850/node-x12__850_fat.edi");
    expect(orders).toHaveLength(2);
    orders.forEach((order) => widgets(order.document));
  });

  it("reads 850_3.edi: NE order, vendor and ship-to parties, SK among other qualifiers", () => {
    const document = cleanDocument(purchaseOrders("850/node-x12__850_3.edi")[0]);
    expect(document).toMatchObject({ orderType: "NE", poNumber: "----------", date: "2016-04-26", dates: [{ qualifier: "106", date: "2016-05-02" }] });
    expect(document.parties.map((party) => party.entity)).toEqual(["VN", "ST"]);
    expect(document.shipTo).toMatchObject({ name: "PETCO - CORPORATE", city: "SAN DIEGO", state: "CA", zip: "92121" });
    expect(document.lines).toEqual([
      {
        quantity: 1,
        uom: "KI",
        unitPrice: 225,
        skus: { VN: "UNKNOWN", PD: "SU - SPARK - AQ FREEZER PUSHER", SK: "000000000001010700" },
        sku: "000000000001010700",
        vendorSku: "UNKNOWN",
      },
    ]);
  });

  it("reads the 850 of the dual 810/850 file: six-digit BEG05 (version 003010), IN item numbers, CTT hash total", () => {
    const result = read("mixed/staedi__invoice810_po850_dual.edi");
    const transaction = result.interchanges[0].groups[1].transactions[0];
    const mapped = mapTransaction(result, transaction);
    expect(mapped?.type).toBe("850");
    if (mapped?.type !== "850") return;
    expect(mapped.faults).toEqual([]);
    expect(mapped.warnings).toEqual([]);
    expect(mapped.document).toMatchObject({ purpose: "00", orderType: "NE", poNumber: "S115921858", releaseNumber: "1017760", date: "2004-03-17" });
    expect(mapped.document.references.map((ref) => ref.qualifier)).toEqual(["PD", "MU", "WH"]);
    expect(mapped.document.parties.map((party) => [party.entity, party.name])).toEqual([
      ["BY", "SHIPPING GROUP, INC."],
      ["ST", "CARGO LIMITED #112"],
    ]);
    expect(mapped.document.lines.map((line) => [line.sku, line.quantity])).toEqual([
      ["02006", 150],
      ["02008", 50],
      ["01019", 25],
      ["01220", 25],
    ]);
    expect(mapped.document.totals).toEqual({ lineCount: 4, hashTotal: 250 });
  });

  it("maps every 850 of every file in 850/ without throwing", () => {
    expectEverySetMapped("850");
  });
});

describe("build850 (drop-ship request)", () => {
  const request: DropShipOrderRequest = {
    poNumber: "PO-1001",
    orderNumber: "#1001",
    date: new Date("2024-05-01T15:30:00Z"),
    vendor: { number: "V-77", name: "Acme Supply", id: "ACME" },
    ...JANE_DOE,
    requestedShipDate: new Date("2024-05-03T00:00:00Z"),
    lines: [
      { lineNumber: 1, sku: "TSHIRT-RED-M", vendorSku: "AC-100-R-M", upc: "012345678905", quantity: 2, unitPrice: 9.99, description: "Red T-shirt, M" },
      { lineNumber: 2, sku: "MUG-01", quantity: 1.5, unitPrice: 0.1 + 0.2 },
    ],
    extraSegments: [
      ["REF", "ZZ", "TEMPLATE"],
      ["TD5", undefined, undefined, undefined, undefined, "UPS GROUND"],
    ],
  };

  const expected: PurchaseOrder = {
    purpose: "00",
    orderType: "DS",
    poNumber: "PO-1001",
    date: "2024-05-01",
    orderNumber: "#1001",
    vendorNumber: "V-77",
    references: [
      { qualifier: "ZZ", value: "TEMPLATE" },
      { qualifier: "IA", value: "V-77" },
      { qualifier: "CO", value: "#1001" },
    ],
    contacts: [{ function: "IC", name: "Jane Doe", phone: "555-0100", email: "jane@example.com" }],
    dates: [{ qualifier: "010", date: "2024-05-03" }],
    parties: [
      { entity: "ST", name: "Jane Doe", names: ["Doe Design"], address: ["1 Main St", "Apt 4"], city: "Springfield", state: "IL", zip: "62701", country: "US" },
      { entity: "VN", name: "Acme Supply", idQualifier: "92", id: "ACME" },
    ],
    shipTo: {
      entity: "ST",
      name: "Jane Doe",
      names: ["Doe Design"],
      address: ["1 Main St", "Apt 4"],
      city: "Springfield",
      state: "IL",
      zip: "62701",
      country: "US",
    },
    lines: [
      {
        lineNumber: "1",
        quantity: 2,
        uom: "EA",
        unitPrice: 9.99,
        skus: { VP: "AC-100-R-M", SK: "TSHIRT-RED-M", UP: "012345678905" },
        sku: "TSHIRT-RED-M",
        vendorSku: "AC-100-R-M",
        description: "Red T-shirt, M",
      },
      { lineNumber: "2", quantity: 1.5, uom: "EA", unitPrice: 0.3, skus: { SK: "MUG-01" }, sku: "MUG-01" },
    ],
    totals: { lineCount: 2, hashTotal: 3.5 },
  };

  it("writes BEG, the template's segments right after it, REF, PER, DTM, the ship-to loop, PO1/PID and CTT", () => {
    const { text } = writeAndRead(build850(request, "0001"), ROUND_TRIP_DELIMITERS[0], "PO");
    const body = text.split("~").filter((segment) => /^(?!ISA|GS|ST|SE|GE|IEA)/.test(segment) && segment);
    expect(body).toEqual([
      "BEG*00*DS*PO-1001**20240501",
      "REF*ZZ*TEMPLATE",
      "TD5*****UPS GROUND",
      "REF*IA*V-77",
      "REF*CO*#1001",
      "PER*IC*Jane Doe*TE*555-0100*EM*jane@example.com",
      "DTM*010*20240503",
      "N1*ST*Jane Doe",
      "N2*Doe Design",
      "N3*1 Main St*Apt 4",
      "N4*Springfield*IL*62701*US",
      "N1*VN*Acme Supply*92*ACME",
      "PO1*1*2*EA*9.99**VP*AC-100-R-M*SK*TSHIRT-RED-M*UP*012345678905",
      "PID*F****Red T-shirt, M",
      "PO1*2*1.5*EA*0.3**SK*MUG-01",
      "CTT*2*3.5",
    ]);
  });

  it("round-trips through writeInterchange and readX12 with any delimiters", () => {
    expectRoundTrips(build850(request, "0001"), "PO", parse850, expected);
  });

  it("writes the shop's SKU under another qualifier when the vendor asks (IN)", () => {
    const { segments } = build850({ ...request, lines: [request.lines[1]] }, "0001", { skuQualifier: "IN" });
    expect(segments.find((segment) => segment[0] === "PO1")).toEqual(["PO1", "2", "1.5", "EA", "0.3", undefined, "IN", "MUG-01"]);
  });

  it("refuses, when built, delimiters the reader would refuse and a ten-digit ST02", () => {
    expect(() => writeAndRead(build850(request, "0001"), { element: "*", component: ">", segment: "*" }, "PO")).toThrow(
      /cannot be written: the element separator and the segment terminator/,
    );
    expect(() => writeAndRead(build850(request, "0001"), { element: "*", component: "*", segment: "~" }, "PO")).toThrow(/cannot be written/);
    expect(() => build850(request, "1000000000")).toThrow(/ST02 must be 4 to 9 characters/);
  });

  it("refuses an order without lines or with a zero quantity", () => {
    expect(() => build850({ ...request, lines: [] }, "0001")).toThrow(/at least one line/);
    expect(() => build850({ ...request, lines: [{ lineNumber: 1, sku: "X", quantity: 0 }] }, "0001")).toThrow(/quantity/);
  });
});

describe("parse850 faults and warnings", () => {
  const parse = (body: string) => {
    const text =
      "ISA*00*          *00*          *ZZ*A              *ZZ*B              *240501*1200*U*00401*000000001*0*P*>~" +
      `GS*PO*A*B*20240501*1200*1*X*004010~ST*850*0001~${body}SE*${body.split("~").length + 1}*0001~GE*1*1~IEA*1*000000001~`;
    const result = readX12(text);
    expect(result.faults).toEqual([]);
    return parse850(viewTransaction(result, result.interchanges[0].groups[0].transactions[0]));
  };

  it("warns about a quantity that is not a number and a date that is not a date, naming segment and element", () => {
    const { document, faults, warnings } = parse("BEG*00*SA*PO1**20241301~PO1*1*12X*EA*1.5**SK*A~CTT*1~");
    expect(document.poNumber).toBe("PO1");
    expect(document.date).toBeUndefined();
    expect(document.lines[0].quantity).toBeUndefined();
    expect(faults).toEqual([]);
    expect(warnings).toEqual([
      expect.objectContaining({
        level: "element",
        segmentIndex: 4,
        segmentId: "BEG",
        element: 5,
        ack: { segment: "AK4", code: "8" },
        positionInTransaction: 2,
      }),
      expect.objectContaining({
        level: "element",
        segmentIndex: 5,
        segmentId: "PO1",
        element: 2,
        ack: { segment: "AK4", code: "6" },
        positionInTransaction: 3,
        interchange: 0,
        group: 0,
        transaction: 0,
      }),
    ]);
  });

  it("warns about a missing BEG and a CTT that does not match the lines", () => {
    const { faults, warnings } = parse("PO1*1*2*EA~PO1*2*3*EA~CTT*3*6~");
    expect(faults).toEqual([]);
    expect(warnings.map((warning) => [warning.segmentId, warning.element])).toEqual([
      ["BEG", undefined],
      ["CTT", 1],
      ["CTT", 2],
    ]);
  });
});
