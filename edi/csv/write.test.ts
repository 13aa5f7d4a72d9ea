import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { headerLine } from "./headers";
import { readPurchaseOrderCsv } from "./read";
import type { DropShipOrderRequest } from "../documents/850";
import { CsvWriteError, neutraliseCsvValue, writePurchaseOrderCsv, type CsvPurchaseOrder } from "./write";
import { JANE_DOE } from "../../tests/support/edi-samples";

const order = (overrides: Partial<CsvPurchaseOrder> = {}): CsvPurchaseOrder => ({
  poNumber: "PO-1001",
  orderNumber: "#5001",
  date: "2026-11-21",
  shipTo: {
    name: "Ann O'Neil",
    address1: "12 Main St",
    address2: "Apt 4, rear entrance",
    city: "Albany",
    state: "NY",
    zip: "01234",
    country: "US",
  },
  contact: { phone: "518-555-0100" },
  shipMethod: "UPS Ground",
  notes: 'Leave at the side door.\nCall "before" delivery',
  lines: [
    { sku: "A-100", vendorSku: "V-9", quantity: 2, unitPrice: 12.5 },
    { sku: "A-200", vendorSku: null, quantity: 1, unitPrice: "7.25" },
  ],
  ...overrides,
});

describe("writePurchaseOrderCsv", () => {
  it("writes the documented header, one CRLF row per line, quoting where needed", () => {
    const { text, rowCount } = writePurchaseOrderCsv([order()]);
    expect(rowCount).toBe(2);
    const [header, firstRow] = text.split("\r\n");
    expect(header).toBe(headerLine("850"));
    expect(firstRow).toBe(
      `PO-1001,#5001,2026-11-21,A-100,V-9,2,12.50,Ann O'Neil,12 Main St,"Apt 4, rear entrance",Albany,` +
        `NY,01234,US,518-555-0100,,,UPS Ground,"Leave at the side door.\nCall ""before"" delivery"`,
    );
    // Every line ends in CRLF; the only bare \n is the one inside the quoted notes.
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "").match(/\n/g)).toHaveLength(2);
    expect(text).toContain('"Leave at the side door.\nCall ""before"" delivery"\r\n');
  });

  it("round-trips through the reader", () => {
    const orders = [
      order(),
      order({
        poNumber: "PO-1002",
        orderNumber: "#5002",
        date: "11/22/2026",
        contact: null,
        shipMethod: null,
        notes: null,
        lines: [{ lineNumber: 1, sku: "B-1", quantity: 10 }],
      }),
    ];
    const read = readPurchaseOrderCsv(writePurchaseOrderCsv(orders).text);
    expect(read.errors).toEqual([]);
    const shipTo = { ...orders[0].shipTo, company: null };
    expect(read.orders).toEqual([
      {
        ...orders[0],
        shipTo,
        lines: [
          { lineNumber: null, sku: "A-100", vendorSku: "V-9", quantity: 2, unitPrice: 12.5 },
          { lineNumber: null, sku: "A-200", vendorSku: null, quantity: 1, unitPrice: 7.25 },
        ],
      },
      {
        poNumber: "PO-1002",
        orderNumber: "#5002",
        date: "2026-11-22",
        shipTo,
        shipMethod: null,
        notes: null,
        lines: [{ lineNumber: "1", sku: "B-1", vendorSku: null, quantity: 10, unitPrice: null }],
      },
    ]);
  });

  it("takes the 850 builder's drop-ship request as is", () => {
    const request: DropShipOrderRequest = {
      poNumber: "PO-1001",
      orderNumber: "#1001",
      date: new Date("2026-11-21T23:30:00Z"),
      vendor: { number: "V-77", name: "Acme Supply" },
      ...JANE_DOE,
      lines: [{ lineNumber: 1, sku: "TSHIRT-RED-M", vendorSku: "AC-100-R-M", quantity: 2, unitPrice: 9.99, description: "Red T-shirt, M" }],
    };
    const { text } = writePurchaseOrderCsv([request]);
    expect(text.split("\r\n")[1]).toBe(
      "PO-1001,#1001,2026-11-21,TSHIRT-RED-M,AC-100-R-M,2,9.99,Jane Doe,1 Main St,Apt 4,Springfield,IL,62701,US,555-0100,1,Doe Design,,",
    );
    expect(readPurchaseOrderCsv(text).orders[0]).toMatchObject({
      date: "2026-11-21",
      contact: { phone: "555-0100" },
      shipTo: { company: "Doe Design" },
      lines: [{ lineNumber: "1" }],
    });
  });

  it("neutralises values a spreadsheet would run, and the reader gives the text back", () => {
    const hostile = order({
      shipTo: { ...order().shipTo, address1: '=HYPERLINK("http://x")', address2: "@SUM(A1:A9)", city: "+Albany", name: "-2+3" },
      contact: { phone: "\t=1+1" },
      notes: "\r=cmd|' /C calc'!A0",
      lines: [
        { sku: "'=already-quoted", quantity: 1, unitPrice: -5 },
        { sku: "B", quantity: 2, unitPrice: "+1.50" },
      ],
    });
    const written = writePurchaseOrderCsv([hostile]);
    const cells = parse(written.text, { columns: true, record_delimiter: "\r\n" }) as Array<Record<string, string>>;
    expect(cells[0].ship_to_address1).toBe(`'=HYPERLINK("http://x")`);
    expect(cells[0].ship_to_address2).toBe("'@SUM(A1:A9)");
    expect(cells[0].ship_to_city).toBe("'+Albany");
    expect(cells[0].ship_to_name).toBe("'-2+3");
    expect(cells[0].ship_to_phone).toBe("'\t=1+1");
    expect(cells[0].notes).toBe("'\r=cmd|' /C calc'!A0");
    expect(cells[0].sku).toBe("''=already-quoted");
    // Numbers in numeric columns stay numbers.
    expect(cells[0].unit_price).toBe("-5.00");
    expect(cells[1].unit_price).toBe("+1.50");
    expect(written.text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(written.neutralised).toContain('=HYPERLINK("http://x")');

    const read = readPurchaseOrderCsv(written.text);
    expect(read.errors).toEqual([]);
    expect(read.orders[0].shipTo).toMatchObject({ address1: '=HYPERLINK("http://x")', address2: "@SUM(A1:A9)", city: "+Albany", name: "-2+3" });
    expect(read.orders[0].lines.map((line) => [line.sku, line.unitPrice])).toEqual([
      ["'=already-quoted", -5],
      ["B", 1.5],
    ]);
  });

  it("refuses orders with missing or wrong values, listing every problem", () => {
    const bad = order({
      orderNumber: " ",
      date: "soon",
      shipTo: { ...order().shipTo, city: "" },
      lines: [
        { sku: "A", quantity: 0 },
        { sku: "", quantity: 1.5, unitPrice: "ten" },
      ],
    });
    expect(() => writePurchaseOrderCsv([bad, order({ poNumber: "PO-2", lines: [] })])).toThrowError(CsvWriteError);
    try {
      writePurchaseOrderCsv([bad, order({ poNumber: "PO-2", lines: [] })]);
    } catch (error) {
      expect((error as CsvWriteError).problems).toEqual([
        'PO PO-1001: order_date "soon" is not a date',
        "PO PO-1001: order_number is empty",
        "PO PO-1001: ship_to_city is empty",
        "PO PO-1001, line 1: quantity 0 is not a whole number above 0",
        "PO PO-1001, line 2: quantity 1.5 is not a whole number above 0",
        'PO PO-1001, line 2: unit_price "ten" is not a number',
        "PO PO-1001, line 2: sku is empty",
        "PO PO-2: no lines",
      ]);
    }
  });
});

describe("neutraliseCsvValue", () => {
  it("prefixes formula starts and leaves other text alone", () => {
    for (const value of ["=1+1", "+1", "-1", "@A1", "\tx", "\rx", "'=x"]) expect(neutraliseCsvValue(value)).toBe(`'${value}`);
    for (const value of ["", "plain", "O'Neil", "'quoted'", "a=b", " =1"]) expect(neutraliseCsvValue(value)).toBe(value);
  });

  it("leaves plain numbers in numeric columns, but not formulas", () => {
    for (const value of ["-5", "+1.50", "12", "-0.5", ".5"]) expect(neutraliseCsvValue(value, true)).toBe(value);
    for (const value of ["-5+1", "+1,50", "=5", "-"]) expect(neutraliseCsvValue(value, true)).toBe(`'${value}`);
  });
});
