import { describe, expect, it } from "vitest";
import { PathError } from "@edi/transport";
import { as400CopyFolder, insideAs400CopyRoot } from "./copy-folders";

describe("AS400 copy folders (D196)", () => {
  it("puts a vendor's folder inside its set's root", () => {
    expect(as400CopyFolder("846", "ACME")).toBe("/as400/inventory/ACME");
    expect(as400CopyFolder("846", "ACME/stock/")).toBe("/as400/inventory/ACME/stock");
    expect(as400CopyFolder("810", ".")).toBe("/as400/invoices");
  });

  it("refuses absolute paths, '..', empty parts, backslashes and control characters", () => {
    for (const bad of ["/as400/realtime/sales", "/", "..", "../realtime", "a/../../b", "a//b", "./a", "a\\b", "a\u0000b", "a\nb", "x".repeat(201)]) {
      expect(() => as400CopyFolder("846", bad), JSON.stringify(bad)).toThrow(PathError);
    }
  });

  it("tells a stored copy's path inside its root from one outside", () => {
    expect(insideAs400CopyRoot("846", "/as400/inventory/ACME/stock.csv")).toBe(true);
    expect(insideAs400CopyRoot("810", "/as400/invoices/810_1.edi")).toBe(true);
    for (const [set, path] of [
      ["846", "/as400/realtime/sales/SALES.csv"],
      ["846", "/as400/invoices/x.csv"],
      ["846", "/as400/inventory/../realtime/sales/x.csv"],
      ["846", "/as400/inventoryX/x.csv"],
      ["850", "/as400/inventory/x.csv"],
      ["846", null],
    ] as const) {
      expect(insideAs400CopyRoot(set, path), `${set} ${path}`).toBe(false);
    }
  });
});
