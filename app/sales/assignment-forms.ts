// The sales assignment forms (manual assignment, reassign, DNH), declared once
// (D127): zod schemas with coded messages, parsed by the routes with
// `parseInput`; ./assignments.server.ts takes the typed input and checks what
// needs the database.
import { z } from "zod";
import { message } from "~/i18n/messages";
import { coded } from "~/lib/form-messages";

/** The most one assignment may take. */
export const MAX_QTY = 100_000;

/** What a 422 of each form says above its fields. */
export const ASSIGNMENT_FORM_SUMMARY = {
  manual: message("sales.manual.create_error"),
  reassign: message("sales.reassign.save_error"),
  dnh: message("sales.dnh.save_error"),
};

const asText = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/** A text field: trimmed, required, at most `max` characters; one message per field. */
const requiredText = (required: string, tooLong: string, max: number) =>
  z.preprocess(asText, z.string()).transform((value, ctx) => {
    const trimmed = value.trim();
    if (!trimmed) ctx.addIssue({ code: "custom", message: required });
    else if (trimmed.length > max) ctx.addIssue({ code: "custom", message: tooLong });
    return trimmed;
  });

/** A whole number from 1 to `max`, sent as text or number; one message per field. */
const wholeNumber = (required: string, invalid: string, max: number) =>
  z.preprocess(asText, z.string()).transform((value, ctx) => {
    const trimmed = value.trim();
    if (!trimmed) ctx.addIssue({ code: "custom", message: required });
    else if (!/^\d{1,9}$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > max) ctx.addIssue({ code: "custom", message: invalid });
    return Number(trimmed);
  });

const storeId = () => requiredText("sales.rules.store_required", coded("sales.rules.too_long", { max: 64 }), 64);

/** The rows of POST /api/manual_assignment: form fields assignments[n][field] or a JSON list. */
export function readAssignmentRows(body: Record<string, unknown>): Array<Record<string, unknown>> {
  if (Array.isArray(body.assignments)) return body.assignments.map((row) => (row && typeof row === "object" ? (row as Record<string, unknown>) : {}));
  const rows = new Map<number, Record<string, unknown>>();
  for (const [key, value] of Object.entries(body)) {
    const match = /^assignments\[(\d{1,4})\]\[(item_id|store_id|qty_assigned)\]$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    (rows.get(index) ?? rows.set(index, {}).get(index)!)[match[2]] = value;
  }
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
}

const manualRow = z.object({
  item_id: wholeNumber("sales.rules.item_required", "sales.rules.item_required", 2 ** 31 - 1),
  store_id: storeId(),
  qty_assigned: wholeNumber("sales.rules.qty_required", "sales.rules.qty_positive", MAX_QTY),
});

/** POST /api/manual_assignment: order_id and its rows. */
export const manualAssignmentForm = z.preprocess(
  (body) => {
    const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
    return { order_id: fields.order_id, assignments: readAssignmentRows(fields) };
  },
  z.object({
    order_id: requiredText("sales.rules.order_required", "sales.rules.order_required", 64),
    assignments: z.array(manualRow).min(1, "sales.rules.no_rows").max(500),
  }),
);
export type ManualAssignmentInput = z.infer<typeof manualAssignmentForm>;

/** POST /api/reassignment/{id}: the store or dropshipper to take it. */
export const reassignForm = z.object({ store_id: storeId() });
export type ReassignInput = z.infer<typeof reassignForm>;

/** POST /api/dnh: the transfer that took the assignment. */
export const dnhForm = z.object({
  assignment_id: wholeNumber("sales.rules.assignment_required", "sales.rules.assignment_required", 2 ** 31 - 1),
  transfer_num: requiredText("sales.rules.transfer_num_required", coded("sales.rules.too_long", { max: 50 }), 50),
  // Multipart forms send line breaks as CRLF: stored as typed.
  reason: requiredText("sales.rules.reason_required", coded("sales.rules.too_long", { max: 1000 }), 1000).transform((value) => value.replace(/\r\n?/g, "\n")),
});
export type DnhInput = z.infer<typeof dnhForm>;
