// What a vendor's document means for our requests, whatever its format: X12
// and CSV files are both turned into these inputs first. Every function runs
// inside the transaction that marks the stored file processed, so a crash
// leaves the file either untouched (processed again by the next run) or done.
import type { DropshipRequest, Prisma, Vendor } from "~/db/generated/client";
import type { LogEntry } from "./context.server";
import { vendorLog } from "./context.server";

type Tx = Prisma.TransactionClient;

export interface ApplyContext {
  tx: Tx;
  vendor: Vendor;
  transmissionId: number;
  fileName: string;
  logs: LogEntry[];
}

export type AckStatus = "accepted" | "changed" | "backordered" | "rejected" | "held" | "unknown";
export interface AckInput { poNumber: string; sku?: string | null; quantity?: number | null; status: AckStatus; detail?: string | null }
export interface ShipmentInput { poNumber: string; sku?: string | null; quantity?: number | null; trackingNumber?: string | null; carrier?: string | null }
export interface InvoiceInput { invoiceNumber: string; poNumber: string; sku?: string | null; quantity?: number | null; amount?: number | null }
export interface InventoryInput { sku: string; quantity: number }

/** Request statuses only move forward: an 855 arriving after the 856 changes nothing. */
const STATUS_RANK: Record<string, number> = { pending: 0, sent: 1, acknowledged: 2, backordered: 2, rejected: 2, shipped: 3, completed: 4, archived: 5 };

async function requestFor(context: ApplyContext, poNumber: string): Promise<DropshipRequest | null> {
  const request = await context.tx.dropshipRequest.findUnique({ where: { po_number: poNumber } });
  if (request && request.vendor_id !== context.vendor.id) {
    context.logs.push({ ...vendorLog(context.vendor), action: "process_responses", status: "warning", po_number: poNumber, file_name: context.fileName, transmission_id: context.transmissionId, message: `${context.fileName} names PO ${poNumber}, which was sent to ${request.vendor_name}, not to ${context.vendor.name}; ignored.` });
    return null;
  }
  return request;
}

function baseLog(context: ApplyContext, request: DropshipRequest | null, poNumber: string) {
  return {
    ...vendorLog(context.vendor),
    action: "process_responses" as const,
    po_number: poNumber,
    order_increment_id: request?.order_increment_id ?? null,
    file_name: context.fileName,
    transmission_id: context.transmissionId,
  };
}

function responseRow(context: ApplyContext, request: DropshipRequest | null, poNumber: string, type: string) {
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

async function moveRequest(context: ApplyContext, request: DropshipRequest, status: string) {
  if ((STATUS_RANK[status] ?? 0) <= (STATUS_RANK[request.status] ?? 0) && !(request.status === "backordered" && status === "acknowledged")) return;
  await context.tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status } });
  request.status = status;
}

const REQUEST_STATUS_OF_ACK: Record<AckStatus, string> = { accepted: "acknowledged", changed: "acknowledged", held: "acknowledged", unknown: "acknowledged", backordered: "backordered", rejected: "rejected" };

export async function applyAcknowledgements(context: ApplyContext, lines: AckInput[]) {
  for (const line of lines) {
    const request = await requestFor(context, line.poNumber);
    const log = baseLog(context, request, line.poNumber);
    const sku = line.sku ?? request?.item_sku ?? null;
    await context.tx.dropshipResponse.create({
      data: { ...responseRow(context, request, line.poNumber, "855"), item_sku: sku, qty: line.quantity ?? request?.qty ?? null, line_status: line.status, detail: line.detail ?? null, status: request ? "processed" : "failed", needs_processing: false, processed_at: new Date() },
    });
    if (!request) {
      context.logs.push({ ...log, status: "warning", item_sku: sku, message: `855 for PO ${line.poNumber}, which no ship request has; recorded, nothing changed.` });
      continue;
    }
    await moveRequest(context, request, REQUEST_STATUS_OF_ACK[line.status]);
    const what = { accepted: "accepted", changed: "accepted with changes", held: "put on hold", unknown: "acknowledged", backordered: "backordered", rejected: "rejected" }[line.status];
    context.logs.push({
      ...log,
      status: line.status === "rejected" ? "error" : line.status === "backordered" || line.status === "held" ? "warning" : "success",
      item_sku: sku,
      qty: line.quantity ?? request.qty,
      message: `855: the vendor ${what} ${line.quantity ?? request.qty} x ${sku} of PO ${line.poNumber}${line.detail ? ` (${line.detail})` : ""}.${line.status === "rejected" ? " Reassign the item to another source." : ""}`,
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
    await context.tx.dropshipResponse.create({
      data: {
        ...responseRow(context, request, item.poNumber, "856"),
        item_sku: sku,
        qty: quantity,
        tracking_number: item.trackingNumber ?? null,
        tracking_carrier: item.carrier ?? null,
        // Received: the fulfilment in Shopify is still to be made (after this transaction).
        status: problem ? "failed" : "received",
        needs_processing: !problem,
        detail: problem,
      },
    });
    if (problem) {
      context.logs.push({ ...log, status: "error", item_sku: sku, qty: quantity, tracking_number: item.trackingNumber ?? null, message: `856 for PO ${item.poNumber}: ${problem}. Recorded as a failed response; revise it to use it.` });
      continue;
    }
    await moveRequest(context, request!, "shipped");
    context.logs.push({ ...log, status: "success", item_sku: sku, qty: quantity, tracking_number: item.trackingNumber, message: `856: ${quantity} x ${sku} of PO ${item.poNumber} shipped${item.carrier ? ` by ${item.carrier}` : ""}, tracking ${item.trackingNumber}.` });
  }
}

export async function applyInvoiceLines(context: ApplyContext, lines: InvoiceInput[]) {
  for (const line of lines) {
    const request = await requestFor(context, line.poNumber);
    const sku = line.sku ?? request?.item_sku ?? null;
    await context.tx.dropshipResponse.create({
      data: { ...responseRow(context, request, line.poNumber, "810"), item_sku: sku, qty: line.quantity ?? null, invoice_number: line.invoiceNumber, amount: line.amount ?? null, status: "processed", needs_processing: false, processed_at: new Date() },
    });
    context.logs.push({
      ...baseLog(context, request, line.poNumber),
      status: request ? "success" : "warning",
      item_sku: sku,
      qty: line.quantity ?? null,
      message: `810: invoice ${line.invoiceNumber} bills ${line.quantity ?? "?"} x ${sku ?? "?"} of PO ${line.poNumber}${line.amount !== null && line.amount !== undefined ? ` for $${line.amount.toFixed(2)}` : ""}${request ? "" : " (no ship request has this PO number)"}.`,
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
      await this.context.tx.inventorySource.upsert({ where: { source_code: source }, update: {}, create: { source_code: source, name: this.context.vendor.name, type: "dropshipper" } });
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

/** Sets the vendor's stock (its inventory source) per SKU; answers how many lines were read and quantities changed. */
export async function applyInventory(context: ApplyContext, items: Iterable<InventoryInput>): Promise<{ read: number; changed: number }> {
  const writer = new StockWriter(context);
  for (const item of items) await writer.add(item);
  await writer.flush();
  return { read: writer.read, changed: writer.changed };
}
