import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { availableQuantity, build846, generate846, inventoryRecords, parse846, readInventoryStream, type InventoryAdvice, type InventoryRecord } from "./846";
import { viewTransaction } from "./types";
import { expectEverySetMapped, expectRoundTrips } from "./test-support";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";

const CORPUS = EDI_CORPUS;
const AT = new Date("2024-05-01T12:00:00Z");

/** Every record of every 846 set, read whole. */
function wholeFile(text: string): InventoryRecord[] {
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  return result.interchanges.flatMap((interchange) =>
    interchange.groups.flatMap((group) =>
      group.transactions.flatMap((transaction) => {
        const parsed = parse846(viewTransaction(result, transaction));
        expect(parsed.faults).toEqual([]);
        expect(parsed.warnings).toEqual([]);
        return parsed.document.records;
      }),
    ),
  );
}

/** The text as Buffers of `size` bytes, the way a socket or file stream would hand it over. */
async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function streamed(source: Readable | AsyncIterable<Buffer>) {
  const records: InventoryRecord[] = [];
  const result = await readInventoryStream(source, (record) => void records.push(record));
  return { records, result };
}

describe("generate846", () => {
  it("writes a valid interchange: sets of linesPerTransaction, SCH every tenth line, correct counts", () => {
    const text = generate846(25, { linesPerTransaction: 10, date: AT });
    const result = readX12(text);
    expect(result.ok).toBe(true);
    expect(result.interchanges[0].groups[0]).toMatchObject({ functionalId: "IB", transactions: [{ setId: "846" }, { setId: "846" }, { setId: "846" }] });
    const first = parse846(viewTransaction(result, result.interchanges[0].groups[0].transactions[0]));
    expect(first.document).toMatchObject({ purpose: "00", reportType: "DD", reference: "INV1", date: "2024-05-01", totals: { lineCount: 10 } });
    expect(first.document.records[0]).toEqual({
      lineNumber: "1",
      skus: { SK: "SKU-0000001", UP: "000000000001" },
      sku: "SKU-0000001",
      quantity: 419,
      quantityQualifier: "33",
      uom: "EA",
    });
    expect(first.document.records[9]).toEqual({
      lineNumber: "10",
      skus: { SK: "SKU-0000010", UP: "000000000010" },
      sku: "SKU-0000010",
      quantity: 190,
      quantityQualifier: "33",
      uom: "EA",
      scheduledQuantity: 290,
      dateQualifier: "018",
      date: "2024-05-15",
    });
    expect(wholeFile(text)).toHaveLength(25);
  });

  it("yields chunks that join to the same text, with other delimiters and line breaks", () => {
    const options = { date: AT, delimiters: { element: "|", segment: "~", component: "^" }, lineBreak: "\n" };
    const whole = generate846(2000, options);
    expect([...generate846(2000, { ...options, chunkSize: 4096 })].join("")).toBe(whole);
    expect(wholeFile(whole)).toHaveLength(2000);
  });

  it("generates 50 MB quickly", () => {
    const started = Date.now();
    let length = 0;
    for (const chunk of generate846(900_000, { date: AT, chunkSize: 1 << 16 })) length += chunk.length;
    expect(length).toBeGreaterThan(50_000_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuses a SKU prefix holding a delimiter", () => {
    expect(() => generate846(1, { skuPrefix: "A*B" })).toThrow(/delimiter/);
  });
});

describe("readInventoryStream", () => {
  it("gives the same records with 1-byte chunks as the whole-file read", async () => {
    const text = generate846(120, { linesPerTransaction: 50, date: AT });
    const { records, result } = await streamed(chunks(text, 1));
    expect(result.envelope.ok).toBe(true);
    expect(result.faults).toEqual([]);
    expect(result.records).toBe(120);
    expect(records).toEqual(wholeFile(text));
    expect(result.headers.map((header) => [header.controlNumber, header.reference])).toEqual([
      ["0001", "INV1"],
      ["0002", "INV2"],
      ["0003", "INV3"],
    ]);
  });

  it("gives the same records with 64 KB chunks from a Readable", async () => {
    const text = generate846(30_000, { date: AT });
    const { records, result } = await streamed(Readable.from(chunks(text, 64 * 1024)));
    expect(result.envelope).toMatchObject({ ok: true, bytes: Buffer.byteLength(text) });
    expect(records).toHaveLength(30_000);
    expect(records).toEqual(wholeFile(text));
    expect(records[29_999]).toMatchObject({ sku: "SKU-0030000", date: "2024-05-15" });
  });

  it("streams a 50 MB file without holding it: heap growth stays well under the file's size", async () => {
    // What is held, not garbage awaiting a collection: collect before each sample.
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const liveHeap = () => (collect(), process.memoryUsage().heapUsed);
    const before = liveHeap();
    let peak = before;
    let count = 0;
    const result = await readInventoryStream(Readable.from(generate846(900_000, { date: AT, chunkSize: 1 << 16 })), () => {
      if (++count % 25_000 === 0) peak = Math.max(peak, liveHeap());
    });
    expect(result.envelope.ok).toBe(true);
    expect(result.records).toBe(900_000);
    expect(result.envelope.bytes).toBeGreaterThan(50_000_000);
    // Holding the text would cost twice its size (UTF-16), holding the records several times more.
    expect(peak - before).toBeLessThan(result.envelope.bytes);
  });

  it("passes the set's header and control number with each record, and reads past other sets", async () => {
    const po = readFileSync(`${CORPUS}/850/node-x12__850.edi`, "utf8");
    const seen: string[] = [];
    const result = await readInventoryStream(chunks(po + generate846(3, { date: AT }), 100), (record, context) => {
      seen.push(`${context.controlNumber} ${context.header.reference} ${record.sku} @${context.segmentIndex}`);
    });
    expect(result.envelope.ok).toBe(true);
    expect(seen).toEqual(["0001 INV1 SKU-0000001 @42", "0001 INV1 SKU-0000002 @44", "0001 INV1 SKU-0000003 @46"]);
  });

  it("lists at most 1000 content problems, then says how many more", async () => {
    const text = generate846(1500, { date: AT }).replace(/QTY\*33\*(\d+)/g, "QTY*33*$1X");
    const { records, result } = await streamed(chunks(text, 64 * 1024));
    expect(records).toHaveLength(1500);
    expect(records[0].quantity).toBeUndefined();
    // A quantity of the wrong form is a warning: the other records still count.
    expect(result.faults).toEqual([]);
    expect(result.warnings).toHaveLength(1001);
    expect(result.warnings[0]).toMatchObject({
      level: "element",
      segmentId: "QTY",
      element: 2,
      segmentIndex: 6,
      positionInTransaction: 4,
      ack: { segment: "AK4", code: "6" },
      interchange: 0,
      group: 0,
      transaction: 0,
    });
    expect(result.warnings.at(-1)?.message).toBe("500 more faults and warnings were found and not listed");
  });

  it("awaits a slow consumer", async () => {
    let active = 0;
    let overlapped = false;
    await readInventoryStream(chunks(generate846(20, { date: AT }), 64), async () => {
      active++;
      if (active > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 1));
      active--;
    });
    expect(overlapped).toBe(false);
  });
});

describe("inventoryRecords (async iterator)", () => {
  it("iterates every record and returns the summary", async () => {
    const text = generate846(3000, { date: AT });
    const iterator = inventoryRecords(chunks(text, 8192));
    const records: InventoryRecord[] = [];
    let step = await iterator.next();
    while (!step.done) {
      records.push(step.value);
      step = await iterator.next();
    }
    expect(records).toEqual(wholeFile(text));
    expect(step.value).toMatchObject({ records: 3000, faults: [] });
  });

  it("stops reading the source when the loop is left early", async () => {
    let pulled = 0;
    async function* source() {
      for await (const chunk of chunks(generate846(50_000, { date: AT }), 1024)) {
        pulled++;
        yield chunk;
      }
    }
    const skus: (string | undefined)[] = [];
    for await (const record of inventoryRecords(source())) {
      skus.push(record.sku);
      if (skus.length === 5) break;
    }
    expect(skus).toEqual(["SKU-0000001", "SKU-0000002", "SKU-0000003", "SKU-0000004", "SKU-0000005"]);
    expect(pulled).toBeLessThan(200); // of about 2,900
  });
});

describe("build846", () => {
  const advice: InventoryAdvice = {
    purpose: "00",
    reportType: "MM",
    reference: "FEED-7",
    date: "2024-05-01",
    time: "12:00",
    records: [
      {
        lineNumber: "1",
        skus: { SK: "TSHIRT", VP: "AC-100" },
        sku: "TSHIRT",
        vendorSku: "AC-100",
        quantity: 12,
        quantityQualifier: "33",
        uom: "EA",
        description: "T-shirt",
      },
      {
        skus: { SK: "MUG" },
        sku: "MUG",
        quantity: 0,
        quantityQualifier: "33",
        uom: "EA",
        otherQuantities: [{ qualifier: "17", quantity: 4, uom: "EA" }],
        scheduledQuantity: 100,
        dateQualifier: "018",
        date: "2024-06-01",
      },
      { skus: { UP: "012345678905" }, sku: "012345678905", quantity: 3.5, quantityQualifier: "17", uom: "CA", dateQualifier: "169", date: "2024-05-02" },
    ],
    totals: { lineCount: 3 },
  };

  it("round-trips through writeInterchange and readX12", () => {
    expectRoundTrips(build846(advice, "0001"), "IB", parse846, advice);
  });

  it("picks the quantity available for sale over the quantity on hand", () => {
    expect(advice.records.map(availableQuantity)).toEqual([12, 0, 3.5]);
    expect(availableQuantity({ skus: {}, quantity: 4, quantityQualifier: "17", otherQuantities: [{ qualifier: "33", quantity: 2 }] })).toBe(2);
  });
});

describe("846 corpus files", () => {
  it("maps every 846 of every file in 846/ (none in the corpus yet)", () => {
    expectEverySetMapped("846", { mayBeMissing: true });
  });
});
