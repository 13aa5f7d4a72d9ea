import { describe, expect, it } from "vitest";
import { checkInvoiceLine, checkStatus } from "./invoice-checks.server";

const vendor = { id: 7, use_cost: 1, invoice_tolerance_percent: 5 };
const request = { request_id: 31, item_sku: "SKU-1", unit_cost: 20, status: "shipped" };
const line = { invoiceNumber: "INV-1", poNumber: "PO-1", lineNumber: "1", sku: "SKU-1", quantity: 2, unitCost: 20.5 };

describe("an invoice line's check row (D242)", () => {
  it("holds both sides' figures, and the charges beside them without making a mismatch", () => {
    expect(checkInvoiceLine({ ...line, lineCharges: 12.5, invoiceCharges: -3 }, request, 2, vendor, 900)).toEqual({
      vendor_id: 7,
      transmission_id: 900,
      invoice_number: "INV-1",
      po_number: "PO-1",
      request_id: 31,
      line_number: "1",
      sku: "SKU-1",
      sku_ordered: "SKU-1",
      qty_invoiced: 2,
      qty_shipped: 2,
      unit_cost_invoiced: 20.5,
      unit_cost_ordered: 20,
      line_charges: 12.5,
      invoice_charges: -3,
      problems: [],
      status: "matched",
    });
  });

  it("is a mismatch on what differs, with the figures kept", () => {
    const row = checkInvoiceLine({ ...line, quantity: 3, unitCost: 21.01 }, request, 2, vendor, 900);
    expect([row.problems, row.status, row.qty_shipped, row.unit_cost_ordered]).toEqual([["quantity", "cost"], "mismatch", 2, 20]);
  });

  it("names no request for a PO the vendor does not have", () => {
    const row = checkInvoiceLine(line, null, null, vendor, 900);
    expect([row.problems, row.status, row.request_id, row.sku_ordered, row.qty_shipped]).toEqual([["unknown_po"], "mismatch", null, null, null]);
  });

  it("waits when the only problem is a shipment that has not come yet", () => {
    expect(checkStatus(["quantity"], { status: "acknowledged" })).toBe("waiting");
    expect(checkStatus(["quantity"], { status: "shipped" })).toBe("mismatch");
    expect(checkStatus(["quantity", "sku"], { status: "sent" })).toBe("mismatch");
    expect(checkStatus([], { status: "sent" })).toBe("matched");
  });
});
