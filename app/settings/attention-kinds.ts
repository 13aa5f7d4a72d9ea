// The kinds of Needs attention items (issue 30, D239), in the order the screen's
// filter and Settings offer them. Shared by the browser (Settings' checkboxes)
// and the server (the sweep, the alerts).
export const ATTENTION_KINDS = [
  "late_997",
  "late_855",
  "late_856",
  "rejected_line",
  "backordered_line",
  "cancel_refused",
  "file_refused",
  "shopify_fulfilment",
  "shopify_inventory",
  "shopify_order",
  "feed_failed",
  "partner_unreachable",
  "invoice_mismatch",
] as const;

export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** What alerts at once unless Settings say otherwise: what stops goods moving. The rest waits for the daily digest. */
export const IMMEDIATE_KINDS_DEFAULT: AttentionKind[] = [
  "late_997",
  "late_855",
  "late_856",
  "file_refused",
  "shopify_fulfilment",
  "feed_failed",
  "partner_unreachable",
];
