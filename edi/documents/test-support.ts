// For the document tests: one transaction set written into an interchange with
// the given delimiters and read back, as the round trips need it; the corpus
// files' sets, mapped.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { expect } from "vitest";
import type { Delimiters } from "../x12/isa";
import { readX12 } from "../x12/reader";
import { writeInterchange, type TransactionData } from "../x12/writer";
import { oneGroupInterchange } from "../../tests/support/x12-interchange";
import { mapTransactions, type MappedDocument } from "./index";
import { viewTransaction, type Parsed, type TransactionView } from "./types";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";

export function writeAndReadSet(transaction: TransactionData, delimiters: Delimiters, functionalId: string) {
  const { text, replaced } = writeInterchange(
    oneGroupInterchange({
      delimiters,
      sender: "VENDOR",
      receiver: "MERCHANT",
      date: "240501",
      time: "1200",
      controlNumber: 42,
      functionalId,
      transactions: [transaction],
    }),
  );
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  const set = result.interchanges[0].groups[0].transactions[0];
  return { text, replaced, result, transaction: set, view: viewTransaction(result, set) };
}

/**
 * The delimiter sets (element, segment, component) the documents' round trips write
 * with: the usual ones, CR LF and newline terminators, a multi-byte terminator (the
 * ellipsis of X12Parser's Example3), the separators swapped, and control characters.
 */
export const ROUND_TRIP_DELIMITERS: Delimiters[] = (
  [
    ["*", "~", ">"],
    ["*", "\r\n", ">"],
    ["|", "'", ":"],
    ["|", "\n", "^"],
    ["^", "\r\n", ":"],
    ["~", "*", ":"],
    ["~", "*", "`"],
    ["~", "}", ">"],
    ["*", "\u2026", ":"],
    ["\u001d", "\u001c", "\u001f"],
  ] as const
).map(([element, segment, component]) => ({ element, segment, component }));

/**
 * The transaction set, written with each of the delimiter sets, read back and parsed, is
 * `expected` again, with no faults and no warnings (and the writer had no delimiter to
 * replace in a value).
 */
export function expectRoundTrips<T>(transaction: TransactionData, functionalId: string, parse: (view: TransactionView) => Parsed<T>, expected: T) {
  for (const delimiters of ROUND_TRIP_DELIMITERS) {
    const { replaced, view } = writeAndReadSet(transaction, delimiters, functionalId);
    const parsed = parse(view);
    const written = JSON.stringify(delimiters);
    expect(replaced, written).toEqual([]);
    expect(parsed.faults, written).toEqual([]);
    expect(parsed.warnings, written).toEqual([]);
    expect(parsed.document, written).toEqual(expected);
  }
}

/** The document of a parse that found nothing wrong in it: no faults and no warnings. */
export function cleanDocument<T>(parsed: Parsed<T>): T {
  expect(parsed.faults).toEqual([]);
  expect(parsed.warnings).toEqual([]);
  return parsed.document;
}

type SetId = MappedDocument["type"];

/** Every transaction set of a corpus file (a path below the corpus), read tolerantly and mapped. */
export function corpusSets(path: string) {
  return mapTransactions(readX12(readFileSync(`${EDI_CORPUS}/${path}`), { mode: "tolerant" }));
}

/** The mapped documents of one type in a corpus file. */
export function corpusDocuments<T extends SetId>(path: string, setId: T): Extract<MappedDocument, { type: T }>[] {
  return corpusSets(path).flatMap((each) => (each.mapped?.type === setId ? [each.mapped as Extract<MappedDocument, { type: T }>] : []));
}

/**
 * Every set of this type, in every file of the corpus folder named after it, is mapped
 * (none throws, none is left unmapped). The folder must exist unless `mayBeMissing`.
 */
export function expectEverySetMapped(setId: SetId, { mayBeMissing = false } = {}) {
  const folder = `${EDI_CORPUS}/${setId}`;
  const files = mayBeMissing && !existsSync(folder) ? [] : readdirSync(folder);
  for (const file of files) {
    for (const located of corpusSets(`${setId}/${file}`)) if (located.setId === setId) expect(located.mapped?.type, file).toBe(setId);
  }
}
