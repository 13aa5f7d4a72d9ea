// Each invoice line's check against its PO (issue 30 item 4, D242), written in
// the transaction that applies the invoice: what invoice-checks.ts found, with
// both sides' figures. A file's lines are numbered (line_index), so applying a
// file again cannot check it twice; a corrected invoice settles the earlier
// mismatches; an 856 applied later checks the quantity of lines that waited.
import type { Prisma } from "~/db/generated/client";
import { invoiceProblems, type InvoiceProblem, type VendorBilling } from "./invoice-checks";

type Tx = Prisma.TransactionClient;

export type InvoiceCheckStatus = "matched" | "mismatch" | "waiting";

/** A row of dropship_invoice_check as the apply step writes it. */
export interface InvoiceCheckRow {
  vendor_id: number;
  transmission_id: number;
  invoice_number: string;
  po_number: string;
  request_id: number | null;
  line_number: string | null;
  /** Its place among the file's checked lines, from 1 (ApplyBatch numbers them). */
  line_index: number;
  sku: string | null;
  sku_ordered: string | null;
  qty_invoiced: number | null;
  qty_shipped: number | null;
  unit_cost_invoiced: number | null;
  unit_cost_ordered: number | null;
  line_charges: number | null;
  invoice_charges: number | null;
  problems: InvoiceProblem[];
  status: InvoiceCheckStatus;
}

/** An invoice line as the apply step reads it, X12 or CSV. */
export interface InvoicedLineFigures {
  invoiceNumber: string;
  poNumber: string;
  lineNumber?: string | null;
  sku?: string | null;
  quantity?: number | null;
  unitCost?: number | null;
  lineCharges?: number | null;
  invoiceCharges?: number | null;
}

/** What the check needs of the request with the line's PO number (null: none of this vendor). */
export interface OrderedRequest {
  request_id: number;
  item_sku: string;
  unit_cost: number | null;
  status: string;
}

/** Statuses of a request its vendor has shipped (an 810 before them bills what is still on its way). */
const SHIPPED = new Set(["shipped", "invoiced", "completed", "archived"]);

/**
 * A line billing more than shipped before the request has shipped at all waits for its 856 (an invoice often
 * comes first); when the 856 comes, the quantity is checked again. Anything else wrong is a mismatch now.
 */
export function checkStatus(problems: InvoiceProblem[], request: Pick<OrderedRequest, "status"> | null): InvoiceCheckStatus {
  if (!problems.length) return "matched";
  if (request && !SHIPPED.has(request.status) && problems.length === 1 && problems[0] === "quantity") return "waiting";
  return "mismatch";
}

/** The check of one invoice line against its request, with both sides' figures; line_index is the batch's to give. */
export function checkInvoiceLine(
  line: InvoicedLineFigures,
  request: OrderedRequest | null,
  qtyShipped: number | null,
  vendor: VendorBilling & { id: number },
  transmissionId: number,
): Omit<InvoiceCheckRow, "line_index"> {
  const problems = invoiceProblems(
    { sku: line.sku, quantity: line.quantity, unitCost: line.unitCost },
    request ? { sku: request.item_sku, qtyShipped: qtyShipped ?? 0, unitCost: request.unit_cost } : null,
    vendor,
  );
  return {
    vendor_id: vendor.id,
    transmission_id: transmissionId,
    invoice_number: line.invoiceNumber,
    po_number: line.poNumber,
    request_id: request?.request_id ?? null,
    line_number: line.lineNumber ?? null,
    sku: line.sku ?? null,
    sku_ordered: request?.item_sku ?? null,
    qty_invoiced: line.quantity ?? null,
    qty_shipped: request ? (qtyShipped ?? 0) : null,
    unit_cost_invoiced: line.unitCost ?? null,
    unit_cost_ordered: request?.unit_cost ?? null,
    line_charges: line.lineCharges ?? null,
    invoice_charges: line.invoiceCharges ?? null,
    problems,
    status: checkStatus(problems, request),
  };
}

/** Units the vendor's 856s shipped of each request, as written so far in this transaction. */
export async function shippedQuantities(tx: Tx, requestIds: number[]): Promise<Map<number, number>> {
  const shipped = new Map<number, number>();
  if (!requestIds.length) return shipped;
  const rows = await tx.$queryRaw<Array<{ request_id: number; qty: number }>>`
    SELECT request_id, COALESCE(sum(qty), 0)::int AS qty FROM dropship_response
     WHERE response_type = '856' AND request_id = ANY(${requestIds}::int[]) GROUP BY request_id`;
  for (const row of rows) shipped.set(row.request_id, row.qty);
  return shipped;
}

/**
 * Inserts the checks (a line of a file already checked is left as it was), then settles the open mismatches of
 * the same vendor, invoice and PO from earlier files when every line of it in the new file matched: a corrected
 * invoice. Lines of the same file do not settle each other (two lines of one PO, one right and one wrong).
 */
export async function writeInvoiceChecks(tx: Tx, checks: InvoiceCheckRow[]) {
  if (!checks.length) return;
  await tx.$executeRaw`
    INSERT INTO dropship_invoice_check (vendor_id, transmission_id, invoice_number, po_number, request_id, line_number, line_index, sku,
                                        sku_ordered, qty_invoiced, qty_shipped, unit_cost_invoiced, unit_cost_ordered, line_charges,
                                        invoice_charges, problems, status)
    SELECT c.vendor_id, c.transmission_id, c.invoice_number, c.po_number, c.request_id, c.line_number, c.line_index, c.sku,
           c.sku_ordered, c.qty_invoiced, c.qty_shipped, c.unit_cost_invoiced, c.unit_cost_ordered, c.line_charges,
           c.invoice_charges, ARRAY(SELECT jsonb_array_elements_text(c.problems)), c.status
      FROM jsonb_to_recordset(${JSON.stringify(checks)}::jsonb)
           AS c(vendor_id int, transmission_id int, invoice_number text, po_number text, request_id int, line_number text, line_index int,
           sku text, sku_ordered text, qty_invoiced int, qty_shipped int, unit_cost_invoiced numeric, unit_cost_ordered numeric,
           line_charges numeric, invoice_charges numeric, problems jsonb, status text)
    ON CONFLICT (transmission_id, line_index) DO NOTHING`;
  // From the table: lines of the file written by an earlier slice count too.
  await tx.$executeRaw`
    WITH checked AS (SELECT DISTINCT vendor_id, transmission_id, invoice_number, po_number
                       FROM jsonb_to_recordset(${JSON.stringify(checks)}::jsonb)
                            AS t(vendor_id int, transmission_id int, invoice_number text, po_number text)),
         corrected AS (SELECT t.* FROM checked t
                        WHERE NOT EXISTS (SELECT 1 FROM dropship_invoice_check n
                                           WHERE n.transmission_id = t.transmission_id AND n.vendor_id = t.vendor_id
                                             AND n.invoice_number = t.invoice_number AND n.po_number = t.po_number AND n.status <> 'matched'))
    UPDATE dropship_invoice_check c SET resolved_at = now()
      FROM corrected t
     WHERE c.status = 'mismatch' AND c.resolved_at IS NULL
       AND c.vendor_id = t.vendor_id AND c.invoice_number = t.invoice_number AND c.po_number = t.po_number
       AND c.transmission_id IS DISTINCT FROM t.transmission_id`;
}

/**
 * An invoice read before the shipment it bills (waiting, or billing more than a partial shipment): once more of it
 * has shipped, the quantity is checked again, and a line with nothing else wrong matches.
 */
export async function recheckShippedQuantities(tx: Tx, requestIds: number[]) {
  if (!requestIds.length) return;
  await tx.$executeRaw`
    WITH shipped AS (SELECT request_id, COALESCE(sum(qty), 0)::int AS qty FROM dropship_response
                      WHERE response_type = '856' AND request_id = ANY(${requestIds}::int[]) GROUP BY request_id),
         rechecked AS (
           SELECT c.id, s.qty,
                  array_remove(c.problems, 'quantity') || CASE WHEN c.qty_invoiced > s.qty THEN ARRAY['quantity'] ELSE ARRAY[]::text[] END AS problems
             FROM dropship_invoice_check c JOIN shipped s ON s.request_id = c.request_id
            WHERE c.status IN ('waiting', 'mismatch') AND c.resolved_at IS NULL AND ('quantity' = ANY(c.problems)))
    UPDATE dropship_invoice_check c
       SET qty_shipped = r.qty, problems = r.problems, status = CASE WHEN cardinality(r.problems) = 0 THEN 'matched' ELSE 'mismatch' END
      FROM rechecked r
     WHERE c.id = r.id`;
}
