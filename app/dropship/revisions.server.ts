// Drop-ship requests and responses as staff see and revise them (spec 000 §2,
// §3, §5): the grids' answers, the revise forms' load and save. A revised request or
// response is marked for processing again, so the next run of its step picks
// it up ("re-processed the next time the cron runs").
import prisma from "~/db.server";
import type { DropshipRequest, DropshipResponse } from "~/db/generated/client";
import { runGrid } from "~/grid/grid.server";
import { message, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, ValidationError } from "~/lib/validation.server";
import { writeLogs } from "./flow/context.server";
import { purchaseOrderNumber } from "./flow/populate-requests.server";
import { dropshipRequestGrid, dropshipResponseGrid } from "./grids.server";
import { requestSaveEffect, responseSaveEffect, statusAfterRequestSave } from "./revise-rules";
import type { NewRequestInput, NewResponseInput, RequestInput, ResponseInput } from "./revise-forms";

export const listRequests = (params: URLSearchParams) => runGrid(dropshipRequestGrid, params);
export const listResponses = (params: URLSearchParams) => runGrid(dropshipResponseGrid, params);

// --- the revise forms ------------------------------------------------------------

/** Both forms' first fields: the vendor, the assignment and the line. */
const LINE_FIELDS = ["vendor_name", "assignment_id", "po_number", "order_increment_id", "item_sku", "qty"] as const;
/** Form fields of a request (spec 000 §3): the first four read-only. */
export const REQUEST_FORM_FIELDS = [
  ...LINE_FIELDS,
  "ship_name_first",
  "ship_name_last",
  "ship_address",
  "ship_city",
  "ship_state",
  "ship_zip",
  "country_id",
] as const;
export const RESPONSE_FORM_FIELDS = [...LINE_FIELDS, "tracking_number", "tracking_carrier"] as const;

const pick = <T extends object>(record: T, fields: readonly string[]) =>
  Object.fromEntries(fields.map((field) => [field, (record as Record<string, unknown>)[field] ?? null])) as Record<string, string | number | null>;

export async function findRequest(id: number): Promise<DropshipRequest> {
  const request = Number.isSafeInteger(id) && id > 0 ? await prisma.dropshipRequest.findUnique({ where: { request_id: id } }) : null;
  if (!request) throw new NotFoundError(`Drop-ship request ${id} does not exist`);
  return request;
}

export async function findResponse(id: number): Promise<DropshipResponse> {
  const response = Number.isSafeInteger(id) && id > 0 ? await prisma.dropshipResponse.findUnique({ where: { id } }) : null;
  if (!response) throw new NotFoundError(`Drop-ship response ${id} does not exist`);
  return response;
}

/**
 * The revise form's load: the fields, and read-only what the vendor said of the request (its last 855:
 * expected date, codes, note) and what was asked back of it (its cancellations, oldest first).
 */
export async function getRequestForm(id: number) {
  const request = await findRequest(id);
  const cancellations = await prisma.dropshipCancellation.findMany({
    where: { request_id: request.request_id },
    orderBy: { id: "asc" },
    select: {
      id: true,
      change_number: true,
      qty: true,
      whole: true,
      cause: true,
      status: true,
      answer_codes: true,
      answer_note: true,
      created_at: true,
      sent_at: true,
      answered_at: true,
    },
  });
  return {
    request_id: request.request_id,
    status: request.status,
    vendor_id: request.vendor_id,
    transmission_id: request.transmission_id,
    responses_count: await prisma.dropshipResponse.count({ where: { request_id: request.request_id } }),
    qty_cancelled: request.qty_cancelled,
    ...pick(request, REQUEST_FORM_FIELDS),
    vendor_answer: {
      expected_date: request.vendor_expected_date?.toISOString().slice(0, 10) ?? null,
      codes: request.vendor_codes,
      note: request.vendor_note,
    },
    cancellations: cancellations.map((row) => ({
      ...row,
      created_at: row.created_at.toISOString(),
      sent_at: row.sent_at?.toISOString() ?? null,
      answered_at: row.answered_at?.toISOString() ?? null,
    })),
  };
}

export async function getResponseForm(id: number) {
  const response = await findResponse(id);
  return {
    id: response.id,
    status: response.status,
    response_type: response.response_type,
    // What the vendor said of the line (an 855's status and note, D231) and what the response links to (issue 32).
    line_status: response.line_status,
    detail: response.detail,
    request_id: response.request_id,
    vendor_id: response.vendor_id,
    transmission_id: response.transmission_id,
    ...pick(response, RESPONSE_FORM_FIELDS),
  };
}

/** Saves a revised request; the read-only fields are kept as they are. It is sent again at the next run. */
export async function updateRequest(request: DropshipRequest, data: RequestInput) {
  const id = request.request_id;
  // Asked back from the vendor (D225): sending it again would undo the cancellation; Send to another source instead.
  // What the revise page says Save does is read from the same rule (revise-rules.ts).
  if (requestSaveEffect(request.status).kind === "refused")
    throw new ValidationError({ status: [message(`cancel_ui.revise_refused.${request.status}`, { po: request.po_number })] });
  const reopened = statusAfterRequestSave(request.status);
  await prisma.dropshipRequest.update({ where: { request_id: id }, data: { ...data, needs_processing: true, status: reopened } });
  return { error: false, message: null };
}

/** Request statuses the grid's bulk Resend sends again: the vendor turned them down or could not ship them yet (D270). */
export const RESENDABLE_STATUSES = ["rejected", "backordered"] as const;

/**
 * The requests grid's bulk Resend: the revise page's Save with nothing changed (updateRequest reopens it
 * to pending, to be sent at the next run), for a request the vendor rejected or backordered; any other
 * status is refused with the reason.
 */
export async function resendRequest(id: number) {
  const request = await findRequest(id);
  if (!(RESENDABLE_STATUSES as readonly string[]).includes(request.status))
    throw new ValidationError(
      { status: [message("bulk.refused.not_resendable", { po: request.po_number, status: message(`requests.statuses.${request.status}`) })] },
      message("bulk.refused.not_resendable", { po: request.po_number, status: message(`requests.statuses.${request.status}`) }),
    );
  await updateRequest(request, {} as RequestInput);
  return { error: false, message: message("bulk.done.resent", { po: request.po_number }) };
}

/** Saves a revised response; it is processed again at the next run. */
export async function updateResponse(response: DropshipResponse, data: ResponseInput) {
  const id = response.id;
  await prisma.dropshipResponse.update({
    where: { id },
    data: { ...data, needs_processing: true, status: responseSaveEffect(response.status).to, processed_at: null },
  });
  return { error: false, message: null };
}

// --- created by hand (spec 000 §7: POST without an id) ---------------------------

/**
 * A ship request made by hand for a drop-ship assignment that has none (a
 * vendor phoned in, or step 1 was skipped): the assignment's vendor, order and
 * PO number, with the fields staff give, validated as a revision is. It is
 * sent at the next run, as step 1's are, and its assignment becomes Processing.
 */
export async function createRequest(data: NewRequestInput) {
  const refuse = (problem: CodedMessage): never => {
    throw new ValidationError({ assignment_id: [problem] });
  };
  return prisma.$transaction(async (tx) => {
    const [assignment] = await tx.$queryRaw<
      Array<{
        id: number;
        order_increment_id: string;
        purchase_order: string | null;
        assign_status: number;
        vendor_id: number | null;
        vendor_name: string | null;
        has_request: boolean;
        has_transfer: boolean;
      }>
    >`
      SELECT a.id, a.order_increment_id, a.purchase_order, a.assign_status, v.id AS vendor_id, v.name AS vendor_name,
             EXISTS (SELECT 1 FROM dropship_request r WHERE r.assignment_id = a.id) AS has_request,
             EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id) AS has_transfer
        FROM assignment a
        LEFT JOIN LATERAL (SELECT id, name FROM dropship_vendor
                            WHERE store_id = a.store_id AND enabled = 1 AND archived_at IS NULL ORDER BY id LIMIT 1) v ON true
       WHERE a.id = ${data.assignment_id}
         FOR UPDATE OF a`;
    if (!assignment) return refuse(message("revise.errors.no_assignment", { id: data.assignment_id }));
    if (assignment.has_request) return refuse(message("revise.errors.has_request", { id: assignment.id }));
    if (!assignment.vendor_id || assignment.has_transfer || ![1, 2].includes(assignment.assign_status))
      return refuse(message("revise.errors.not_dropship", { id: assignment.id }));
    const { assignment_id, ...fields } = data;
    let po = purchaseOrderNumber(assignment);
    if (await tx.dropshipRequest.findUnique({ where: { po_number: po }, select: { request_id: true } }))
      po = `PO${assignment.order_increment_id}-A${assignment.id}`.slice(0, 22);
    const created = await tx.dropshipRequest.create({
      data: {
        ...fields,
        assignment_id,
        vendor_id: assignment.vendor_id,
        vendor_name: assignment.vendor_name!,
        po_number: po,
        order_increment_id: assignment.order_increment_id,
        status: "pending",
        needs_processing: true,
      },
    });
    await tx.assignment.update({ where: { id: assignment.id }, data: { assign_status: 2, purchase_order: po, update_time: new Date() } });
    await writeLogs(
      [
        {
          vendor_id: assignment.vendor_id,
          vendor_name: assignment.vendor_name,
          action: "populate_requests",
          status: "success",
          po_number: po,
          order_increment_id: assignment.order_increment_id,
          item_sku: fields.item_sku,
          qty: fields.qty,
          message:
            `Ship request ${po} created by hand for ${fields.qty} x ${fields.item_sku} of order ` +
            `${assignment.order_increment_id}; assignment ${assignment.id} is now Processing.`,
        },
      ],
      tx,
    );
    return { error: false, message: null, request_id: created.request_id, po_number: po };
  });
}

/**
 * A shipment made by hand for a ship request (tracking given by phone or
 * e-mail): recorded as a received 856 line, so that the next run fulfils it
 * in Shopify exactly as a vendor's would be.
 */
export async function createResponse(data: NewResponseInput) {
  return prisma.$transaction(async (tx) => {
    const request = await tx.dropshipRequest.findUnique({ where: { po_number: data.po_number } });
    if (!request) throw new ValidationError({ po_number: [message("revise.errors.no_request", { po: data.po_number })] });
    const created = await tx.dropshipResponse.create({
      data: {
        ...data,
        request_id: request.request_id,
        vendor_id: request.vendor_id,
        vendor_name: request.vendor_name,
        assignment_id: request.assignment_id,
        order_increment_id: request.order_increment_id,
        response_type: "856",
        status: "received",
        needs_processing: true,
      },
    });
    if (["pending", "sent", "acknowledged", "backordered"].includes(request.status))
      await tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "shipped" } });
    await writeLogs(
      [
        {
          vendor_id: request.vendor_id,
          vendor_name: request.vendor_name,
          action: "process_responses",
          status: "success",
          po_number: request.po_number,
          order_increment_id: request.order_increment_id,
          item_sku: data.item_sku,
          qty: data.qty,
          tracking_number: data.tracking_number,
          message:
            `Shipment of PO ${request.po_number} entered by hand (${data.tracking_carrier} ` +
            `${data.tracking_number}); it is fulfilled in Shopify at the next run.`,
        },
      ],
      tx,
    );
    return { error: false, message: null, id: created.id };
  });
}
