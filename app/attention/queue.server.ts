// The Needs attention screen's data (/attention and GET /api/attention): the
// open items, oldest first, filtered by kind, vendor and age; their count for
// the navigation and Home; dismissing one with a note.
import { z } from "zod";
import prisma from "~/db.server";
import { defineGrid, gridSourceFrom, optionsFrom, runGrid } from "~/grid/grid.server";
import { message } from "~/i18n/messages";
import { coded, NotFoundError, parseInput } from "~/lib/validation.server";
import { ATTENTION_KINDS } from "~/settings/attention-kinds";

/** The age filter: older than each of these. */
export const AGE_FILTERS = { "1h": 3_600_000, "24h": 86_400_000, "3d": 3 * 86_400_000, "7d": 7 * 86_400_000 } as const;

const KIND_TONES = {
  late_997: "warning",
  late_855: "warning",
  late_856: "warning",
  rejected_line: "critical",
  backordered_line: "attention",
  cancel_refused: "critical",
  file_refused: "critical",
  shopify_fulfilment: "critical",
  shopify_inventory: "warning",
  shopify_order: "critical",
  feed_failed: "critical",
  partner_unreachable: "critical",
  invoice_mismatch: "attention",
} as const;

export const attentionGrid = defineGrid({
  id: "attention",
  rowLink: { path: "{link}" },
  rowKey: "id",
  defaultSort: { key: "since", dir: "asc" },
  source: () => gridSourceFrom(prisma.attentionItem),
  baseWhere: { resolved_at: null, dismissed_at: null },
  columns: [
    {
      key: "since",
      label: "attention.columns.age",
      dataType: "select",
      options: optionsFrom(Object.keys(AGE_FILTERS), "attention.ages"),
      // Several ages chosen: the youngest bound, so every item older than any of them shows.
      filterWhere: (values) => ({ since: { lt: new Date(Date.now() - Math.min(...values.map((value) => AGE_FILTERS[value as keyof typeof AGE_FILTERS]))) } }),
      searchable: false,
    },
    { key: "kind", label: "attention.columns.kind", dataType: "select", options: optionsFrom(ATTENTION_KINDS, "attention.kinds"), tones: KIND_TONES },
    { key: "vendor_name", label: "attention.columns.vendor", dataType: "text" },
    { key: "attention_reason", field: "reason", label: "attention.columns.reason", dataType: "text", codeField: "reason_code" },
    {
      key: "attention_detail",
      field: "detail_code",
      codeField: "detail_code",
      label: "attention.columns.detail",
      dataType: "textOnly",
      filter: "none",
      sortable: false,
      searchable: false,
    },
    { key: "opened_at", label: "attention.columns.opened_at", dataType: "datetime", filter: "date_range" },
    {
      key: "actions",
      label: "attention.columns.actions",
      dataType: "links",
      field: null,
      // The screen draws Open (the item's own link) and Dismiss; this one carries the link for other readers of the API.
      links: [{ path: "", field: "link", field_request_name: "", label: "attention.open", target: "_self" }],
    },
  ],
});

export const listAttention = (params: URLSearchParams) => runGrid(attentionGrid, params);

/** Open items staff have not dismissed: the navigation's and Home's count. */
export function openAttentionCount(): Promise<number> {
  return prisma.attentionItem.count({ where: { resolved_at: null, dismissed_at: null } });
}

/** Dismiss's body: the note (also checked once for a bulk Dismiss). */
export const DismissBody = z.object({
  note: z
    .string({ message: coded("attention.errors.note") })
    .trim()
    .min(1, coded("attention.errors.note"))
    .max(1000, coded("attention.errors.note_long")),
});

/** Takes an open item out of the queue with the staff member's note; it stays out while its cause lasts. */
export async function dismissAttentionItem(id: number, body: unknown, staffName: string) {
  const { note } = parseInput(DismissBody, body);
  const item = Number.isSafeInteger(id) && id > 0 ? await prisma.attentionItem.findUnique({ where: { id } }) : null;
  if (!item || item.resolved_at) throw new NotFoundError(message("attention.errors.not_open", { id }));
  if (!item.dismissed_at) await prisma.attentionItem.update({ where: { id }, data: { dismissed_at: new Date(), dismissed_by: staffName, dismiss_note: note } });
  return { error: false, message: message("attention.dismissed") };
}
