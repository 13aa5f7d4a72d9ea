import { describe, expect, it } from "vitest";
import { csvUnitCost, invoiceProblems, netCharges } from "./invoice-checks";

const ordered = { sku: "SKU-1", qtyShipped: 2, unitCost: 10 };
const billsCost = { use_cost: 1, invoice_tolerance_percent: 2 };

describe("an 810 line against its PO (D242)", () => {
  it("matches when the SKU, a quantity no more than shipped and the cost within tolerance agree", () => {
    expect(invoiceProblems({ sku: "sku-1 ", quantity: 2, unitCost: 10.2 }, ordered, billsCost)).toEqual([]);
    expect(invoiceProblems({ quantity: 1, unitCost: 9.8 }, ordered, billsCost)).toEqual([]);
  });

  it("names each difference", () => {
    expect(invoiceProblems({ sku: "SKU-2", quantity: 3, unitCost: 10.21 }, ordered, billsCost)).toEqual(["sku", "quantity", "cost"]);
    expect(invoiceProblems({ sku: "SKU-1", quantity: 2 }, null, billsCost)).toEqual(["unknown_po"]);
  });

  it("leaves the cost alone for a vendor that does not bill its cost, or a PO sent without one", () => {
    expect(invoiceProblems({ quantity: 2, unitCost: 99 }, ordered, { use_cost: 0, invoice_tolerance_percent: 0 })).toEqual([]);
    expect(invoiceProblems({ quantity: 2, unitCost: 99 }, { ...ordered, unitCost: null }, billsCost)).toEqual([]);
  });

  it("lets half a cent pass with no tolerance at all", () => {
    const exact = { use_cost: 1, invoice_tolerance_percent: 0 };
    expect(invoiceProblems({ unitCost: 10.004 }, ordered, exact)).toEqual([]);
    expect(invoiceProblems({ unitCost: 10.01 }, ordered, exact)).toEqual(["cost"]);
  });

  it("keeps charges apart: charges less allowances, in money", () => {
    expect(
      netCharges([
        { type: "charge", amountCents: 750 },
        { type: "allowance", amountCents: 125 },
        { type: "none", amountCents: 99 },
      ]),
    ).toBe(6.25);
    expect(netCharges([])).toBeNull();
  });

  it("takes a CSV row's unit cost from its total over its quantity, else its unit price", () => {
    expect(csvUnitCost({ quantity: 2, unitPrice: 10, lineTotal: 25 })).toBe(12.5);
    expect(csvUnitCost({ quantity: 3, unitPrice: 10.333, lineTotal: 31 })).toBe(10.3333);
    expect(csvUnitCost({ quantity: 0, unitPrice: 10, lineTotal: 0 })).toBe(10);
    expect(csvUnitCost({ quantity: 2, unitPrice: 10, lineTotal: null })).toBe(10);
    expect(csvUnitCost({ quantity: 2 })).toBeNull();
  });
});
