import { describe, expect, it } from "vitest";
import { acmeVendorFields } from "../tests/support/edi-samples";
import {
  cancellationAnswerFrom855,
  cancellationAnswersFrom865,
  cancellationInterchange,
  cancellationsInFile,
  writeCancellationCsv,
  type CancellationOrder,
} from "./cancellations";
import { readCancellationAnswerCsv } from "./csv/read";
import { CsvWriteError, writeCancellationAnswerCsv } from "./csv/write";
import { mapTransactions } from "./documents";
import { build865 } from "./documents/865";
import { writeAndReadSet } from "./documents/test-support";
import type { InterchangeNumbers } from "./purchase-orders";
import { tradingProfile } from "./vendor-profile";
import { readX12 } from "./x12/reader";

const NOW = new Date("2026-11-27T09:30:00Z");
const profile = tradingProfile(acmeVendorFields({}), { qualifier: "ZZ", id: "HOUSEROPS" }).profile;
const NUMBERS: InterchangeNumbers = { interchange: "000000041", groups: [{ group: "42", transactions: ["0043"] }] };
const shipTo = { name: "Pat Doe", address1: "1 Main St", city: "Springfield", state: "IL", zip: "62701", country: "US" };

const partial: CancellationOrder = {
  poNumber: "PO-1001",
  orderNumber: "1001",
  poDate: new Date("2026-11-21T12:00:00Z"),
  changeNumber: 1,
  changeDate: NOW,
  reason: "Order cancelled by the customer",
  wholeOrder: false,
  shipTo,
  lines: [
    { lineNumber: 1, sku: "SKU-A", ordered: 2, cancelled: 2 },
    { lineNumber: 2, sku: "SKU-B", ordered: 5, cancelled: 2, unitPrice: 12.5 },
  ],
};
const whole: CancellationOrder = { ...partial, wholeOrder: true, shipTo: undefined, lines: [{ lineNumber: 1, sku: "SKU-A", ordered: 2, cancelled: 2 }] };

const groupOf = (text: string) => readX12(text).interchanges[0].groups[0];

describe("cancellationInterchange", () => {
  it("860: group PC, one set per order, read back by cancellationsInFile", () => {
    const text = cancellationInterchange(profile, "860", [partial], NUMBERS, NOW);
    expect(groupOf(text).functionalId).toBe("PC");
    expect(cancellationsInFile(Buffer.from(text), "860")).toEqual([
      {
        poNumber: "PO-1001",
        changeNumber: 1,
        wholeOrder: false,
        poDate: "2026-11-21",
        lines: [
          { lineNumber: "1", sku: "SKU-A", ordered: 2, cancelled: 2, remaining: 0 },
          { lineNumber: "2", sku: "SKU-B", remaining: 3 },
        ],
      },
    ]);
  });

  it("850: a partial cancellation replaces the PO (BEG01 05) with what remains, lines cancelled in full left out", () => {
    const text = cancellationInterchange(profile, "850", [partial], NUMBERS, NOW);
    expect(groupOf(text).functionalId).toBe("PO");
    const [located] = mapTransactions(readX12(text));
    expect(located.mapped?.type === "850" && [located.mapped.document.purpose, located.mapped.document.lines.map((line) => [line.sku, line.quantity])]).toEqual(
      ["05", [["SKU-B", 3]]],
    );
    expect(cancellationsInFile(Buffer.from(text), "850")).toEqual([
      { poNumber: "PO-1001", wholeOrder: false, poDate: "2026-11-21", lines: [{ lineNumber: "2", sku: "SKU-B", remaining: 3 }] },
    ]);
  });

  it("850: a whole cancellation is BEG01 01 with the lines at their ordered quantity, no ship-to needed", () => {
    const text = cancellationInterchange(profile, "850", [whole], NUMBERS, NOW);
    expect(cancellationsInFile(Buffer.from(text), "850")).toEqual([
      {
        poNumber: "PO-1001",
        wholeOrder: true,
        poDate: "2026-11-21",
        lines: [{ lineNumber: "1", sku: "SKU-A", ordered: 2, cancelled: 2, remaining: 0 }],
      },
    ]);
    expect(() => cancellationInterchange(profile, "850", [{ ...partial, shipTo: undefined }], NUMBERS, NOW)).toThrow("needs its ship-to");
  });
});

describe("cancellation CSV", () => {
  it("writes a row per cancelled line and reads back", () => {
    const { text } = writeCancellationCsv([partial]);
    expect(text.split("\r\n")[2]).toBe("PO-1001,1001,SKU-B,2,5,2,3,1,2026-11-27,Order cancelled by the customer");
    expect(cancellationsInFile(Buffer.from(text), "csv")).toEqual([
      {
        poNumber: "PO-1001",
        changeNumber: 1,
        wholeOrder: false,
        lines: [
          { lineNumber: "1", sku: "SKU-A", ordered: 2, cancelled: 2, remaining: 0 },
          { lineNumber: "2", sku: "SKU-B", ordered: 5, cancelled: 2, remaining: 3 },
        ],
      },
    ]);
  });

  it("throws CsvWriteError on what cannot be a cancellation", () => {
    expect(() => writeCancellationCsv([{ ...partial, lines: [{ lineNumber: 1, sku: "", ordered: 2, cancelled: 3 }] }])).toThrow(CsvWriteError);
  });

  it("the answer CSV: grouped by PO, refused when any row is, status in any case", () => {
    const { text } = writeCancellationAnswerCsv([
      {
        poNumber: "PO-1001",
        outcome: "refused",
        codes: [],
        lines: [
          { sku: "SKU-A", quantity: 2, outcome: "accepted" },
          { sku: "SKU-B", outcome: "refused", reason: "Shipped" },
        ],
      },
    ]);
    expect(readCancellationAnswerCsv(Buffer.from(text)).answers).toEqual([
      {
        poNumber: "PO-1001",
        outcome: "refused",
        lines: [
          { sku: "SKU-A", quantity: 2, outcome: "accepted" },
          { sku: "SKU-B", outcome: "refused", reason: "Shipped" },
        ],
        codes: ["accepted", "refused"],
        reason: "Shipped",
      },
    ]);
    const bad = readCancellationAnswerCsv(Buffer.from("po_number,sku,cancel_status\nPO-1,A,ACCEPTED\nPO-2,B,maybe\n"));
    expect(bad.answers.map((answer) => answer.poNumber)).toEqual(["PO-1"]);
    expect(bad.errors[0].message).toBe('line 3, cancel_status: "maybe" is not a status (use accepted, refused)');
  });
});

describe("answers", () => {
  const ackOf = (transaction: ReturnType<typeof build865>) => {
    const { result } = writeAndReadSet(transaction, { element: "*", segment: "~", component: ">" }, "CA");
    return mapTransactions(result)[0].mapped;
  };

  it("865: ID accepts a line, IR refuses it, and the answer is refused when any line is", () => {
    const mapped = ackOf(
      build865(
        {
          poNumber: "PO-1001",
          changeNumber: "1",
          poDate: "2026-11-21",
          lines: [
            { lineNumber: "1", quantity: 2, sku: "SKU-A" },
            { lineNumber: "2", changeType: "QD", quantity: 3, sku: "SKU-B", acks: [{ code: "IR", quantity: 2 }] },
          ],
        },
        "0001",
      ),
    );
    expect(mapped?.type).toBe("865");
    if (mapped?.type !== "865") return;
    expect(cancellationAnswersFrom865(mapped.document)).toEqual([
      {
        poNumber: "PO-1001",
        changeNumber: 1,
        outcome: "refused",
        lines: [
          { lineNumber: "1", sku: "SKU-A", quantity: 2, outcome: "accepted", code: "ID" },
          { lineNumber: "2", sku: "SKU-B", quantity: 2, outcome: "refused", code: "IR" },
        ],
        codes: ["AT", "ID", "IR"],
      },
    ]);
  });

  it("855: only one answering a change; AT with no lines accepts, RJ refuses", () => {
    const base = { status: "accepted" as const, poNumber: "PO-1001", references: [], parties: [], lines: [] };
    expect(cancellationAnswerFrom855({ ...base, purpose: "00", ackType: "AD" })).toBeNull();
    expect(cancellationAnswerFrom855({ ...base, purpose: "01", ackType: "AT" })).toEqual({
      poNumber: "PO-1001",
      outcome: "accepted",
      lines: [],
      codes: ["AT"],
    });
    expect(cancellationAnswerFrom855({ ...base, purpose: "04", ackType: "RJ", status: "rejected" })?.outcome).toBe("refused");
  });
});
