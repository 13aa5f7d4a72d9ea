// The drop-ship revise forms (spec 000 §3, §7), declared once (D127): each
// form's zod schema with coded messages; the routes parse with `parseInput` and
// the domain (./revisions.server.ts) takes the typed input.
import { z } from "zod";
import { message } from "~/i18n/messages";
import { coded } from "~/lib/form-messages";

const label = (field: string) => message(`revise.fields.${field}`);
const required = (field: string) => coded("revise.errors.required", { field: label(field) });

function requiredText(field: string, max: number) {
  return z
    .string({ message: required(field) })
    .trim()
    .min(1, required(field))
    .max(max, coded("revise.errors.too_long", { field: label(field), max }));
}

function quantity() {
  const problem = coded("revise.errors.quantity", { field: label("qty") });
  return z.coerce.number({ message: problem }).int(problem).min(1, problem).max(100_000, problem);
}

function idOf(field: string) {
  return z.coerce
    .number({ message: required(field) })
    .int(required(field))
    .positive(required(field))
    .max(2_147_483_647);
}

/** A request's revisable fields. */
export const requestForm = z.object({
  item_sku: requiredText("item_sku", 64),
  qty: quantity(),
  ship_name_first: requiredText("ship_name_first", 60),
  ship_name_last: requiredText("ship_name_last", 60),
  // Up to four lines (spec 000 §9: the address field has 4 lines).
  ship_address: requiredText("ship_address", 240).refine((value) => value.split(/\r?\n/).length <= 4, "revise.errors.address_lines"),
  ship_city: requiredText("ship_city", 60),
  ship_state: requiredText("ship_state", 30),
  ship_zip: requiredText("ship_zip", 15).regex(/^[A-Za-z0-9 -]+$/, "revise.errors.zip"),
  country_id: requiredText("country_id", 2)
    .regex(/^[A-Za-z]{2}$/, "revise.errors.country")
    .transform((value) => value.toUpperCase()),
});
export type RequestInput = z.infer<typeof requestForm>;

/** A response's revisable fields. */
export const responseForm = z.object({
  item_sku: requiredText("item_sku", 64),
  qty: quantity(),
  tracking_number: requiredText("tracking_number", 60).regex(/^[A-Za-z0-9 -]+$/, "revise.errors.tracking"),
  tracking_carrier: requiredText("tracking_carrier", 40),
});
export type ResponseInput = z.infer<typeof responseForm>;

/** A request made by hand: the revise form's fields and the assignment it is for. */
export const newRequestForm = requestForm.extend({ assignment_id: idOf("assignment_id") });
export type NewRequestInput = z.infer<typeof newRequestForm>;

/** A shipment made by hand: the response form's fields and the PO number it ships. */
export const newResponseForm = responseForm.extend({ po_number: requiredText("po_number", 22) });
export type NewResponseInput = z.infer<typeof newResponseForm>;
