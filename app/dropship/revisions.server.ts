// Drop-ship requests and responses as staff see and revise them (spec 000 §2,
// §3, §5): the grids' answers, the revise forms' load and save. A revised request or
// response is marked for processing again, so the next run of its step picks
// it up ("re-processed the next time the cron runs").
import { z } from "zod";
import prisma from "~/db.server";
import type { DropshipRequest, DropshipResponse } from "~/db/generated/client";
import { runGrid } from "~/grid/grid.server";
import type { Translate } from "~/i18n/i18n.server";
import { fieldErrorsFromZod, NotFoundError, ValidationError } from "~/lib/validation.server";
import { dropshipRequestGrid, dropshipResponseGrid } from "./grids.server";

export const listRequests = (params: URLSearchParams, t: Translate) => runGrid(dropshipRequestGrid, params, t);
export const listResponses = (params: URLSearchParams, t: Translate) => runGrid(dropshipResponseGrid, params, t);

// --- the revise forms ------------------------------------------------------------

/** Form fields of a request (spec 000 §3): the first four read-only. */
export const REQUEST_FORM_FIELDS = ["vendor_name", "assignment_id", "po_number", "order_increment_id", "item_sku", "qty", "ship_name_first", "ship_name_last", "ship_address", "ship_city", "ship_state", "ship_zip", "country_id"] as const;
export const RESPONSE_FORM_FIELDS = ["vendor_name", "assignment_id", "po_number", "order_increment_id", "item_sku", "qty", "tracking_number", "tracking_carrier"] as const;

const pick = <T extends object>(record: T, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, (record as Record<string, unknown>)[field] ?? null])) as Record<string, string | number | null>;

function requiredText(t: Translate, field: string, max: number) {
  const label = t(`revise.fields.${field}`);
  return z
    .string({ message: t("revise.errors.required", { field: label }) })
    .trim()
    .min(1, t("revise.errors.required", { field: label }))
    .max(max, t("revise.errors.too_long", { field: label, max }));
}

function quantity(t: Translate) {
  const label = t("revise.fields.qty");
  return z.coerce
    .number({ message: t("revise.errors.quantity", { field: label }) })
    .int(t("revise.errors.quantity", { field: label }))
    .min(1, t("revise.errors.quantity", { field: label }))
    .max(100_000, t("revise.errors.quantity", { field: label }));
}

function parse<T extends z.ZodType>(schema: T, body: Record<string, unknown>, t: Translate): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw new ValidationError(fieldErrorsFromZod(result.error.issues), t("errors.unprocessable"));
  return result.data;
}

async function findRequest(id: number): Promise<DropshipRequest> {
  const request = Number.isSafeInteger(id) && id > 0 ? await prisma.dropshipRequest.findUnique({ where: { request_id: id } }) : null;
  if (!request) throw new NotFoundError(`Drop-ship request ${id} does not exist`);
  return request;
}

async function findResponse(id: number): Promise<DropshipResponse> {
  const response = Number.isSafeInteger(id) && id > 0 ? await prisma.dropshipResponse.findUnique({ where: { id } }) : null;
  if (!response) throw new NotFoundError(`Drop-ship response ${id} does not exist`);
  return response;
}

export async function getRequestForm(id: number) {
  const request = await findRequest(id);
  return { request_id: request.request_id, status: request.status, ...pick(request, REQUEST_FORM_FIELDS) };
}

export async function getResponseForm(id: number) {
  const response = await findResponse(id);
  return { id: response.id, status: response.status, response_type: response.response_type, ...pick(response, RESPONSE_FORM_FIELDS) };
}

function requestSchema(t: Translate) {
  return z.object({
    item_sku: requiredText(t, "item_sku", 64),
    qty: quantity(t),
    ship_name_first: requiredText(t, "ship_name_first", 60),
    ship_name_last: requiredText(t, "ship_name_last", 60),
    // Up to four lines (spec 000 §9: the address field has 4 lines).
    ship_address: requiredText(t, "ship_address", 240).refine((value) => value.split(/\r?\n/).length <= 4, t("revise.errors.address_lines")),
    ship_city: requiredText(t, "ship_city", 60),
    ship_state: requiredText(t, "ship_state", 30),
    ship_zip: requiredText(t, "ship_zip", 15).regex(/^[A-Za-z0-9 -]+$/, t("revise.errors.zip")),
    country_id: requiredText(t, "country_id", 2).regex(/^[A-Za-z]{2}$/, t("revise.errors.country")).transform((value) => value.toUpperCase()),
  });
}

/** Saves a revised request; the read-only fields are kept as they are. It is sent again at the next run. */
export async function updateRequest(id: number, body: Record<string, unknown>, t: Translate) {
  const request = await findRequest(id);
  const data = parse(requestSchema(t), body, t);
  const reopened = ["rejected", "backordered", "sent", "acknowledged"].includes(request.status) ? "pending" : request.status;
  await prisma.dropshipRequest.update({ where: { request_id: id }, data: { ...data, needs_processing: true, status: reopened } });
  return { error: false, message: null };
}

function responseSchema(t: Translate) {
  return z.object({
    item_sku: requiredText(t, "item_sku", 64),
    qty: quantity(t),
    tracking_number: requiredText(t, "tracking_number", 60).regex(/^[A-Za-z0-9 -]+$/, t("revise.errors.tracking")),
    tracking_carrier: requiredText(t, "tracking_carrier", 40),
  });
}

/** Saves a revised response; it is processed again at the next run. */
export async function updateResponse(id: number, body: Record<string, unknown>, t: Translate) {
  await findResponse(id);
  const data = parse(responseSchema(t), body, t);
  await prisma.dropshipResponse.update({ where: { id }, data: { ...data, needs_processing: true, status: "received", processed_at: null } });
  return { error: false, message: null };
}
