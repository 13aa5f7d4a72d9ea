// What a vendor's document means for our requests, whatever its format: X12
// and CSV files are both turned into these inputs first. Every function runs
// inside the transaction that marks the stored files processed, so a crash
// leaves the files either untouched (processed again by the next run) or done.
// The work of a transaction's files is gathered in an ApplyBatch (D102): the
// requests they name are read in one statement, and the responses and request
// moves written in one statement each when the batch ends.
import type { Prisma, Vendor } from "~/db/generated/client";
import { checkInvoiceLine, recheckShippedQuantities, shippedQuantities, writeInvoiceChecks, type InvoiceCheckRow } from "../invoice-checks.server";
import { logMessage } from "~/i18n/english.server";
import { message, money, plainText } from "~/i18n/messages";
import type { LogEntry } from "./context.server";
import { vendorLog } from "./context.server";

type Tx = Prisma.TransactionClient;

/** What the apply functions need of a request. */
export interface BatchRequest {
  request_id: number;
  vendor_id: number;
  vendor_name: string;
  assignment_id: number;
  po_number: string;
  order_increment_id: string;
  item_sku: string;
  qty: number;
  status: string;
  /** The PO's unit cost, when we sent one: an 810 line is checked against it (D242). */
  unit_cost: number | null;
}

interface ResponseRow {
  request_id: number | null;
  vendor_id: number;
  vendor_name: string;
  assignment_id: number | null;
  po_number: string;
  order_increment_id: string | null;
  response_type: string;
  transmission_id: number;
  item_sku: string | null;
  qty: number | null;
  line_status?: string | null;
  detail?: string | null;
  tracking_number?: string | null;
  tracking_carrier?: string | null;
  invoice_number?: string | null;
  amount?: number | null;
  status: string;
  needs_processing: boolean;
  processed: boolean;
}

/** The requests, responses and group acknowledgements of one transaction's files, read and written set-based. */
export class ApplyBatch {
  private readonly requests = new Map<string, BatchRequest | null>();
  private readonly moved = new Map<number, BatchRequest>();
  /** The vendor's last 855 word on each request: expected date, codes, note (shown on the request). */
  private readonly answered = new Map<number, { date: string | null; codes: string[]; note: string | null }>();
  private readonly responses: ResponseRow[] = [];
  /** x12_group_ack rows (ack-997.server.ts), inserted with the rest. */
  readonly groupAcks: Array<Record<string, unknown>> = [];
  /** Units shipped by 856 rows added but not written yet, per request: an 810 in the same run bills them. */
  private readonly pendingShipped = new Map<number, number>();
  /** Each 810 line against its PO (D242), inserted with the rest; how many did not match, per file. */
  private readonly invoiceChecks: InvoiceCheckRow[] = [];
  /** Lines checked so far per file: the next line's line_index. */
  private readonly checkedLines = new Map<number, number>();
  readonly invoiceMismatches = new Map<number, number>();

  constructor(readonly tx: Tx) {}

  /** Reads the requests of these PO numbers not read yet, in one statement. */
  async prefetch(poNumbers: Iterable<string>) {
    const missing = [...new Set(poNumbers)].filter((po) => po && !this.requests.has(po));
    if (missing.length === 0) return;
    const rows = await this.tx.$queryRaw<BatchRequest[]>`
      SELECT request_id, vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, status, unit_cost::float8 AS unit_cost
        FROM dropship_request WHERE po_number = ANY(${missing}::text[])`;
    for (const po of missing) this.requests.set(po, null);
    for (const row of rows) this.requests.set(row.po_number, row);
  }

  async request(poNumber: string): Promise<BatchRequest | null> {
    if (!this.requests.has(poNumber)) await this.prefetch([poNumber]);
    return this.requests.get(poNumber) ?? null;
  }

  /** A status written outside the batch (a vendor's 997 rejecting our 850): later files see it. */
  statusWritten(poNumber: string, status: string) {
    const request = this.requests.get(poNumber);
    if (request) request.status = status;
  }

  move(request: BatchRequest, status: string) {
    request.status = status;
    this.moved.set(request.request_id, request);
  }

  vendorAnswered(request: BatchRequest, answer: { date: string | null; codes: string[]; note: string | null }) {
    this.answered.set(request.request_id, answer);
  }

  addResponse(row: ResponseRow) {
    this.responses.push(row);
    if (row.response_type === "856" && row.request_id !== null && row.qty)
      this.pendingShipped.set(row.request_id, (this.pendingShipped.get(row.request_id) ?? 0) + row.qty);
  }

  /** Units the vendor's 856s shipped of each request: what is written, and what this batch adds. */
  async shippedQuantities(requestIds: number[]): Promise<Map<number, number>> {
    const shipped = await shippedQuantities(this.tx, requestIds);
    for (const id of requestIds) shipped.set(id, (shipped.get(id) ?? 0) + (this.pendingShipped.get(id) ?? 0));
    return shipped;
  }

  addInvoiceCheck(check: Omit<InvoiceCheckRow, "line_index">) {
    const lineIndex = (this.checkedLines.get(check.transmission_id) ?? 0) + 1;
    this.checkedLines.set(check.transmission_id, lineIndex);
    const row = { ...check, line_index: lineIndex };
    this.invoiceChecks.push(row);
    if (row.status === "mismatch") this.invoiceMismatches.set(row.transmission_id, (this.invoiceMismatches.get(row.transmission_id) ?? 0) + 1);
  }

  /** Writes what the files applied: one insert of responses, one update of requests, one insert of group acknowledgements. */
  async flush() {
    if (this.responses.length) {
      await this.tx.$executeRaw`
        INSERT INTO dropship_response (request_id, vendor_id, vendor_name, assignment_id, po_number, order_increment_id, response_type,
                                       transmission_id, item_sku, qty, line_status, detail, tracking_number, tracking_carrier, invoice_number,
                                       amount, status, needs_processing, processed_at, updated_at)
        SELECT r.request_id, r.vendor_id, r.vendor_name, r.assignment_id, r.po_number, r.order_increment_id, r.response_type,
               r.transmission_id, r.item_sku, r.qty, r.line_status, r.detail, r.tracking_number, r.tracking_carrier, r.invoice_number,
               r.amount, r.status, r.needs_processing, CASE WHEN r.processed THEN now() END, now()
          FROM jsonb_to_recordset(${JSON.stringify(this.responses)}::jsonb)
               AS r(request_id int, vendor_id int, vendor_name text, assignment_id int, po_number text, order_increment_id text,
               response_type text, transmission_id int, item_sku text, qty int, line_status text, detail text, tracking_number text,
               tracking_carrier text, invoice_number text, amount numeric,
               status text, needs_processing boolean, processed boolean)`;
      this.responses.length = 0;
    }
    const shippedNow = [...this.pendingShipped.keys()];
    this.pendingShipped.clear();
    await writeInvoiceChecks(this.tx, this.invoiceChecks.splice(0));
    await recheckShippedQuantities(this.tx, shippedNow);
    if (this.moved.size) {
      const moved = [...this.moved.values()];
      await this.tx.$executeRaw`
        UPDATE dropship_request q SET status = t.status, updated_at = now()
          FROM unnest(${moved.map((r) => r.request_id)}::int[], ${moved.map((r) => r.status)}::text[]) AS t(id, status)
         WHERE q.request_id = t.id`;
      this.moved.clear();
    }
    if (this.answered.size) {
      const ids = [...this.answered.keys()];
      const answers = [...this.answered.values()];
      await this.tx.$executeRaw`
        UPDATE dropship_request q
           SET vendor_expected_date = t.date::date, vendor_codes = COALESCE(string_to_array(t.codes, ' '), '{}'), vendor_note = t.note, updated_at = now()
          FROM unnest(${ids}::int[], ${answers.map((a) => (a.date && /^\d{4}-\d{2}-\d{2}$/.test(a.date) ? a.date : null))}::text[],
                      ${answers.map((a) => a.codes.join(" ") || null)}::text[], ${answers.map((a) => a.note)}::text[]) AS t(id, date, codes, note)
         WHERE q.request_id = t.id`;
      this.answered.clear();
    }
    if (this.groupAcks.length) {
      await this.tx.$executeRaw`
        INSERT INTO x12_group_ack (vendor_id, received_id, interchange_index, group_index, interchange_control_number,
                                   group_control_number, functional_id, version, status, ack)
        SELECT r.vendor_id, r.received_id, r.interchange_index, r.group_index, r.interchange_control_number,
               r.group_control_number, r.functional_id, r.version, r.status, r.ack
          FROM jsonb_to_recordset(${JSON.stringify(this.groupAcks)}::jsonb)
               AS r(vendor_id int, received_id int, interchange_index int, group_index int, interchange_control_number text,
               group_control_number text, functional_id text, version text, status text, ack jsonb)
        ON CONFLICT (received_id, interchange_index, group_index) DO NOTHING`;
      this.groupAcks.length = 0;
    }
  }
}

export interface ApplyContext {
  tx: Tx;
  batch: ApplyBatch;
  vendor: Vendor;
  transmissionId: number;
  fileName: string;
  logs: LogEntry[];
}

/** The fields every log line about the file being processed carries: its vendor, the step, the file. */
export function fileLogLine(context: ApplyContext, status: LogEntry["status"]) {
  return { ...vendorLog(context.vendor), action: "process_responses" as const, status, file_name: context.fileName, transmission_id: context.transmissionId };
}

export type AckStatus = "accepted" | "changed" | "backordered" | "rejected" | "held" | "unknown";
export interface AckInput {
  poNumber: string;
  sku?: string | null;
  quantity?: number | null;
  status: AckStatus;
  /** As the response row keeps it (English, with the vendor's words). */
  detail?: string | null;
  /** For the log line, in the reader's language: the date the vendor expects to ship, and its own note. */
  expected?: string | null;
  note?: string | null;
  /** The vendor's codes for it (ACK01, BAK02), kept on the request. */
  codes?: string[];
}

/** The parenthesis after an 855 line: the expected date (ours) and the vendor's note (data). */
function ackDetail(line: AckInput) {
  const parts = [...(line.expected ? [message("logs.dropship.expected", { date: line.expected })] : []), ...(line.note ? [plainText(line.note)] : [])];
  if (parts.length) return message("logs.paren", { text: parts });
  return line.detail ? message("logs.paren", { text: line.detail }) : "";
}
export interface ShipmentInput {
  poNumber: string;
  sku?: string | null;
  quantity?: number | null;
  trackingNumber?: string | null;
  carrier?: string | null;
}
export interface InvoiceInput {
  invoiceNumber: string;
  poNumber: string;
  sku?: string | null;
  quantity?: number | null;
  amount?: number | null;
  lineNumber?: string | null;
  unitCost?: number | null;
  /** SAC charges less allowances of the line, and of its whole invoice (D242): kept apart from the cost. */
  lineCharges?: number | null;
  invoiceCharges?: number | null;
}

export interface InventoryInput {
  sku: string;
  quantity: number;
}

/** Request statuses only move forward: an 855 arriving after the 856 changes nothing. */
const STATUS_RANK: Record<string, number> = {
  pending: 0,
  sent: 1,
  acknowledged: 2,
  backordered: 2,
  rejected: 2,
  // A cancellation's states (D225): an 855 after it changes nothing; a shipment still moves it on (the vendor shipped).
  cancel_requested: 2.5,
  cancel_refused: 2.6,
  cancelled: 2.7,
  shipped: 3,
  completed: 4,
  archived: 5,
};

async function requestFor(context: ApplyContext, poNumber: string): Promise<BatchRequest | null> {
  const request = await context.batch.request(poNumber);
  if (request && request.vendor_id !== context.vendor.id) {
    context.logs.push({
      ...vendorLog(context.vendor),
      action: "process_responses",
      status: "warning",
      po_number: poNumber,
      file_name: context.fileName,
      transmission_id: context.transmissionId,
      ...logMessage("logs.dropship.po_other_vendor", { file: context.fileName, po: poNumber, sent_to: request.vendor_name, vendor: context.vendor.name }),
    });
    return null;
  }
  return request;
}

function baseLog(context: ApplyContext, request: BatchRequest | null, poNumber: string) {
  return {
    ...vendorLog(context.vendor),
    action: "process_responses" as const,
    po_number: poNumber,
    order_increment_id: request?.order_increment_id ?? null,
    file_name: context.fileName,
    transmission_id: context.transmissionId,
  };
}

function responseRow(context: ApplyContext, request: BatchRequest | null, poNumber: string, type: string) {
  return {
    request_id: request?.request_id ?? null,
    vendor_id: context.vendor.id,
    vendor_name: context.vendor.name,
    assignment_id: request?.assignment_id ?? null,
    po_number: poNumber,
    order_increment_id: request?.order_increment_id ?? null,
    response_type: type,
    transmission_id: context.transmissionId,
  };
}

function moveRequest(context: ApplyContext, request: BatchRequest, status: string) {
  if ((STATUS_RANK[status] ?? 0) <= (STATUS_RANK[request.status] ?? 0) && !(request.status === "backordered" && status === "acknowledged")) return;
  context.batch.move(request, status);
}

const REQUEST_STATUS_OF_ACK: Record<AckStatus, string> = {
  accepted: "acknowledged",
  changed: "acknowledged",
  held: "acknowledged",
  unknown: "acknowledged",
  backordered: "backordered",
  rejected: "rejected",
};

export async function applyAcknowledgements(context: ApplyContext, lines: AckInput[]) {
  for (const line of lines) {
    const request = await requestFor(context, line.poNumber);
    const log = baseLog(context, request, line.poNumber);
    const sku = line.sku ?? request?.item_sku ?? null;
    context.batch.addResponse({
      ...responseRow(context, request, line.poNumber, "855"),
      item_sku: sku,
      qty: line.quantity ?? request?.qty ?? null,
      line_status: line.status,
      detail: line.detail ?? null,
      status: request ? "processed" : "failed",
      needs_processing: false,
      processed: true,
    });
    if (!request) {
      context.logs.push({ ...log, status: "warning", item_sku: sku, ...logMessage("logs.dropship.ack_unknown_po", { po: line.poNumber }) });
      continue;
    }
    moveRequest(context, request, REQUEST_STATUS_OF_ACK[line.status]);
    context.batch.vendorAnswered(request, { date: line.expected ?? null, codes: line.codes ?? [], note: line.note ?? null });
    context.logs.push({
      ...log,
      status: line.status === "rejected" ? "error" : line.status === "backordered" || line.status === "held" ? "warning" : "success",
      item_sku: sku,
      qty: line.quantity ?? request.qty,
      // The vendor's own words (detail) are data, inside our sentence.
      ...logMessage(`logs.dropship.ack.${line.status}`, { qty: line.quantity ?? request.qty, sku, po: line.poNumber, detail: ackDetail(line) }),
    });
  }
}

export async function applyShipments(context: ApplyContext, items: ShipmentInput[]) {
  for (const item of items) {
    const request = await requestFor(context, item.poNumber);
    const log = baseLog(context, request, item.poNumber);
    const sku = item.sku ?? request?.item_sku ?? null;
    const quantity = item.quantity ?? request?.qty ?? null;
    const problem = !request ? "no ship request has this PO number" : !item.trackingNumber ? "the shipment carries no tracking number" : null;
    context.batch.addResponse({
      ...responseRow(context, request, item.poNumber, "856"),
      item_sku: sku,
      qty: quantity,
      tracking_number: item.trackingNumber ?? null,
      tracking_carrier: item.carrier ?? null,
      // Received: the fulfilment in Shopify is still to be made (after this transaction).
      status: problem ? "failed" : "received",
      needs_processing: !problem,
      detail: problem,
      processed: false,
    });
    if (problem) {
      context.logs.push({
        ...log,
        status: "error",
        item_sku: sku,
        qty: quantity,
        tracking_number: item.trackingNumber ?? null,
        ...logMessage(request ? "logs.dropship.ship_no_tracking" : "logs.dropship.ship_no_request", { po: item.poNumber }),
      });
      continue;
    }
    // Shipped after we asked to cancel it (D225): Shopify takes only what it still has open, and staff are told.
    if (request!.status === "cancel_requested" || request!.status === "cancelled")
      context.logs.push({
        ...log,
        status: "error",
        item_sku: sku,
        qty: quantity,
        tracking_number: item.trackingNumber,
        ...logMessage("cancellations.log.shipped_after_cancel", { po: item.poNumber, vendor: context.vendor.name, tracking: item.trackingNumber }),
      });
    moveRequest(context, request!, "shipped");
    context.logs.push({
      ...log,
      status: "success",
      item_sku: sku,
      qty: quantity,
      tracking_number: item.trackingNumber,
      ...logMessage("logs.dropship.shipped", {
        qty: quantity,
        sku,
        po: item.poNumber,
        carrier: item.carrier ? message("logs.dropship.by_carrier", { carrier: item.carrier }) : "",
        tracking: item.trackingNumber,
      }),
    });
  }
}

export async function applyInvoiceLines(context: ApplyContext, lines: InvoiceInput[]) {
  const requests = new Map<string, BatchRequest | null>();
  for (const line of lines) if (!requests.has(line.poNumber)) requests.set(line.poNumber, await requestFor(context, line.poNumber));
  const shipped = await context.batch.shippedQuantities([...requests.values()].flatMap((request) => (request ? [request.request_id] : [])));
  for (const line of lines) {
    const request = requests.get(line.poNumber) ?? null;
    const sku = line.sku ?? request?.item_sku ?? null;
    const qtyShipped = request ? (shipped.get(request.request_id) ?? 0) : null;
    // Checked against its PO (D242); the response row and the AS400 copy are as before, whatever the check says.
    const check = checkInvoiceLine(line, request, qtyShipped, context.vendor, context.transmissionId);
    context.batch.addInvoiceCheck(check);
    context.batch.addResponse({
      ...responseRow(context, request, line.poNumber, "810"),
      item_sku: sku,
      qty: line.quantity ?? null,
      invoice_number: line.invoiceNumber,
      amount: line.amount ?? null,
      status: "processed",
      needs_processing: false,
      processed: true,
    });
    const show = (value: number | null | undefined) => (value === null || value === undefined ? "?" : value);
    context.logs.push({
      ...baseLog(context, request, line.poNumber),
      status: check.status === "mismatch" ? "warning" : "success",
      item_sku: sku,
      qty: line.quantity ?? null,
      ...logMessage("logs.dropship.invoice", {
        invoice: line.invoiceNumber,
        qty: line.quantity ?? "?",
        sku: sku ?? "?",
        po: line.poNumber,
        amount: line.amount !== null && line.amount !== undefined ? message("logs.dropship.invoice_money", { amount: money(line.amount) }) : "",
        unknown: !request ? message("logs.dropship.invoice_no_request") : check.status === "waiting" ? message("logs.dropship.invoice_waits_for_shipment") : "",
      }),
    });
    if (request && check.status === "mismatch")
      context.logs.push({
        ...baseLog(context, request, line.poNumber),
        status: "warning",
        item_sku: sku,
        qty: line.quantity ?? null,
        ...logMessage("logs.dropship.invoice_mismatch", {
          invoice: line.invoiceNumber,
          po: line.poNumber,
          problems: check.problems.map((problem) => message(`attention.invoice_problems.${problem}`)),
          qty_invoiced: show(line.quantity),
          qty_shipped: show(qtyShipped),
          cost_invoiced: line.unitCost === null || line.unitCost === undefined ? "?" : money(line.unitCost),
          cost_ordered: request.unit_cost === null ? "?" : money(request.unit_cost),
        }),
      });
  }
}

/** SKUs per statement: large enough to be quick, small enough that a file of millions of lines never sits in memory. */
const STOCK_BATCH = 5000;

/**
 * Sets the vendor's stock (its inventory source) from lines given one at a
 * time, STOCK_BATCH SKUs per statement: an 846 of tens of MB is applied as it
 * is read. The last line for a SKU wins, as reading the file top to bottom.
 */
export class StockWriter {
  /** Lines with a SKU and a quantity. */
  read = 0;
  /** Stock levels whose quantity changed. */
  changed = 0;
  private batch = new Map<string, number>();
  private sourceReady = false;

  constructor(private readonly context: ApplyContext) {}

  /** A promise only when a batch is written: a promise per line would cost more than the line. */
  add(item: InventoryInput): void | Promise<void> {
    if (!item.sku || !Number.isFinite(item.quantity)) return;
    this.read++;
    this.batch.set(item.sku, Math.max(0, Math.trunc(item.quantity)));
    if (this.batch.size >= STOCK_BATCH) return this.flush();
  }

  /** Writes what is pending. */
  async flush(): Promise<void> {
    if (this.batch.size === 0) return;
    const source = this.context.vendor.store_id;
    if (!this.sourceReady) {
      await this.context.tx.inventorySource.upsert({
        where: { source_code: source },
        update: {},
        create: { source_code: source, name: this.context.vendor.name, type: "dropshipper" },
      });
      this.sourceReady = true;
    }
    const skus = [...this.batch.keys()];
    const quantities = [...this.batch.values()];
    this.batch = new Map();
    this.changed += await this.context.tx.$executeRaw`
      INSERT INTO inventory_source_item (source_code, sku, quantity, updated_at)
      SELECT ${source}, s, q, now() FROM unnest(${skus}::text[], ${quantities}::int[]) AS t(s, q)
      ON CONFLICT (source_code, sku) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()
      WHERE inventory_source_item.quantity IS DISTINCT FROM EXCLUDED.quantity`;
  }
}
