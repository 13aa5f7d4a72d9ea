// The realtime files the AS400 receives (docs/as400-files.md, D26): the
// records a realtime log row carries in payload.as400, and how rows become
// CSV lines. No server imports: the demo seed writes its files with it too.
import { stringify } from "csv-stringify/sync";
import { z } from "zod";

/** Where the files go on the AS400 exchange (next to /as400/invoices and /as400/order-status). */
export const REALTIME_SALES_FOLDER = "/as400/realtime/sales";
export const REALTIME_SHIPPING_FOLDER = "/as400/realtime/shipping";

export const AS400_STATUSES = ["pending", "sent", "failed"] as const;
export type As400Status = (typeof AS400_STATUSES)[number];

/** One line of a realtime sales file: an invoice, shipping invoice or credit memo. */
export const salesAs400RecordSchema = z.object({
  /** The sales record it reports: a later line with the same key replaces the earlier amount. */
  record_key: z.string().min(1),
  event: z.enum(["sale", "refund"]),
  record_type: z.enum(["invoice", "shipping_invoice", "credit_memo"]),
  /** new: first report of the record; correction: its amount changed since it was sent. */
  change: z.enum(["new", "correction"]),
  order_id: z.string().min(1),
  shopify_order_id: z.string().min(1),
  /** The Shopify order (sales) or refund (refunds) the record comes from. */
  source_id: z.string().min(1),
  /** Two decimals, never negative: a credit memo is a positive amount returned. */
  amount: z.string().regex(/^\d+\.\d{2}$/),
  /** The day Daily Sales counts it on (APP_TIMEZONE), YYYY-MM-DD. */
  record_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});
export type SalesAs400Record = z.infer<typeof salesAs400RecordSchema>;

/** A shipment: one fulfilment of an order, from Shopify's webhook or the drop-ship flow. */
export const shipmentAs400RecordSchema = z.object({
  /** The Shopify fulfilment id (numeric). */
  fulfillment_id: z.string().min(1),
  source: z.enum(["shopify", "dropship"]),
  order_id: z.string().min(1),
  shopify_order_id: z.string().min(1),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  shipped_at: z.string().min(1),
  po_number: z.string().nullable(),
  vendor: z.string().nullable(),
  lines: z.array(z.object({ sku: z.string(), qty: z.number().int().nonnegative() })),
});
export type ShipmentAs400Record = z.infer<typeof shipmentAs400RecordSchema>;

export const SALES_FILE_COLUMNS = [
  "log_id",
  "record_key",
  "event",
  "record_type",
  "change",
  "order_id",
  "shopify_order_id",
  "source_id",
  "amount",
  "record_date",
  "logged_at",
] as const;
export const SHIPPING_FILE_COLUMNS = [
  "log_id",
  "fulfillment_id",
  "source",
  "order_id",
  "shopify_order_id",
  "sku",
  "qty",
  "carrier",
  "tracking_number",
  "shipped_at",
  "po_number",
  "vendor",
  "logged_at",
] as const;

/** A realtime log row as the file writer needs it. */
export interface PendingRow {
  id: number;
  payload: unknown;
  created_at: Date;
}

const recordOf = (payload: unknown) => (payload && typeof payload === "object" ? (payload as Record<string, unknown>).as400 : undefined);
const issues = (error: { issues: Array<{ path: PropertyKey[]; message: string }> }) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "record"}: ${issue.message}`)
    .join("; ");

/** The sales file line of a row, or why it cannot be written. */
export function salesFileLines(row: PendingRow): string[][] | { error: string } {
  const parsed = salesAs400RecordSchema.safeParse(recordOf(row.payload));
  if (!parsed.success) return { error: `payload.as400 is not a sales record (${issues(parsed.error)})` };
  const r: SalesAs400Record = parsed.data;
  return [
    [
      String(row.id),
      r.record_key,
      r.event,
      r.record_type,
      r.change,
      r.order_id,
      r.shopify_order_id,
      r.source_id,
      r.amount,
      r.record_date,
      row.created_at.toISOString(),
    ],
  ];
}

/** The shipping file lines of a row (one per SKU shipped), or why they cannot be written. */
export function shippingFileLines(row: PendingRow): string[][] | { error: string } {
  const parsed = shipmentAs400RecordSchema.safeParse(recordOf(row.payload));
  if (!parsed.success) return { error: `payload.as400 is not a shipment record (${issues(parsed.error)})` };
  const r: ShipmentAs400Record = parsed.data;
  // A fulfilment without lines still says it shipped.
  const lines = r.lines.length ? r.lines : [{ sku: "", qty: 0 }];
  return lines.map((line) => [
    String(row.id),
    r.fulfillment_id,
    r.source,
    r.order_id,
    r.shopify_order_id,
    line.sku,
    String(line.qty),
    r.carrier ?? "",
    r.tracking_number ?? "",
    r.shipped_at,
    r.po_number ?? "",
    r.vendor ?? "",
    row.created_at.toISOString(),
  ]);
}

/** CRLF, quotes where a value needs them (a comma, a quote, a line break, edge spaces). */
export function realtimeCsv(header: readonly string[], lines: string[][]): Buffer {
  return Buffer.from(stringify([[...header], ...lines], { record_delimiter: "\r\n", quoted_match: /^\s|\s$|[\r\n]/ }));
}

/** SALES_20261122T071500Z_123-150.csv: the kind, when, and the first and last log ids (unique: a row is in one file). */
export function realtimeFileName(prefix: string, when: Date, firstId: number, lastId: number): string {
  const stamp = when
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${prefix}_${stamp}_${firstId}-${lastId}.csv`;
}

/** One of the two realtime files: its transmission.transaction_set, folder, file name prefix, header, and the lines of a row. */
export interface RealtimeFileKind {
  set: "realtime_sales" | "realtime_shipping";
  folder: string;
  prefix: string;
  header: readonly string[];
  /** The file lines of one row, or the reason it cannot be sent. */
  lines(row: PendingRow): string[][] | { error: string };
}

export const REALTIME_SALES_FILE: RealtimeFileKind = {
  set: "realtime_sales",
  folder: REALTIME_SALES_FOLDER,
  prefix: "SALES",
  header: SALES_FILE_COLUMNS,
  lines: salesFileLines,
};
export const REALTIME_SHIPPING_FILE: RealtimeFileKind = {
  set: "realtime_shipping",
  folder: REALTIME_SHIPPING_FOLDER,
  prefix: "SHIPMENTS",
  header: SHIPPING_FILE_COLUMNS,
  lines: shippingFileLines,
};
