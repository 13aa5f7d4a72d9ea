import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readX12 } from "../x12/reader";
import { mapTransaction, mapTransactions } from "./index";
import { components, decimal, isoDate, repetitions, transactionSegments, viewTransaction } from "./types";
import { EDI_CORPUS } from "../../tests/support/edi-corpus";

const CORPUS = EDI_CORPUS;
const read = (path: string) => readX12(readFileSync(`${CORPUS}/${path}`), { mode: "tolerant" });

describe("mapTransaction", () => {
  it("dispatches on ST01 and locates every set of a multi-group file", () => {
    const located = mapTransactions(read("mixed/staedi__invoice810_po850_dual.edi"));
    expect(located.map((each) => [each.interchange, each.group, each.transaction, each.setId, each.controlNumber, each.mapped?.type])).toEqual([
      [0, 0, 0, "810", "000000001", "810"],
      [0, 0, 1, "810", "000000002", "810"],
      [0, 1, 0, "850", "000191240", "850"],
    ]);
  });

  it("returns null for a set it has no mapper for", () => {
    const result = read("999/staedi__simple999.edi");
    expect(mapTransaction(result, result.interchanges[0].groups[0].transactions[0])).toBeNull();
  });
});

describe("document helpers", () => {
  it("takes one set's segments out of a read file, ST to SE, with positions", () => {
    const result = read("855/staedi__multi-tx-transaction-type.edi");
    const second = result.interchanges[0].groups[0].transactions[1];
    expect(transactionSegments(result.segments, second)).toEqual([
      ["ST", "855", "0002"],
      ["BAK", "54", "AC", "ORDER2", "20260127"],
      ["SE", "3", "0002"],
    ]);
    const view = viewTransaction(result, second);
    expect(view).toMatchObject({ setId: "855", controlNumber: "0002", version: "004010", location: { interchange: 0, group: 0, transaction: 1 } });
    expect(view.segments.map((segment) => [segment.id, segment.index, segment.position])).toEqual([
      ["ST", 5, 1],
      ["BAK", 6, 2],
      ["SE", 7, 3],
    ]);
    expect(view.delimiters.component).toBe("^");
  });

  it("splits components and repetitions with the interchange's delimiters", () => {
    const delimiters = { element: "*", segment: "~", component: ":", repetition: "^" };
    expect(components("2:1", delimiters)).toEqual(["2", "1"]);
    expect(repetitions("A^B:C", delimiters)).toEqual(["A", "B:C"]);
    expect(repetitions("A^B", { ...delimiters, repetition: undefined })).toEqual(["A^B"]);
    expect(components(undefined, delimiters)).toEqual([]);
  });

  it("reads X12 dates (CCYYMMDD, and YYMMDD of old versions) and writes decimals without float noise", () => {
    expect([isoDate("20240229"), isoDate("20230229"), isoDate("040317"), isoDate("991231"), isoDate("2024-01-01")]).toEqual([
      "2024-02-29",
      undefined,
      "2004-03-17",
      "1999-12-31",
      undefined,
    ]);
    expect([decimal(0.1 + 0.2), decimal(9.5), decimal(100), decimal(-0), decimal(undefined)]).toEqual(["0.3", "9.5", "100", "0", undefined]);
  });
});
