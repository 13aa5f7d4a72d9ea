// Taking units back from the drop-ship vendor that has them (issue 29, D225).
// Whatever the cause (staff delete, reassign, transfer or reroute an assignment;
// the order is cancelled; a line is refunded or edited away), one function
// decides, inside the caller's transaction with the assignment locked:
//   - a request not yet claimed into a file is withdrawn (it never goes out);
//   - a request the vendor has, or will have once its file is uploaded, gets a
//     cancellation: a dropship_cancellation row, written into a file and sent
//     once by Send Ship Requests (app/dropship/flow), answered by the vendor;
//   - a rejected request needs nothing sent; a shipped one is too late.
// The vendor's answer settles the cancellation here too, so the request's and
// the assignment's statuses move in one place, always forward.
import { logMessage } from "~/i18n/english.server";
import { message, type RunMessage } from "~/i18n/messages";
import type { Prisma } from "~/db/generated/client";
import { ACTIVE_ASSIGNMENT, ASSIGN_STATUS } from "./assignment-status.server";

type Tx = Prisma.TransactionClient;

export const CANCELLATION_CAUSES = ["deleted", "reassigned", "transferred", "order_cancelled", "line_removed", "order_system_canceled", "tools"] as const;
export type CancellationCause = (typeof CANCELLATION_CAUSES)[number];

/** Request statuses in which the vendor has the PO and has not shipped it: what a cancellation can still stop. */
export const VENDOR_HAS_IT = ["sent", "acknowledged", "backordered"] as const;

/** The assignment as the caller locked it. */
export interface HeldAssignment {
  id: number;
  order_increment_id: string;
  product_sku: string;
  qty_assigned: number;
}

/**
 * What happened to the vendor's side of an assignment:
 * - none: no ship request (a store, or a Pending assignment);
 * - withdrawn: the request was not in a file yet; it is deleted (whole) or made smaller (part);
 * - requested: a cancellation goes to the vendor (`cancellationId`);
 * - not_needed: the vendor rejected the request, or a cancellation of it is already under way;
 * - too_late: the vendor shipped it, or refused to cancel it.
 */
export type TakeBackOutcome =
  | { kind: "none" }
  | { kind: "withdrawn"; po: string; vendor: string; qty: number; whole: boolean }
  | { kind: "requested"; po: string; vendor: string; qty: number; whole: boolean; cancellationId: number }
  | { kind: "not_needed"; po: string; vendor: string; status: string }
  | { kind: "too_late"; po: string; vendor: string; status: string };

interface LockedRequest {
  request_id: number;
  po_number: string;
  vendor_id: number;
  vendor_name: string;
  status: string;
  qty: number;
  qty_cancelled: number;
  transmission_id: number | null;
  /** Units of it already asked back by cancellations not refused. */
  asked: number;
}

async function lockRequest(tx: Tx, assignmentId: number): Promise<LockedRequest | null> {
  const [request] = await tx.$queryRaw<LockedRequest[]>`
    SELECT r.request_id, r.po_number, r.vendor_id, r.vendor_name, r.status, r.qty, r.qty_cancelled, r.transmission_id,
           COALESCE((SELECT SUM(c.qty) FROM dropship_cancellation c WHERE c.request_id = r.request_id AND c.status IN ('pending', 'sent')), 0)::int AS asked
      FROM dropship_request r WHERE r.assignment_id = ${assignmentId}
       FOR UPDATE OF r`;
  return request ?? null;
}

/** The drop-ship log line of a change to a request, written in the caller's transaction. */
export async function writeRequestLog(
  tx: Tx,
  request: { vendor_id: number; vendor_name: string; po_number: string },
  assignment: Pick<HeldAssignment, "order_increment_id" | "product_sku">,
  line: { action: string; status: "info" | "success" | "warning" | "error"; qty?: number | null; code: string; params: Record<string, unknown> },
  file?: { name: string; transmissionId: number } | null,
) {
  const text = logMessage(line.code, line.params);
  await tx.dropshipLog.create({
    data: {
      vendor_id: request.vendor_id,
      vendor_name: request.vendor_name,
      action: line.action,
      status: line.status,
      po_number: request.po_number,
      order_increment_id: assignment.order_increment_id,
      item_sku: assignment.product_sku,
      qty: line.qty ?? null,
      file_name: file?.name ?? null,
      transmission_id: file?.transmissionId ?? null,
      message: text.message,
      message_code: text.message_code as Prisma.InputJsonValue,
    },
  });
}

/** Why, in words for the log: "assignment 12 was deleted", "the order was cancelled in Shopify"… */
export function causeText(cause: CancellationCause, assignmentId: number, detail: Record<string, unknown> = {}): RunMessage {
  return message(`cancellations.cause.${cause}`, { assignment: assignmentId, ...detail });
}

/**
 * Takes `qty` units (default: all the request still has) of the assignment back from its vendor.
 * The assignment's own status is left to the caller, except for what only this knows: a whole
 * cancellation marks it Cancel Requested, a partial one (or a partial withdrawal) lowers its quantity.
 */
export async function takeBackFromVendor(
  tx: Tx,
  assignment: HeldAssignment,
  cause: CancellationCause,
  options: { qty?: number; detail?: Record<string, unknown> } = {},
): Promise<TakeBackOutcome> {
  const request = await lockRequest(tx, assignment.id);
  if (!request) return { kind: "none" };
  const vendor = request.vendor_name;
  const po = request.po_number;
  const why = causeText(cause, assignment.id, options.detail);
  const stillOrdered = request.qty - request.qty_cancelled - request.asked;
  if (request.status === "rejected" || request.status === "cancel_requested" || request.status === "cancelled")
    return { kind: "not_needed", po, vendor, status: request.status };
  if (stillOrdered <= 0) return { kind: "not_needed", po, vendor, status: request.status };
  const inFile = request.transmission_id !== null;
  const vendorHasIt = (VENDOR_HAS_IT as readonly string[]).includes(request.status) || (request.status === "pending" && inFile);
  if (!vendorHasIt) {
    if (request.status !== "pending") return { kind: "too_late", po, vendor, status: request.status };
    // Not claimed into a file: nothing left us, so nothing is sent.
    const qty = Math.min(options.qty ?? stillOrdered, stillOrdered);
    const whole = qty >= request.qty;
    if (whole) await tx.dropshipRequest.delete({ where: { request_id: request.request_id } });
    else {
      await tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { qty: { decrement: qty } } });
      await tx.assignment.update({ where: { id: assignment.id }, data: { qty_assigned: { decrement: qty } } });
    }
    await writeRequestLog(tx, request, assignment, {
      action: "populate_requests",
      status: "info",
      qty,
      code: whole ? "cancellations.log.withdrawn" : "cancellations.log.withdrawn_part",
      params: { po, qty, of: request.qty, why },
    });
    return { kind: "withdrawn", po, vendor, qty, whole };
  }

  const qty = Math.min(options.qty ?? stillOrdered, stillOrdered);
  const whole = qty >= stillOrdered;
  const [{ next }] = await tx.$queryRaw<Array<{ next: number }>>`
    SELECT (COALESCE(MAX(change_number), 0) + 1)::int AS next FROM dropship_cancellation WHERE po_number = ${po}`;
  const cancellation = await tx.dropshipCancellation.create({
    data: { request_id: request.request_id, vendor_id: request.vendor_id, po_number: po, qty, whole, change_number: next, cause },
    select: { id: true },
  });
  // A request still in a file not uploaded yet stays pending: the upload makes it sent, then its cancellation goes.
  if (whole && request.status !== "pending")
    await tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: "cancel_requested" } });
  if (whole) await tx.assignment.update({ where: { id: assignment.id }, data: { assign_status: ASSIGN_STATUS.cancel_requested } });
  else await tx.assignment.update({ where: { id: assignment.id }, data: { qty_assigned: { decrement: qty } } });
  await writeRequestLog(tx, request, assignment, {
    action: "cancel_requests",
    status: "info",
    qty,
    code: inFile && request.status === "pending" ? "cancellations.log.queued_after_file" : "cancellations.log.queued",
    params: { po, qty, of: request.qty - request.qty_cancelled, vendor, why, change: next },
  });
  return { kind: "requested", po, vendor, qty, whole, cancellationId: cancellation.id };
}

// ---------------------------------------------------------------------------
// The vendor's answer

export type CancellationSettlement = "accepted" | "refused" | "done";

export interface SettleInput {
  cancellationId: number;
  outcome: CancellationSettlement;
  /** The vendor's file that answered (none for "done": the vendor does not answer). */
  file?: { name: string; transmissionId: number } | null;
  codes?: string[];
  note?: string | null;
}

export interface SettleResult {
  /** Nothing changed: the cancellation was settled before (a file read twice). */
  already: boolean;
  po: string;
  /** Refused while another assignment holds the same units: a possible double shipment. */
  doubleShipment: boolean;
}

/** A drop-ship log line the settling wrote, for the caller to write with its own (the file's) lines. */
export interface SettleLogLine {
  vendor_id: number;
  vendor_name: string;
  action: "cancel_answers";
  status: "success" | "warning" | "error";
  po_number: string;
  order_increment_id: string;
  item_sku: string;
  qty: number;
  file_name: string | null;
  transmission_id: number | null;
  message: string;
  message_code: RunMessage;
}

interface Settling {
  id: number;
  status: string;
  qty: number;
  whole: boolean;
  po_number: string;
  request_id: number;
  assignment_id: number;
  request_status: string;
  vendor_id: number;
  vendor_name: string;
  order_increment_id: string;
  product_sku: string;
  item_id: number;
  assign_status: number;
}

/** Request statuses from which a settled cancellation still moves the request: it has not shipped meanwhile. */
const UNSHIPPED = ["pending", "sent", "acknowledged", "backordered", "cancel_requested"];

/**
 * Settles sent cancellations, a batch in a few statements (an 865 file may answer thousands): accepted
 * (or done) makes each request cancelled (whole) or smaller (qty_cancelled), its assignment Cancelled;
 * refused leaves the request to be shipped (cancel_refused), the assignment holding its units again.
 * Statuses only move forward: a request shipped meanwhile stays shipped. A cancellation settled before
 * is left as it is (`already`). The log lines are returned, not written.
 */
export async function settleCancellations(tx: Tx, inputs: SettleInput[]): Promise<{ results: SettleResult[]; logs: SettleLogLine[] }> {
  if (inputs.length === 0) return { results: [], logs: [] };
  const rows = await tx.$queryRaw<Settling[]>`
    SELECT c.id, c.status, c.qty, c.whole, c.po_number, c.request_id, r.assignment_id, r.status AS request_status, r.vendor_id, r.vendor_name,
           a.order_increment_id, a.product_sku, a.item_id, a.assign_status
      FROM dropship_cancellation c JOIN dropship_request r ON r.request_id = c.request_id JOIN assignment a ON a.id = r.assignment_id
     WHERE c.id = ANY(${inputs.map((input) => input.cancellationId)}::int[])
     ORDER BY c.id
       FOR UPDATE OF c, r, a`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const settling = new Map<number, { row: Settling; input: SettleInput }>();
  for (const input of inputs) {
    const row = byId.get(input.cancellationId);
    if (!row) throw new Error(`cancellation ${input.cancellationId} does not exist`);
    if ((row.status === "sent" || row.status === "pending") && !settling.has(row.id)) settling.set(row.id, { row, input });
  }
  const settled = [...settling.values()];
  // What each request and assignment becomes, summed over the batch (two parts of one PO may be answered at once).
  const requests = new Map<number, { cancelled: number; status: string | null }>();
  const assignments = new Map<number, { status: number | null; qty: number }>();
  const refusedItems = new Set<number>();
  for (const { row, input } of settled) {
    const request = requests.get(row.request_id) ?? { cancelled: 0, status: null };
    const assignment = assignments.get(row.assignment_id) ?? { status: null, qty: 0 };
    const unshipped = UNSHIPPED.includes(row.request_status);
    if (input.outcome === "refused") {
      if (row.whole && unshipped) request.status = "cancel_refused";
      if (row.whole && row.assign_status === ASSIGN_STATUS.cancel_requested) assignment.status = ASSIGN_STATUS.cancel_refused;
      if (!row.whole) assignment.qty += row.qty;
      refusedItems.add(row.item_id);
    } else {
      request.cancelled += row.qty;
      if (row.whole && unshipped) request.status = "cancelled";
      if (row.whole && row.assign_status === ASSIGN_STATUS.cancel_requested) assignment.status = ASSIGN_STATUS.cancelled;
    }
    requests.set(row.request_id, request);
    assignments.set(row.assignment_id, assignment);
  }
  if (settled.length) {
    const list = <T>(pick: (entry: { row: Settling; input: SettleInput }) => T) => settled.map(pick);
    await tx.$executeRaw`
      UPDATE dropship_cancellation c
         SET status = t.status, answered_at = CASE WHEN t.status = 'done' THEN NULL ELSE now() END, answer_transmission_id = t.file,
             answer_codes = COALESCE(string_to_array(t.codes, ' '), '{}'), answer_note = t.note, updated_at = now()
        FROM unnest(${list((e) => e.row.id)}::int[], ${list((e) => e.input.outcome)}::text[], ${list((e) => e.input.file?.transmissionId ?? null)}::int[],
                    ${list((e) => (e.input.codes ?? []).join(" ") || null)}::text[], ${list((e) => e.input.note ?? null)}::text[])
             AS t(id, status, file, codes, note)
       WHERE c.id = t.id`;
    const request = [...requests.entries()];
    await tx.$executeRaw`
      UPDATE dropship_request r SET qty_cancelled = r.qty_cancelled + t.cancelled, status = COALESCE(t.status, r.status), updated_at = now()
        FROM unnest(${request.map(([id]) => id)}::int[], ${request.map(([, r]) => r.cancelled)}::int[], ${request.map(([, r]) => r.status)}::text[])
             AS t(id, cancelled, status)
       WHERE r.request_id = t.id`;
    const assignment = [...assignments.entries()];
    await tx.$executeRaw`
      UPDATE assignment a SET assign_status = COALESCE(t.status, a.assign_status), qty_assigned = a.qty_assigned + t.qty, update_time = now()
        FROM unnest(${assignment.map(([id]) => id)}::int[], ${assignment.map(([, a]) => a.status)}::int[], ${assignment.map(([, a]) => a.qty)}::int[])
             AS t(id, status, qty)
       WHERE a.id = t.id`;
  }
  const twice = await itemsHeldTwice(tx, [...refusedItems]);
  const logs: SettleLogLine[] = [];
  const results = inputs.map((input): SettleResult => {
    const row = byId.get(input.cancellationId)!;
    const mine = settling.get(row.id)?.input === input;
    return { already: !mine, po: row.po_number, doubleShipment: mine && input.outcome === "refused" && twice.has(row.item_id) };
  });
  for (const [i, input] of inputs.entries()) {
    if (results[i].already) continue;
    const row = byId.get(input.cancellationId)!;
    const line = (status: SettleLogLine["status"], code: string, params: Record<string, unknown>): SettleLogLine => ({
      vendor_id: row.vendor_id,
      vendor_name: row.vendor_name,
      action: "cancel_answers",
      status,
      po_number: row.po_number,
      order_increment_id: row.order_increment_id,
      item_sku: row.product_sku,
      qty: row.qty,
      file_name: input.file?.name ?? null,
      transmission_id: input.file?.transmissionId ?? null,
      ...logMessage(code, params),
    });
    const note = input.note ? message("logs.paren", { text: input.note }) : "";
    const codes = (input.codes ?? []).join(" ");
    logs.push(
      line(input.outcome === "refused" ? "warning" : "success", `cancellations.log.${input.outcome}`, {
        po: row.po_number,
        qty: row.qty,
        vendor: row.vendor_name,
        codes,
        note,
      }),
    );
    if (results[i].doubleShipment) logs.push(line("error", "cancellations.log.double_shipment", { po: row.po_number, vendor: row.vendor_name }));
  }
  return { results, logs };
}

/** One cancellation settled, its log lines written in the caller's transaction. */
export async function settleCancellation(tx: Tx, input: SettleInput): Promise<SettleResult> {
  const { results, logs } = await settleCancellations(tx, [input]);
  if (logs.length) await tx.dropshipLog.createMany({ data: logs.map((log) => ({ ...log, message_code: log.message_code as Prisma.InputJsonValue })) });
  return results[0];
}

/** Of these items, those whose assignments hold more than the line still needs shipped: two sources may ship the same units. */
async function itemsHeldTwice(tx: Tx, itemIds: number[]): Promise<Set<number>> {
  if (itemIds.length === 0) return new Set();
  const rows = await tx.$queryRaw<Array<{ item_id: number }>>`
    SELECT i.item_id FROM order_item i
     WHERE i.item_id = ANY(${itemIds}::int[])
       AND COALESCE((SELECT SUM(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id AND ${ACTIVE_ASSIGNMENT}), 0)
           > GREATEST(0, i.qty_ordered - i.qty_canceled - i.qty_refunded)`;
  return new Set(rows.map((row) => row.item_id));
}
