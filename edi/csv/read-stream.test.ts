import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  MAX_CSV_ERRORS_KEPT,
  readAcknowledgementCsv,
  readAcknowledgementCsvStream,
  readInventoryCsv,
  readInventoryCsvStream,
  readInvoiceCsvStream,
  type CsvInventoryItem,
} from "./read";

/** Yields the text in chunks of `size` bytes, as produced, counting what it has handed out. */
function chunked(parts: Iterable<string>, size: number) {
  const state = { produced: 0 };
  async function* generate() {
    let pending = Buffer.alloc(0);
    for (const part of parts) {
      pending = Buffer.concat([pending, Buffer.from(part, "utf8")]);
      while (pending.length >= size) {
        state.produced += size;
        yield pending.subarray(0, size);
        pending = pending.subarray(size);
      }
    }
    if (pending.length) {
      state.produced += pending.length;
      yield pending;
    }
  }
  return { source: generate(), state };
}

describe("readInventoryCsvStream", () => {
  it("reads 200,000 rows from small chunks, reporting bad rows, with the source read only as fast as rows are handled", async () => {
    const ROWS = 200_000;
    const header = "\uFEFFSKU,Quantity,Available_Date\r\n";
    // Fixed-width rows, so the byte offset where each row ends is known.
    const rowText = (i: number) => `SKU-${String(i).padStart(6, "0")},${i % 25_000 === 7 ? "n/a" : String(i % 1000).padStart(3, "0")},\r\n`;
    const ROW_BYTES = rowText(1).length;
    function* lines() {
      yield header;
      for (let i = 1; i <= ROWS; i++) yield rowText(i);
    }
    const { source, state } = chunked(lines(), 61);

    let count = 0;
    let quantities = 0;
    let furthestAhead = 0;
    let first: CsvInventoryItem | undefined;
    let last: CsvInventoryItem | undefined;
    const summary = await readInventoryCsvStream(source, (item) => {
      count++;
      quantities += item.quantity;
      first ??= item;
      last = item;
      // How far the source has been read beyond the end of this row.
      const rowEnd = Buffer.byteLength(header) + (item.line - 1) * ROW_BYTES;
      furthestAhead = Math.max(furthestAhead, state.produced - rowEnd);
    });

    const bad = ROWS / 25_000;
    expect(summary).toMatchObject({ refused: false, complete: true, rowCount: ROWS - bad, errorCount: bad, lines: ROWS + 1 });
    expect(count).toBe(ROWS - bad);
    expect(first).toEqual({ line: 2, sku: "SKU-000001", quantity: 1, availableDate: null });
    expect(last).toEqual({ line: ROWS + 1, sku: "SKU-200000", quantity: 0, availableDate: null });
    expect(summary.errors[0].message).toBe('line 8, quantity: "n/a" is not a whole number');
    let expectedSum = 0;
    for (let i = 1; i <= ROWS; i++) if (i % 25_000 !== 7) expectedSum += i % 1000;
    expect(quantities).toBe(expectedSum);
    // The whole file is about 3.4 MB; the reader never runs more than a little ahead of the rows.
    expect(state.produced).toBe(Buffer.byteLength(header) + ROWS * ROW_BYTES);
    expect(furthestAhead).toBeLessThan(128 * 1024);
  }, 60_000);

  it("waits for an async onRow before reading on", async () => {
    const text = "sku,quantity\n" + Array.from({ length: 100_000 }, (_, i) => `S${i},${i}\n`).join("");
    const { source, state } = chunked([text], 256);
    const producedAtPause: number[] = [];
    await readInventoryCsvStream(source, async (item) => {
      if (item.line % 20_000 === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        producedAtPause.push(state.produced);
      }
    });
    // After each pause the source has moved on only by what the buffers hold, not to the end.
    expect(producedAtPause).toHaveLength(5);
    for (const [index, produced] of producedAtPause.slice(0, 4).entries()) {
      expect(produced).toBeLessThan(((index + 1) * text.length) / 5 + 64 * 1024);
    }
  });

  it("gives the same rows, lines and errors as the whole-file reader, even split between CR and LF", async () => {
    const text =
      "\uFEFF  sku , QUANTITY ,available date,notes\r\n\r\n" +
      'A-1,5,,"multi\r\nline, with comma"\r\n' +
      "A-2,x,2026-11-21,\r\n" +
      ",,,\r\n" +
      'A-3,7,"12/01/2026",\r\n' +
      "A-4,1";
    const items: CsvInventoryItem[] = [];
    const summary = await readInventoryCsvStream(chunked([text], 1).source, (item) => void items.push(item));
    const whole = readInventoryCsv(text);
    expect(items).toEqual(whole.rows);
    expect(items.map((item) => item.line)).toEqual([3, 7, 8]);
    expect(summary.errors).toEqual(whole.errors);
    expect(summary.errors.map((error) => error.message)).toEqual(['line 5, quantity: "x" is not a whole number']);
    expect(summary.lines).toBe(8);
  });

  it("accepts a Readable and a string source", async () => {
    const text = "sku,quantity\nA,1\nB,2\n";
    const fromReadable: string[] = [];
    await readInventoryCsvStream(Readable.from([Buffer.from(text)]), (item) => void fromReadable.push(item.sku));
    const fromStrings: string[] = [];
    await readInventoryCsvStream(Readable.from(["sku,quan", "tity\nA,1\nB,2\n"]), (item) => void fromStrings.push(item.sku));
    expect(fromReadable).toEqual(["A", "B"]);
    expect(fromStrings).toEqual(["A", "B"]);
  });

  it("refuses a file without its required columns, reading no further", async () => {
    function* lines() {
      yield "item,qty\n";
      for (let i = 0; i < 100_000; i++) yield `S${i},${i}\n`;
    }
    const { source, state } = chunked(lines(), 64);
    let rows = 0;
    const summary = await readInventoryCsvStream(source, () => void rows++);
    expect(rows).toBe(0);
    expect(summary).toMatchObject({ refused: true, complete: false, rowCount: 0, errorCount: 1 });
    expect(summary.errors[0].message).toBe(
      "line 1: not readable as an inventory (846) file: missing required columns sku, quantity (the header row has: item, qty)",
    );
    expect(state.produced).toBeLessThan(100_000);
  });

  it("stops at broken quoting and reports an empty file", async () => {
    const broken = await readInventoryCsvStream(chunked(['sku,quantity\nA,1\n"B,2\nC,3\n'], 4).source, () => {});
    expect(broken).toMatchObject({ complete: false, rowCount: 1 });
    expect(broken.errors.map((error) => error.message)).toEqual(["line 3: a quoted value is never closed; the rest of the file was not read"]);

    // Deep in a file: every row before the break is handed over, none after it.
    const rows = Array.from({ length: 10_000 }, (_, i) => (i === 5000 ? `"S${i}"x,1\r\n` : `S${i},1\r\n`));
    const seen: number[] = [];
    const midway = await readInventoryCsvStream(chunked(["sku,quantity\r\n", ...rows], 37).source, (item) => void seen.push(item.line));
    expect(seen).toHaveLength(5000);
    expect(seen.at(-1)).toBe(5001);
    expect(midway.errors.map((error) => error.message)).toEqual([
      "line 5002: a quoted value is followed by text instead of a comma or the end of the line; the rest of the file was not read",
    ]);

    const brokenHeader = await readInventoryCsvStream(chunked(['"sku,quantity\nA,1\n'], 3).source, () => {});
    expect(brokenHeader).toMatchObject({ refused: true, complete: false, rowCount: 0, errorCount: 1 });

    const empty = await readInventoryCsvStream(chunked(["\r\n\r\n"], 1).source, () => {});
    expect(empty).toMatchObject({ refused: true, rowCount: 0 });
    expect(empty.errors[0].message).toMatch(/^line 1: the file is empty/);
  });

  it("keeps only the first MAX_CSV_ERRORS_KEPT errors but counts them all", async () => {
    const text = "sku,quantity\n" + Array.from({ length: 500 }, (_, i) => `S${i},bad\n`).join("");
    const summary = await readInventoryCsvStream(chunked([text], 100).source, () => {});
    expect(summary.errorCount).toBe(500);
    expect(summary.errors).toHaveLength(MAX_CSV_ERRORS_KEPT);
    expect(summary.errors[0].line).toBe(2);
  });

  it("keeps the first errors of every CSV document and counts the rest, read whole or as a stream (issue 28)", async () => {
    const rows = 50_000;
    const text = "po_number,sku,quantity,status,expected_date,message\n" + "PO1,SKU1,x,bogus,notadate,m\n".repeat(rows);
    const whole = readAcknowledgementCsv(text);
    expect(whole.rows).toEqual([]);
    // Three bad values a row: quantity, status, expected_date.
    expect(whole.errorCount).toBe(3 * rows);
    expect(whole.errors).toHaveLength(MAX_CSV_ERRORS_KEPT);
    expect(whole.errors[0].message).toBe('line 2, quantity: "x" is not a whole number');
    const streamed = await readAcknowledgementCsvStream(chunked([text], 64 * 1024).source, () => {});
    expect(streamed).toMatchObject({ rowCount: 0, errorCount: 3 * rows, refused: false, complete: true });
    expect(streamed.errors).toEqual(whole.errors);

    const invoices = "invoice_number,invoice_date,po_number,sku,quantity,unit_price,invoice_total\n" + "I1,2026-01-01,PO1,S,x,1,1\n".repeat(rows);
    const invoiceRead = await readInvoiceCsvStream(chunked([invoices], 64 * 1024).source);
    expect(invoiceRead.invoices).toEqual([]);
    expect(invoiceRead.errorCount).toBe(rows);
    expect(invoiceRead.errors).toHaveLength(MAX_CSV_ERRORS_KEPT);
  });

  it("gives the event loop turns while it reads", async () => {
    const text = "po_number,sku,quantity,status,expected_date,message\n" + "PO1,SKU1,x,bogus,notadate,m\n".repeat(20_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    // One chunk: without turns given, csv-parse and the row checks would run from start to end in one go.
    await readAcknowledgementCsvStream(chunked([text], text.length).source, () => {});
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  it("passes on a failure of the source or of onRow", async () => {
    async function* failing() {
      yield Buffer.from("sku,quantity\nA,1\n");
      throw new Error("connection reset");
    }
    await expect(readInventoryCsvStream(failing(), () => {})).rejects.toThrow("connection reset");
    await expect(
      readInventoryCsvStream(chunked(["sku,quantity\nA,1\nB,2\n"], 4).source, () => {
        throw new Error("database down");
      }),
    ).rejects.toThrow("database down");
  });
});
