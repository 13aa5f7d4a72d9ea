import { describe, expect, it } from "vitest";
import {
  cleanCsvValue,
  parseAmount,
  parseCsvDate,
  parseWholeNumber,
  readAcknowledgementCsv,
  readInventoryCsv,
  readInvoiceCsv,
  readPurchaseOrderCsv,
  readShipNoticeCsv,
} from "./read";

const crlf = (lines: string[]) => lines.join("\r\n") + "\r\n";
const messages = (result: { errors: Array<{ message: string }> }) => result.errors.map((error) => error.message);

describe("values", () => {
  it("reads dates in the common formats as YYYY-MM-DD", () => {
    expect(parseCsvDate("2026-11-21")).toBe("2026-11-21");
    expect(parseCsvDate("2026-1-5")).toBe("2026-01-05");
    expect(parseCsvDate("2026/11/21")).toBe("2026-11-21");
    expect(parseCsvDate("11/21/2026")).toBe("2026-11-21");
    expect(parseCsvDate("1/5/26")).toBe("2026-01-05");
    expect(parseCsvDate("20261121")).toBe("2026-11-21");
    expect(parseCsvDate("2026-11-21T23:30:00-05:00")).toBe("2026-11-21");
    expect(parseCsvDate("11/21/2026 3:44 PM")).toBe("2026-11-21");
    expect(parseCsvDate("2028-02-29")).toBe("2028-02-29");
  });

  it("refuses what is not a calendar date", () => {
    for (const text of ["2026-02-29", "13/01/2026", "21/11/2026", "20261321", "2026-11", "Nov 21 2026", "", "tomorrow"]) {
      expect(parseCsvDate(text), text).toBeNull();
    }
  });

  it("reads whole numbers and amounts", () => {
    expect(parseWholeNumber("12")).toBe(12);
    expect(parseWholeNumber("+12")).toBe(12);
    expect(parseWholeNumber("1,200")).toBe(1200);
    expect(parseWholeNumber("12.00")).toBe(12);
    for (const text of ["12.5", "-3", "abc", "1,20", "1e3", ""]) expect(parseWholeNumber(text), text).toBeNull();
    expect(parseAmount("12.50")).toBe(12.5);
    expect(parseAmount("$1,234.56")).toBe(1234.56);
    expect(parseAmount("-$5")).toBe(-5);
    expect(parseAmount("+1.50")).toBe(1.5);
    expect(parseAmount(".75")).toBe(0.75);
    for (const text of ["12,50", "1.2.3", "$", "ten", "-"]) expect(parseAmount(text), text).toBeNull();
  });

  it("trims values and undoes the writer's formula guard", () => {
    expect(cleanCsvValue("  A-1 ")).toBe("A-1");
    expect(cleanCsvValue("'=SUM(A1)")).toBe("=SUM(A1)");
    expect(cleanCsvValue("''+1")).toBe("'+1");
    expect(cleanCsvValue("O'Neil")).toBe("O'Neil");
    expect(cleanCsvValue("'quoted'")).toBe("'quoted'");
  });
});

describe("acknowledgements", () => {
  // As a vendor's spreadsheet export might look: BOM, CRLF, header names in
  // other case and spacing, an unknown column, blank lines, a row of empty
  // cells, quoted values with commas, quotes and line breaks, bad rows.
  const file =
    "\uFEFF" +
    crlf([
      " PO Number ,SKU, quantity ,STATUS,Expected-Date,Message,Warehouse",
      "",
      'PO-1001,A-100,2,accepted,,"Ships from NJ, dock 4",NJ',
      'PO-1001,A-200,1,Backordered,12/15/2026,"Supplier delay;',
      'expect mid-December",NJ',
      "PO-1002,B-1,abc,shipped,2026-13-01,,CA",
      ",,,,,,",
      'PO-1003,C-9,3,REJECTED,,"Discontinued, ""no longer made""",CA',
      "PO-1004,D-1,,accepted,,,",
      "PO-1005,E-5,1,changed,20261130",
      "",
    ]);

  it("maps good rows and reports each bad value with its line and column", () => {
    const result = readAcknowledgementCsv(file);
    expect(result.refused).toBe(false);
    expect(result.complete).toBe(true);
    expect(result.rows).toEqual([
      { line: 3, poNumber: "PO-1001", sku: "A-100", quantity: 2, status: "accepted", expectedDate: null, message: "Ships from NJ, dock 4" },
      {
        line: 4,
        poNumber: "PO-1001",
        sku: "A-200",
        quantity: 1,
        status: "backordered",
        expectedDate: "2026-12-15",
        message: "Supplier delay;\r\nexpect mid-December",
      },
      { line: 8, poNumber: "PO-1003", sku: "C-9", quantity: 3, status: "rejected", expectedDate: null, message: 'Discontinued, "no longer made"' },
      { line: 10, poNumber: "PO-1005", sku: "E-5", quantity: 1, status: "changed", expectedDate: "2026-11-30", message: null },
    ]);
    expect(messages(result)).toEqual([
      'line 6, quantity: "abc" is not a whole number',
      'line 6, status: "shipped" is not a status (use accepted, backordered, rejected, changed)',
      'line 6, expected_date: "2026-13-01" is not a date (use YYYY-MM-DD, MM/DD/YYYY or YYYYMMDD)',
      "line 9, quantity: a value is required",
    ]);
    expect(result.errors[0]).toMatchObject({ line: 6, column: "quantity", problem: '"abc" is not a whole number' });
  });

  it("reads the same file with LF endings, without BOM, and from a Buffer", () => {
    const lf = file.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
    const fromLf = readAcknowledgementCsv(lf);
    const fromBuffer = readAcknowledgementCsv(Buffer.from(file, "utf8"));
    expect(fromLf.rows.map((row) => row.line)).toEqual([3, 4, 8, 10]);
    expect(fromLf.rows[1].message).toBe("Supplier delay;\nexpect mid-December");
    expect(messages(fromLf)).toEqual(messages(readAcknowledgementCsv(file)));
    expect(fromBuffer.rows).toEqual(readAcknowledgementCsv(file).rows);
    expect(readAcknowledgementCsv(new Uint8Array(Buffer.from(file))).rows).toHaveLength(4);
  });

  it("reads files that mix line endings without gluing rows together", () => {
    const mixed = "po_number,sku,quantity,status\r\nP1,A,1,accepted\nP2,B,2,accepted\rP3,C,3,accepted";
    const result = readAcknowledgementCsv(mixed);
    expect(result.rows.map((row) => [row.line, row.poNumber])).toEqual([
      [2, "P1"],
      [3, "P2"],
      [4, "P3"],
    ]);
  });

  it("reads without the optional columns", () => {
    const result = readAcknowledgementCsv("po_number,sku,quantity,status\nP1,A,1,accepted\n");
    expect(result.rows).toEqual([{ line: 2, poNumber: "P1", sku: "A", quantity: 1, status: "accepted", expectedDate: null, message: null }]);
    expect(result.errors).toEqual([]);
  });

  it("refuses a file without its required columns, in one error listing them", () => {
    const result = readAcknowledgementCsv("PO,Item,Qty,Status\nP1,A,1,accepted\n");
    expect(result).toMatchObject({ rows: [], refused: true, complete: false });
    expect(messages(result)).toEqual([
      "line 1: not readable as an acknowledgement (855) file: missing required columns po_number, sku, quantity (the header row has: PO, Item, Qty, Status)",
    ]);
  });

  it("finds the header below leading blank lines and refuses a repeated column", () => {
    const result = readAcknowledgementCsv("\n\npo_number,sku,quantity,status,Quantity\nP1,A,1,accepted,2\n");
    expect(messages(result)).toEqual([
      "line 3: not readable as an acknowledgement (855) file: column quantity given " +
        "more than once (the header row has: po_number, sku, quantity, status, Quantity)",
    ]);
  });

  it("refuses an empty file", () => {
    for (const empty of ["", "\uFEFF", "\r\n\r\n", ",,,\n"]) {
      const result = readAcknowledgementCsv(empty);
      expect(result.refused).toBe(true);
      expect(result.errors[0].message).toMatch(/^line 1: the file is empty: no header row/);
    }
  });

  it("rejects a row with more values than the header has columns (an unquoted comma)", () => {
    const result = readAcknowledgementCsv("po_number,sku,quantity,status,message\nP1,A,1,rejected,Out of stock, sorry\nP2,B,1,accepted,,\n");
    expect(messages(result)).toEqual(["line 2: 6 values but the header has 5 columns (a comma in a value that is not quoted?)"]);
    // Trailing empty cells are what spreadsheets add; they are not an error.
    expect(result.rows.map((row) => row.poNumber)).toEqual(["P2"]);
  });

  it("keeps the rows before broken quoting and says where reading stopped", () => {
    const result = readAcknowledgementCsv(
      crlf(["po_number,sku,quantity,status,message", 'P1,A,1,accepted,"two', 'lines"', 'P2,"B"x,1,accepted,', "P3,C,1,accepted,"]),
    );
    expect(result.rows.map((row) => row.poNumber)).toEqual(["P1"]);
    expect(result.complete).toBe(false);
    expect(messages(result)).toEqual([
      "line 4: a quoted value is followed by text instead of a comma or the end of the line; the rest of the file was not read",
    ]);

    const unclosed = readAcknowledgementCsv('po_number,sku,quantity,status,message\nP1,A,1,accepted,ok\nP2,B,1,rejected,"never closed\nP3,C,1,accepted,\n');
    expect(unclosed.rows.map((row) => row.poNumber)).toEqual(["P1"]);
    expect(messages(unclosed)).toEqual(["line 3: a quoted value is never closed; the rest of the file was not read"]);
  });

  it("refuses a file whose header row is broken", () => {
    const result = readAcknowledgementCsv('"po_number,sku,quantity,status\nP1,A,1,accepted\n');
    expect(result).toMatchObject({ rows: [], refused: true, complete: false });
    expect(messages(result)).toEqual(["line 1: a quoted value is never closed; the rest of the file was not read"]);
  });

  it("keeps a stray quote inside an unquoted value as text", () => {
    const result = readAcknowledgementCsv('po_number,sku,quantity,status,message\nP1,RULER-12,1,changed,Sent the 12" model\n');
    expect(result.rows[0].message).toBe('Sent the 12" model');
  });
});

describe("ship notices", () => {
  it("maps tracking numbers and carriers", () => {
    const file = crlf([
      "po_number,sku,quantity,tracking_number,carrier,ship_date,pallet_id",
      "PO-1001,A-100,2,1Z999AA10123456784,UPS,11/21/2026,P-7",
      'PO-1001,A-200,1," 9400111899223197428490 ",USPS,2026-11-22,',
      "PO-1002,B-1,1,,FedEx,2026-11-22,",
      "PO-1003,C-1,1,794611111111,,,",
    ]);
    const result = readShipNoticeCsv(file);
    expect(result.rows).toEqual([
      { line: 2, poNumber: "PO-1001", sku: "A-100", quantity: 2, trackingNumber: "1Z999AA10123456784", carrier: "UPS", shipDate: "2026-11-21" },
      { line: 3, poNumber: "PO-1001", sku: "A-200", quantity: 1, trackingNumber: "9400111899223197428490", carrier: "USPS", shipDate: "2026-11-22" },
      { line: 5, poNumber: "PO-1003", sku: "C-1", quantity: 1, trackingNumber: "794611111111", carrier: null, shipDate: null },
    ]);
    expect(messages(result)).toEqual(["line 4, tracking_number: a value is required"]);
  });
});

describe("inventory", () => {
  it("maps sku and quantity, refusing negative and fractional quantities", () => {
    const result = readInventoryCsv('SKU,Quantity,Available Date\nA-1,10,\nA-2,0,1/15/2027\nA-3,-2,\nA-4,2.5,\n"A,5","1,500",\n');
    expect(result.rows).toEqual([
      { line: 2, sku: "A-1", quantity: 10, availableDate: null },
      { line: 3, sku: "A-2", quantity: 0, availableDate: "2027-01-15" },
      { line: 6, sku: "A,5", quantity: 1500, availableDate: null },
    ]);
    expect(messages(result)).toEqual(['line 4, quantity: "-2" is negative', 'line 5, quantity: "2.5" is not a whole number']);
  });
});

describe("invoices", () => {
  const file = crlf([
    "Invoice Number,Invoice Date,PO Number,SKU,Quantity,Unit Price,Line Total,Shipping,Tax,Invoice Total",
    "INV-77,2026-11-21,PO-1001,A-100,2,10.00,,7.95,1.60,29.55",
    "INV-77,,PO-1001,A-200,1,$0.00,0.00,,,",
    "INV-78,20261121,PO-1002,B-1,3,4.333,13.00,,,13.00",
    "INV-79,2026-11-21,PO-1003,C-1,1,5.00,,,,5.00",
    "INV-79,2026-11-21,PO-1003,C-2,one,5.00,,,,5.00",
    "INV-80,2026-11-21,PO-1004,D-1,1,5.00,,,,5.00",
    "INV-80,2026-11-22,PO-1005,D-2,1,5.00,,,,6.00",
    "INV-81,2026-11-21,PO-1006,E-1,1,5.00,,,,",
  ]);

  it("groups rows into invoices with lines and totals", () => {
    const result = readInvoiceCsv(file);
    expect(result.invoices).toEqual([
      {
        line: 2,
        invoiceNumber: "INV-77",
        invoiceDate: "2026-11-21",
        poNumber: "PO-1001",
        lines: [
          { line: 2, poNumber: "PO-1001", sku: "A-100", quantity: 2, unitPrice: 10, lineTotal: 20 },
          { line: 3, poNumber: "PO-1001", sku: "A-200", quantity: 1, unitPrice: 0, lineTotal: 0 },
        ],
        shipping: 7.95,
        tax: 1.6,
        total: 29.55,
      },
      {
        line: 4,
        invoiceNumber: "INV-78",
        invoiceDate: "2026-11-21",
        poNumber: "PO-1002",
        lines: [{ line: 4, poNumber: "PO-1002", sku: "B-1", quantity: 3, unitPrice: 4.333, lineTotal: 13 }],
        shipping: 0,
        tax: 0,
        total: 13,
      },
    ]);
  });

  it("leaves out, and reports, invoices with a bad row, values that disagree or a missing total", () => {
    const result = readInvoiceCsv(file);
    expect(messages(result)).toEqual([
      "line 5: invoice INV-79 left out: errors on line 6",
      'line 6, quantity: "one" is not a whole number',
      "line 7: invoice INV-80 left out: errors on line 8",
      'line 8, invoice_date: "2026-11-22" differs from "2026-11-21" on line 7 for invoice INV-80',
      'line 8, invoice_total: "6" differs from "5" on line 7 for invoice INV-80',
      "line 9, invoice_total: invoice INV-81 has no invoice_total on any row",
      "line 9: invoice INV-81 left out: errors on line 9",
    ]);
    // The rows themselves stay available, flat.
    expect(result.rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 7, 8, 9]);
  });

  it("gives no PO number to an invoice billing several POs", () => {
    const result = readInvoiceCsv(
      "invoice_number,invoice_date,po_number,sku,quantity,unit_price,invoice_total\nI1,2026-11-21,P1,A,1,1,2\nI1,2026-11-21,P2,B,1,1,2\n",
    );
    expect(result.invoices[0]).toMatchObject({ poNumber: null, total: 2 });
    expect(result.invoices[0].lines.map((line) => line.poNumber)).toEqual(["P1", "P2"]);
  });
});

describe("purchase orders read back", () => {
  it("groups rows by PO and reports disagreeing order values", () => {
    const header = "po_number,order_number,order_date,sku,quantity,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_zip,ship_to_country";
    const result = readPurchaseOrderCsv(
      `${header}\nP1,#1,2026-11-21,A,1,Ann,1 Main St,Albany,NY,12207,US\nP1,#2,2026-11-21,B,1,Ann,1 Main St,Albany,NY,12207,US\n`,
    );
    expect(result.orders).toEqual([]);
    expect(messages(result)).toEqual([
      "line 2: purchase order P1 left out: errors on line 3",
      'line 3, order_number: "#2" differs from "#1" on line 2 for purchase order P1',
    ]);
  });
});
