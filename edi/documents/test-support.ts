// For the document tests: one transaction set written into an interchange with
// the given delimiters and read back, as the round trips need it.
import { expect } from "vitest";
import type { Delimiters } from "../x12/isa";
import { readX12 } from "../x12/reader";
import { writeInterchange, type TransactionData } from "../x12/writer";
import { viewTransaction } from "./types";

export function writeAndReadSet(transaction: TransactionData, delimiters: Delimiters, functionalId: string) {
  const { text, replaced } = writeInterchange({
    delimiters,
    sender: { qualifier: "ZZ", id: "VENDOR" },
    receiver: { qualifier: "ZZ", id: "MERCHANT" },
    date: "240501",
    time: "1200",
    controlNumber: 42,
    groups: [{ functionalId, sender: "VENDOR", receiver: "MERCHANT", date: "20240501", time: "1200", controlNumber: "42", transactions: [transaction] }],
  });
  const result = readX12(text);
  expect(result.faults).toEqual([]);
  const set = result.interchanges[0].groups[0].transactions[0];
  return { text, replaced, result, transaction: set, view: viewTransaction(result, set) };
}
