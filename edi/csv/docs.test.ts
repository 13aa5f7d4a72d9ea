// docs/edi-csv.md is what vendors are given: its tables and example files must
// match headers.ts, and the examples must read without errors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CSV_DOCUMENTS, headerLine, type CsvDocumentType } from "./headers";
import {
  readAcknowledgementCsv,
  readCancellationAnswerCsv,
  readCancellationCsv,
  readInventoryCsv,
  readInvoiceCsv,
  readPurchaseOrderCsv,
  readShipNoticeCsv,
  type CsvReadResult,
} from "./read";
import { recogniseCsvFile } from "./recognise";

const doc = readFileSync(new URL("../../docs/edi-csv.md", import.meta.url), "utf8");

function section(type: CsvDocumentType): string {
  const start = doc.indexOf(`<!-- document ${type} -->`);
  expect(start, `marker for ${type}`).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start);
  return doc.slice(start, end === -1 ? undefined : end);
}

const readers: Record<CsvDocumentType, (text: string) => CsvReadResult<unknown>> = {
  "850": readPurchaseOrderCsv,
  "855": readAcknowledgementCsv,
  "856": readShipNoticeCsv,
  "846": readInventoryCsv,
  "810": readInvoiceCsv,
  cancel: readCancellationCsv,
  cancel_answer: readCancellationAnswerCsv,
};

describe("docs/edi-csv.md", () => {
  for (const type of Object.keys(CSV_DOCUMENTS) as CsvDocumentType[]) {
    it(`documents the ${type} columns as headers.ts defines them`, () => {
      const rows = section(type)
        .split("\n")
        .filter((line) => /^\| [a-z0-9_]+ \| (yes|no) \|/.test(line))
        .map((line) =>
          line
            .split("|")
            .slice(1, -1)
            .map((cell) => cell.trim()),
        );
      expect(rows).toEqual(CSV_DOCUMENTS[type].columns.map((column) => [column.name, column.required ? "yes" : "no", column.kind, column.description]));
    });

    it(`gives a ${type} example that reads without errors`, () => {
      const example = /```csv\n([\s\S]*?)```/.exec(section(type))?.[1];
      expect(example).toBeDefined();
      expect(example!.split("\n")[0]).toBe(headerLine(type));
      const result = readers[type](example!);
      expect(result.errors).toEqual([]);
      expect(result.rows.length).toBeGreaterThan(0);
      if (CSV_DOCUMENTS[type].direction === "in") expect(recogniseCsvFile("example.csv", example!, {}).type).toBe(type);
    });
  }
});
