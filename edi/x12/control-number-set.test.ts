import { describe, expect, it } from "vitest";
import { ControlNumberSet } from "./control-number-set";

describe("ControlNumberSet (D216)", () => {
  it("finds a repeat among rising numbers, out-of-order ones and text", () => {
    const seen = new ControlNumberSet(false);
    expect(["0001", "0002", "0005", "0003", "A001", "0004"].map((value) => seen.repeat(value))).toEqual([false, false, false, false, false, false]);
    expect(["0002", "0003", "0005", "A001", "0004"].map((value) => seen.repeat(value))).toEqual([true, true, true, true, true]);
    expect(seen.repeat("0006")).toBe(false);
  });

  it("compares ST02 (AN) as written and GS06 (N0) as a number", () => {
    const sets = new ControlNumberSet(false);
    sets.repeat("0001");
    expect(sets.repeat("00001")).toBe(false);
    const groups = new ControlNumberSet(true);
    groups.repeat("7");
    expect(groups.repeat("0007")).toBe(true);
  });

  it("forgets everything when cleared (a new group or interchange)", () => {
    const seen = new ControlNumberSet(false);
    seen.repeat("0001");
    seen.clear();
    expect(seen.repeat("0001")).toBe(false);
  });
});
