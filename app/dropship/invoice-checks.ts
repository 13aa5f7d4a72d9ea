// An 810 line against its PO line (issue 30 item 4, D242): the SKU, the
// quantity invoiced against what the vendor shipped, and, for a vendor that
// bills its cost (use_cost), the unit cost against the PO's within the vendor's
// tolerance. SAC charges and allowances are kept beside, never a mismatch by
// themselves. Pure: the apply step gathers the figures, this says what is off.

export type InvoiceProblem = "unknown_po" | "sku" | "quantity" | "cost";

export interface InvoicedLine {
  sku?: string | null;
  quantity?: number | null;
  unitCost?: number | null;
}

export interface OrderedLine {
  sku: string;
  /** What the vendor's 856s shipped of the PO so far. */
  qtyShipped: number;
  /** The PO's unit cost (dropship_request.unit_cost), when we sent one. */
  unitCost: number | null;
}

export interface VendorBilling {
  use_cost: number;
  invoice_tolerance_percent: number;
}

const sameSku = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/** What does not match, in the order staff read it; empty when the line matches its PO. */
export function invoiceProblems(line: InvoicedLine, ordered: OrderedLine | null, vendor: VendorBilling): InvoiceProblem[] {
  if (!ordered) return ["unknown_po"];
  const problems: InvoiceProblem[] = [];
  if (line.sku && !sameSku(line.sku, ordered.sku)) problems.push("sku");
  // Billing less than shipped is a partial invoice; billing more than shipped is paying for goods not sent.
  if (line.quantity !== null && line.quantity !== undefined && line.quantity > ordered.qtyShipped) problems.push("quantity");
  if (vendor.use_cost === 1 && line.unitCost !== null && line.unitCost !== undefined && ordered.unitCost !== null) {
    // Half a cent always passes: a cost the vendor rounds is not a mismatch.
    const allowed = (ordered.unitCost * vendor.invoice_tolerance_percent) / 100 + 0.005;
    if (Math.abs(line.unitCost - ordered.unitCost) > allowed) problems.push("cost");
  }
  return problems;
}

/** SAC charges less allowances, in money (cents in, dollars out); null when there are none. */
export function netCharges(charges: Array<{ type: string; amountCents?: number }> | undefined): number | null {
  if (!charges?.length) return null;
  const cents = charges.reduce((sum, charge) => sum + (charge.type === "charge" ? 1 : charge.type === "allowance" ? -1 : 0) * (charge.amountCents ?? 0), 0);
  return cents / 100;
}

/**
 * The unit cost a CSV invoice row bills: its line total over its quantity, so a total that is not quantity × unit
 * price is checked for what it charges; the unit price when there is no total or no quantity. To 4 places, as stored.
 */
export function csvUnitCost(line: { quantity?: number | null; unitPrice?: number | null; lineTotal?: number | null }): number | null {
  if (line.lineTotal !== null && line.lineTotal !== undefined && line.quantity) return Math.round((line.lineTotal / line.quantity) * 10_000) / 10_000;
  return line.unitPrice ?? null;
}
