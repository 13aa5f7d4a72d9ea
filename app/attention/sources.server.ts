// Where each kind of Needs attention item comes from (D239): one query per
// kind over the tables that hold its cause, answering every cause open now.
// The sweep opens an item for a cause it has not seen and resolves the items
// whose cause is no longer answered, so a query is the whole rule of its kind:
// what makes it open and, by the same WHERE, what makes it go.
import type { PrismaClient } from "~/db/client.server";
import { message, type CodedMessage } from "~/i18n/messages";
import type { Settings } from "~/settings/settings.server";
import type { AttentionKind } from "~/settings/attention-kinds";

export interface Cause {
  kind: AttentionKind;
  /** Names the cause within its kind: the same cause gives the same subject at every sweep. */
  subject: string;
  vendor_id: number | null;
  vendor_name: string | null;
  reason: CodedMessage;
  detail?: CodedMessage | null;
  /** Where staff act on it: an app path. */
  link: string;
  /** When the cause began: the item's age. */
  since: Date;
}

export interface SourceContext {
  now: Date;
  settings: Settings;
  db: PrismaClient;
}

type Source = (context: SourceContext) => Promise<Cause[]>;

const q = (value: string | number) => encodeURIComponent(String(value));
const requestLink = (id: number) => `/dropship/requests/revise?id=${id}`;
/** Refused files older than this are history (Drop Shipping Logs), not work: an upgrade does not fill the queue with last year's. */
const REFUSED_FILE_DAYS = 14;

/** Requests past their vendor's service level, by the first answer missing (D238). */
const lateRequests: Source = async ({ now, settings, db }) => {
  const levels = settings.service_levels;
  const rows = await db.$queryRaw<
    Array<{
      request_id: number;
      po_number: string;
      item_sku: string;
      qty: number;
      vendor_id: number;
      vendor_name: string;
      sent_at: Date;
      missing: string;
      hours: number;
      file_name: string | null;
    }>
  >`
    SELECT * FROM (
      SELECT r.request_id, r.po_number, r.item_sku, r.qty, r.vendor_id, v.name AS vendor_name, r.sent_at, t.file_name,
             CASE
               WHEN v.edi_format = 1 AND v."997_enabled" = 1 AND r.status = 'sent' AND t.status = 'sent'
                    AND r.sent_at + make_interval(hours => COALESCE(v.sla_997_hours, ${levels.sla_997_hours})) < ${now} THEN '997'
               WHEN r.status = 'sent' AND r.sent_at + make_interval(hours => COALESCE(v.sla_855_hours, ${levels.sla_855_hours})) < ${now} THEN '855'
               WHEN r.sent_at + make_interval(hours => COALESCE(v.sla_856_hours, ${levels.sla_856_hours})) < ${now} THEN '856'
             END AS missing,
             COALESCE(v.sla_997_hours, ${levels.sla_997_hours}) AS h997,
             COALESCE(v.sla_855_hours, ${levels.sla_855_hours}) AS h855,
             COALESCE(v.sla_856_hours, ${levels.sla_856_hours}) AS h856
        FROM dropship_request r
        JOIN dropship_vendor v ON v.id = r.vendor_id
        LEFT JOIN transmission t ON t.id = r.transmission_id
       WHERE r.status IN ('sent', 'acknowledged') AND r.sent_at IS NOT NULL AND r.archived_at IS NULL AND v.archived_at IS NULL
    ) late
    CROSS JOIN LATERAL (SELECT CASE late.missing WHEN '997' THEN late.h997 WHEN '855' THEN late.h855 ELSE late.h856 END AS hours) h
    WHERE late.missing IS NOT NULL`;
  return rows.map((row) => ({
    kind: `late_${row.missing}` as AttentionKind,
    subject: `request:${row.request_id}`,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message(`attention.reasons.late_${row.missing}`, { vendor: row.vendor_name, po: row.po_number, sku: row.item_sku, qty: row.qty, hours: row.hours }),
    link: requestLink(row.request_id),
    since: new Date(row.sent_at.getTime() + row.hours * 3_600_000),
  }));
};

/** Lines the vendor rejected or backordered whose assignment still waits on it; refused cancellations not settled by a shipment. */
const vendorExceptions: Source = async ({ db }) => {
  const rows = await db.$queryRaw<
    Array<{
      request_id: number;
      po_number: string;
      item_sku: string;
      qty: number;
      vendor_id: number;
      vendor_name: string;
      status: string;
      vendor_codes: string[];
      vendor_note: string | null;
      vendor_expected_date: Date | null;
      since: Date;
    }>
  >`
    SELECT r.request_id, r.po_number, r.item_sku, r.qty, r.vendor_id, v.name AS vendor_name, r.status, r.vendor_codes, r.vendor_note,
           r.vendor_expected_date, r.updated_at AS since
      FROM dropship_request r
      JOIN dropship_vendor v ON v.id = r.vendor_id
      JOIN assignment a ON a.id = r.assignment_id
     WHERE r.status IN ('rejected', 'backordered') AND r.archived_at IS NULL AND a.assign_status NOT IN (5, 6)
    UNION ALL
    SELECT r.request_id, r.po_number, r.item_sku, c.qty, r.vendor_id, v.name, 'cancel_refused', c.answer_codes, c.answer_note, NULL,
           COALESCE(c.answered_at, c.updated_at)
      FROM dropship_cancellation c
      JOIN dropship_request r ON r.request_id = c.request_id
      JOIN dropship_vendor v ON v.id = r.vendor_id
     WHERE c.status = 'refused' AND r.status = 'cancel_refused'
       AND c.id = (SELECT max(c2.id) FROM dropship_cancellation c2 WHERE c2.request_id = c.request_id)`;
  return rows.map((row) => {
    const kind: AttentionKind = row.status === "rejected" ? "rejected_line" : row.status === "backordered" ? "backordered_line" : "cancel_refused";
    const words = [row.vendor_codes.join(" "), row.vendor_note ?? ""].filter(Boolean).join(": ");
    return {
      kind,
      subject: `request:${row.request_id}`,
      vendor_id: row.vendor_id,
      vendor_name: row.vendor_name,
      reason: message(`attention.reasons.${kind}`, {
        vendor: row.vendor_name,
        po: row.po_number,
        sku: row.item_sku,
        qty: row.qty,
        words: words || "—",
        date: row.vendor_expected_date ? row.vendor_expected_date.toISOString().slice(0, 10) : "—",
      }),
      link: requestLink(row.request_id),
      since: row.since,
    };
  });
};

/** Incoming files refused (a vendor's or the AS400's), until the partner delivers the same name again and it is applied. */
const refusedFiles: Source = async ({ now, db }) => {
  const rows = await db.$queryRaw<
    Array<{
      id: number;
      file_name: string;
      partner: string;
      vendor_id: number | null;
      vendor_name: string | null;
      error: string | null;
      error_segment: string | null;
      created_at: Date;
    }>
  >`
    SELECT t.id, t.file_name, t.partner, t.vendor_id, v.name AS vendor_name, t.error, t.error_segment, t.created_at
      FROM transmission t
      LEFT JOIN dropship_vendor v ON v.id = t.vendor_id
     WHERE t.direction = 'in' AND t.status = 'failed' AND t.created_at > ${new Date(now.getTime() - REFUSED_FILE_DAYS * 86_400_000)}
       AND NOT EXISTS (SELECT 1 FROM transmission later
                        WHERE later.direction = 'in' AND later.partner = t.partner AND later.vendor_id IS NOT DISTINCT FROM t.vendor_id
                          AND later.file_name = t.file_name AND later.id > t.id AND later.status = 'processed')`;
  return rows.map((row) => ({
    kind: "file_refused" as const,
    subject: `transmission:${row.id}`,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message("attention.reasons.file_refused", {
      file: row.file_name,
      partner: row.vendor_name ?? message(`attention.partners.${row.partner === "vendor" ? "vendor" : "as400"}`),
      segment: row.error_segment ?? "—",
      error: (row.error ?? "").slice(0, 300),
    }),
    link: row.partner === "vendor" ? `/dropship/logs?file_name=${q(row.file_name)}` : `/feed/item?queryValue=${q(row.file_name)}`,
    since: row.created_at,
  }));
};

/** Shipments Shopify refused to fulfil (kept and tried again, or failed for want of the order). */
const refusedFulfilments: Source = async ({ db }) => {
  const rows = await db.$queryRaw<
    Array<{ id: number; po_number: string; vendor_id: number; vendor_name: string; detail: string; tracking_number: string | null; since: Date }>
  >`
    SELECT id, po_number, vendor_id, vendor_name, detail, tracking_number, updated_at AS since
      FROM dropship_response
     WHERE response_type = '856' AND status IN ('received', 'failed') AND detail IS NOT NULL AND shopify_fulfillment_id IS NULL`;
  return rows.map((row) => ({
    kind: "shopify_fulfilment" as const,
    subject: `response:${row.id}`,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message("attention.reasons.shopify_fulfilment", { po: row.po_number, tracking: row.tracking_number ?? "—", error: row.detail.slice(0, 300) }),
    link: `/dropship/responses/revise?id=${row.id}`,
    since: row.since,
  }));
};

/** A vendor's stock Shopify refused at its last push (the latest inventory line of each vendor is an error). */
const refusedInventory: Source = async ({ now, db }) => {
  const rows = await db.$queryRaw<Array<{ vendor_id: number | null; vendor_name: string | null; message: string; message_code: unknown; created_at: Date }>>`
    SELECT vendor_id, vendor_name, message, message_code, created_at FROM (
      SELECT DISTINCT ON (COALESCE(vendor_name, '')) vendor_id, vendor_name, message, message_code, status, created_at
        FROM dropship_log
       WHERE action = 'shopify_inventory' AND created_at > ${new Date(now.getTime() - 7 * 86_400_000)}
       ORDER BY COALESCE(vendor_name, ''), id DESC) latest
     WHERE latest.status = 'error'`;
  return rows.map((row) => ({
    kind: "shopify_inventory" as const,
    subject: `inventory:${row.vendor_name ?? ""}`,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message("attention.reasons.shopify_inventory", {
      vendor: row.vendor_name ?? message("attention.partners.every_vendor"),
      error: isCoded(row.message_code) ? row.message_code : row.message,
    }),
    link: `/dropship/logs?action=shopify_inventory${row.vendor_name ? `&vendor_name=${q(row.vendor_name)}` : ""}`,
    since: row.created_at,
  }));
};

/** Special orders Shopify (or the pull's rules) refused, not yet answered by a revision. */
const refusedOrders: Source = async ({ db }) => {
  const rows = await db.$queryRaw<
    Array<{ id: number; special_order_id: number; store_ticket: string; error_message: string; error_code: unknown; created_at: Date }>
  >`
    SELECT id, special_order_id, store_ticket, error_message, error_code, created_at FROM special_order_error WHERE resolved_at IS NULL`;
  return rows.map((row) => ({
    kind: "shopify_order" as const,
    subject: `special_order_error:${row.id}`,
    vendor_id: null,
    vendor_name: null,
    reason: message("attention.reasons.shopify_order", { ticket: row.store_ticket, error: isCoded(row.error_code) ? row.error_code : row.error_message }),
    link: `/special_order/revise?id=${row.special_order_id}`,
    since: row.created_at,
  }));
};

/** Feeds whose last run failed: their age is the first failure since the last clean run. */
const failedFeeds: Source = async ({ db }) => {
  const rows = await db.$queryRaw<Array<{ name: string; since: Date | null; last_failed_at: Date; error: string | null }>>`
    SELECT f.name, f.last_failed_at,
           (SELECT min(l.created_at) FROM feed_log l
             WHERE l.feed_name = f.name AND l.type = 'failed' AND l.created_at > COALESCE(f.last_finished_at, '-infinity')) AS since,
           (SELECT l.meta->>'error' FROM feed_log l WHERE l.feed_name = f.name AND l.type = 'failed' ORDER BY l.id DESC LIMIT 1) AS error
      FROM feed f
     WHERE f.last_failed_at IS NOT NULL AND f.last_failed_at > COALESCE(f.last_finished_at, '-infinity')`;
  return rows.map((row) => ({
    kind: "feed_failed" as const,
    subject: `feed:${row.name}`,
    vendor_id: null,
    vendor_name: null,
    reason: message("attention.reasons.feed_failed", { feed: row.name, error: (row.error ?? "").slice(0, 300) }),
    link: `/feed/item?feed_name=${q(row.name)}`,
    since: row.since ?? row.last_failed_at,
  }));
};

/** A vendor's server or the AS400 that failed its last N connections in a row (D241). */
const unreachablePartners: Source = async ({ settings, db }) => {
  const rows = await db.$queryRaw<
    Array<{ partner: string; vendor_id: number | null; vendor_name: string | null; failures: number; first_failed_at: Date; last_error: string | null }>
  >`
    SELECT c.partner, c.vendor_id, v.name AS vendor_name, c.failures, c.first_failed_at, c.last_error
      FROM partner_contact c
      LEFT JOIN dropship_vendor v ON v.id = c.vendor_id
     WHERE c.failures >= ${settings.service_levels.unreachable_runs} AND c.first_failed_at IS NOT NULL
       AND (c.vendor_id IS NULL OR (v.id IS NOT NULL AND v.archived_at IS NULL AND v.enabled = 1))`;
  return rows.map((row) => ({
    kind: "partner_unreachable" as const,
    subject: row.partner,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message("attention.reasons.partner_unreachable", {
      partner: row.vendor_name ?? message("attention.partners.as400"),
      failures: row.failures,
      error: (row.last_error ?? "").slice(0, 300),
    }),
    link: row.vendor_id ? `/dropship/vendor/edit?id=${row.vendor_id}` : "/feed",
    since: row.first_failed_at,
  }));
};

/** 810 lines that do not match their PO (D242), until a corrected invoice matches or staff dismiss them. */
const invoiceMismatches: Source = async ({ db }) => {
  const rows = await db.$queryRaw<
    Array<{
      id: number;
      vendor_id: number;
      vendor_name: string;
      invoice_number: string;
      po_number: string;
      request_id: number | null;
      sku: string | null;
      sku_ordered: string | null;
      qty_invoiced: number | null;
      qty_shipped: number | null;
      unit_cost_invoiced: string | null;
      unit_cost_ordered: string | null;
      line_charges: string | null;
      invoice_charges: string | null;
      problems: string[];
      created_at: Date;
    }>
  >`
    SELECT c.id, c.vendor_id, v.name AS vendor_name, c.invoice_number, c.po_number, c.request_id, c.sku, c.sku_ordered, c.qty_invoiced, c.qty_shipped,
           c.unit_cost_invoiced::text, c.unit_cost_ordered::text, c.line_charges::text, c.invoice_charges::text, c.problems, c.created_at
      FROM dropship_invoice_check c JOIN dropship_vendor v ON v.id = c.vendor_id
     WHERE c.status = 'mismatch' AND c.resolved_at IS NULL`;
  const show = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));
  return rows.map((row) => ({
    kind: "invoice_mismatch" as const,
    subject: `invoice_check:${row.id}`,
    vendor_id: row.vendor_id,
    vendor_name: row.vendor_name,
    reason: message("attention.reasons.invoice_mismatch", {
      invoice: row.invoice_number,
      po: row.po_number,
      vendor: row.vendor_name,
      problems: row.problems.map((problem) => message(`attention.invoice_problems.${problem}`)),
    }),
    detail: message("attention.details.invoice_mismatch", {
      sku: show(row.sku),
      sku_ordered: show(row.sku_ordered),
      qty_invoiced: show(row.qty_invoiced),
      qty_shipped: show(row.qty_shipped),
      cost_invoiced: show(row.unit_cost_invoiced),
      cost_ordered: show(row.unit_cost_ordered),
      charges: show(row.line_charges),
      invoice_charges: show(row.invoice_charges),
    }),
    link: row.request_id ? requestLink(row.request_id) : `/dropship/responses?po_number=${q(row.po_number)}`,
    since: row.created_at,
  }));
};

const isCoded = (value: unknown): value is CodedMessage => typeof value === "object" && value !== null && "code" in value;

/** Every kind's source; each one's causes resolve only that kind's items. */
export const ATTENTION_SOURCES: Array<{ kinds: AttentionKind[]; read: Source }> = [
  { kinds: ["late_997", "late_855", "late_856"], read: lateRequests },
  { kinds: ["rejected_line", "backordered_line", "cancel_refused"], read: vendorExceptions },
  { kinds: ["file_refused"], read: refusedFiles },
  { kinds: ["shopify_fulfilment"], read: refusedFulfilments },
  { kinds: ["shopify_inventory"], read: refusedInventory },
  { kinds: ["shopify_order"], read: refusedOrders },
  { kinds: ["feed_failed"], read: failedFeeds },
  { kinds: ["partner_unreachable"], read: unreachablePartners },
  { kinds: ["invoice_mismatch"], read: invoiceMismatches },
];
