// Changing one assignment: delete, reassign, DNH (spec 001 §2, §4–5; D21, D225).
// Each runs in one transaction that locks the order, the item and the
// assignment first (assignments.server.ts says why in that order). An
// assignment whose drop-ship vendor already has it is not refused any more:
// the vendor is asked to cancel it (vendor-cancellations.server.ts), the
// assignment becomes Cancel Requested and its quantity is free at once; a
// reassignment then creates a new assignment for the new source.
import { message as codedMessage, type CodedMessage } from "~/i18n/messages";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { NotFoundError, refuse } from "~/lib/validation.server";
import type { DnhInput, ReassignInput } from "./assignment-forms";
import { ACTIVE_ASSIGNMENT, ASSIGN_STATUS } from "./assignment-status.server";
import { availableQtys, availableStores, lockStock, refreshTotalAssigned, sourcesByCode, TX_OPTIONS, withRetry, type StockRefresh } from "./assignments.server";
import { moveAssignedItems, MOVE_WAIT_MS } from "./shopify-location.server";
import { takeBackFromVendor, VENDOR_HAS_IT, type CancellationCause, type TakeBackOutcome } from "./vendor-cancellations.server";

interface LockedAssignment {
  id: number;
  order_increment_id: string;
  shopify_order_id: string | null;
  item_id: number;
  product_sku: string;
  qty_assigned: number;
  store_id: string;
  dropshipper_name: string | null;
  assign_status: number;
  form_number: string | null;
  purchase_order: string | null;
  order_row_id: number;
  marketplace_source: string | null;
  transfer_num: string | null;
}

/** Locks the assignment's order, item and the assignment itself (in the order every writer locks them). */
async function lockAssignment(tx: Prisma.TransactionClient, id: number): Promise<LockedAssignment> {
  const found =
    Number.isSafeInteger(id) && id > 0 && id < 2 ** 31
      ? await tx.assignment.findUnique({ where: { id }, select: { item: { select: { order_id: true } } } })
      : null;
  if (!found) throw new NotFoundError(codedMessage("sales.rules.assignment_not_found", { id }));
  await tx.$queryRaw`SELECT id FROM order_grid WHERE id = ${found.item.order_id} FOR UPDATE`;
  const [row] = await tx.$queryRaw<LockedAssignment[]>`
    SELECT a.id, a.order_increment_id, a.shopify_order_id, a.item_id, a.product_sku, a.qty_assigned, a.store_id, a.dropshipper_name,
           a.assign_status, a.form_number, a.purchase_order, i.order_id AS order_row_id, o.marketplace_source,
           (SELECT d.transfer_num FROM dnh_transfer d WHERE d.assignment_id = a.id ORDER BY d.id LIMIT 1) AS transfer_num
      FROM order_item i JOIN assignment a ON a.item_id = i.item_id JOIN order_grid o ON o.id = i.order_id
     WHERE a.id = ${id}
       FOR UPDATE OF i, a`;
  if (!row) throw new NotFoundError(codedMessage("sales.rules.assignment_not_found", { id }));
  return row;
}

async function sourceName(tx: Prisma.TransactionClient, code: string) {
  return (await tx.inventorySource.findUnique({ where: { source_code: code }, select: { name: true } }))?.name ?? code;
}

/**
 * What staff may change: not an assignment transferred (DNH), Complete, already being cancelled at its
 * vendor, or one its vendor refused to cancel (it ships). A Sent assignment to a store cannot be taken
 * back from here: the store's shipping tool cancels it.
 */
async function checkChangeable(tx: Prisma.TransactionClient, assignment: LockedAssignment, field: "id" | "assignment_id" = "id", dnh = false) {
  if (assignment.transfer_num !== null) refuse(field, codedMessage("sales.rules.already_dnh", { id: assignment.id, transfer: assignment.transfer_num }));
  if (assignment.assign_status === ASSIGN_STATUS.complete) refuse(field, codedMessage("sales.rules.complete_cannot_change", { id: assignment.id }));
  if (assignment.assign_status === ASSIGN_STATUS.cancel_requested || assignment.assign_status === ASSIGN_STATUS.cancelled)
    refuse(field, codedMessage("sales.rules.already_cancelling", { id: assignment.id }));
  if (assignment.assign_status === ASSIGN_STATUS.cancel_refused)
    refuse(field, codedMessage("sales.rules.cancel_refused", { id: assignment.id, source: await sourceName(tx, assignment.store_id) }));
  // A DNH is how a Sent store assignment is handed over: only delete and reassign stop here.
  if (!dnh && assignment.assign_status === ASSIGN_STATUS.sent && !(await hasRequest(tx, assignment.id)))
    refuse(field, codedMessage("sales.rules.sent_cannot_change", { id: assignment.id, source: await sourceName(tx, assignment.store_id) }));
}

async function hasRequest(tx: Prisma.TransactionClient, assignmentId: number) {
  return (await tx.dropshipRequest.count({ where: { assignment_id: assignmentId } })) > 0;
}

/**
 * The vendor's side of a change: the request withdrawn, or a cancellation on its way. A vendor that
 * shipped it already is too late: refused. The answer's words name the vendor and the PO.
 */
async function takeBack(
  tx: Prisma.TransactionClient,
  assignment: LockedAssignment,
  cause: CancellationCause,
  detail: Record<string, unknown>,
  field: "id" | "assignment_id" = "id",
) {
  const outcome = await takeBackFromVendor(tx, assignment, cause, { detail });
  if (outcome.kind === "too_late") refuse(field, codedMessage("sales.rules.vendor_shipped", { id: assignment.id, po: outcome.po, vendor: outcome.vendor }));
  // A rejected request stays as the vendor left it; its assignment is done with.
  if (outcome.kind === "not_needed") await tx.assignment.update({ where: { id: assignment.id }, data: { assign_status: ASSIGN_STATUS.cancelled } });
  return outcome;
}

/** The assignment row stays (its request refers to it): the vendor has, or had, the PO. */
const keepsRow = (outcome: TakeBackOutcome) => outcome.kind === "requested" || outcome.kind === "not_needed";

/** The answer's message, and when a vendor is told, the sentence that says so. */
const withVendorNote = (done: CodedMessage, outcome: TakeBackOutcome): CodedMessage =>
  outcome.kind === "requested" ? codedMessage("sales.cancellation_sent", { done, po: outcome.po, vendor: outcome.vendor }) : done;

/** DELETE /api/assignment/{id}: its quantity goes back to unassigned. */
export async function deleteAssignment(id: number) {
  return withRetry(() =>
    prisma.$transaction(async (tx) => {
      const assignment = await lockAssignment(tx, id);
      await checkChangeable(tx, assignment);
      const outcome = await takeBack(tx, assignment, "deleted", {});
      if (!keepsRow(outcome)) await tx.assignment.delete({ where: { id: assignment.id } });
      await refreshTotalAssigned(tx, [assignment.order_row_id]);
      return {
        error: false,
        message: withVendorNote(
          codedMessage("sales.awaiting.deleted", { id: assignment.id, qty: assignment.qty_assigned, sku: assignment.product_sku }),
          outcome,
        ),
      };
    }, TX_OPTIONS),
  );
}

const assignmentFields = {
  id: true,
  order_increment_id: true,
  shopify_order_id: true,
  item_id: true,
  product_sku: true,
  qty_assigned: true,
  store_id: true,
  dropshipper_name: true,
  assign_status: true,
  form_number: true,
  purchase_order: true,
  created_time: true,
  update_time: true,
  customer_note: true,
} as const;

async function readAssignment(id: number) {
  const assignment =
    Number.isSafeInteger(id) && id > 0 && id < 2 ** 31
      ? await prisma.assignment.findUnique({ where: { id }, select: { ...assignmentFields, dnh: { select: { transfer_num: true, reason: true }, take: 1 } } })
      : null;
  if (!assignment) throw new NotFoundError(codedMessage("sales.rules.assignment_not_found", { id: Number.isFinite(id) ? id : String(id) }));
  const { dnh, ...fields } = assignment;
  // The source's name whether or not it is still offered (a closed store keeps its history).
  const store_name = (await prisma.inventorySource.findUnique({ where: { source_code: fields.store_id }, select: { name: true } }))?.name ?? null;
  return { ...fields, store_name, dnh: dnh[0] ?? null };
}

/**
 * GET /api/reassignment?id=: data (the assignment first), available_stores, available_qtys; and the
 * drop-ship request of the assignment, if any (`vendor_request`: its PO, vendor and status, and
 * `vendor_has_it`: saving asks the vendor to cancel it), which the form's warning and its choice of
 * sources follow (D232).
 */
export async function reassignmentData(id: number, refreshStock?: StockRefresh) {
  const assignment = await readAssignment(id);
  await refreshStock?.([assignment.product_sku]);
  const [stores, qtys, request] = await Promise.all([
    availableStores(),
    availableQtys(prisma, [assignment.product_sku]),
    prisma.dropshipRequest.findUnique({
      where: { assignment_id: assignment.id },
      select: { request_id: true, po_number: true, vendor_name: true, status: true },
    }),
  ]);
  const vendorRequest = request ? { ...request, vendor_has_it: (VENDOR_HAS_IT as readonly string[]).includes(request.status) } : null;
  // What checkChangeable refuses for good (not "Sent to a store", which depends on the source chosen).
  const closed: number[] = [ASSIGN_STATUS.complete, ASSIGN_STATUS.cancel_requested, ASSIGN_STATUS.cancelled, ASSIGN_STATUS.cancel_refused];
  const reassignable = assignment.dnh === null && !closed.includes(assignment.assign_status);
  return { data: [assignment], available_stores: stores, available_qtys: qtys, vendor_request: vendorRequest, reassignable };
}

/** POST /api/reassignment/{id} (_method=PUT, store_id): another store or dropshipper, the same quantity; Pending again. */
export async function reassignAssignment(id: number, input: ReassignInput) {
  const { movedId, answer } = await reassignHeld(id, input);
  // Committed: the lines follow to the new source's location (D169).
  await moveAssignedItems([movedId], { waitMs: MOVE_WAIT_MS });
  return answer;
}

/**
 * Several reassignments, each as reassignAssignment does it (its own transaction and rules), the Shopify
 * moves of all that were done started once at the end (a bulk reassign waits MOVE_WAIT_MS once, not per row).
 * `each` hears every row's answer or error.
 */
export async function reassignAssignments(
  ids: number[],
  input: ReassignInput,
  each: (id: number, result: { answer: Awaited<ReturnType<typeof reassignAssignment>> } | { error: unknown }) => void,
) {
  const moved: number[] = [];
  for (const id of ids) {
    try {
      const { movedId, answer } = await reassignHeld(id, input);
      moved.push(movedId);
      each(id, { answer });
    } catch (error) {
      each(id, { error });
    }
  }
  if (moved.length) await moveAssignedItems(moved, { waitMs: MOVE_WAIT_MS });
}

async function reassignHeld(id: number, { store_id: storeId }: ReassignInput) {
  return withRetry(() =>
    prisma.$transaction(async (tx) => {
      const assignment = await lockAssignment(tx, id);
      await checkChangeable(tx, assignment);
      const source = (await sourcesByCode(tx, [storeId])).get(storeId);
      if (!source) refuse("store_id", codedMessage("sales.rules.source_unknown", { source: storeId }));
      if (!source.enabled) refuse("store_id", codedMessage("sales.rules.source_disabled", { source: source.name }));
      if (source.source_code === assignment.store_id) refuse("store_id", codedMessage("sales.rules.same_source", { id: assignment.id, source: source.name }));
      const stock = await lockStock(tx, [`${source.source_code}\u0000${assignment.product_sku}`]);
      const available = stock.get(`${source.source_code}\u0000${assignment.product_sku}`);
      if (available !== undefined && assignment.qty_assigned > available) {
        refuse(
          "store_id",
          codedMessage("sales.rules.qty_over_available", { source: source.name, available, sku: assignment.product_sku, qty: assignment.qty_assigned }),
        );
      }
      if (assignment.marketplace_source?.trim()) {
        const others = await tx.$queryRaw<Array<{ store_id: string }>>`
          SELECT DISTINCT a.store_id FROM assignment a JOIN order_item i ON i.item_id = a.item_id
           WHERE i.order_id = ${assignment.order_row_id} AND a.id <> ${assignment.id} AND a.store_id <> ${source.source_code} AND ${ACTIVE_ASSIGNMENT}`;
        if (others.length) {
          refuse(
            "store_id",
            codedMessage("sales.rules.marketplace_one_source", {
              order: assignment.order_increment_id,
              existing: await sourceName(tx, others[0].store_id),
              source: source.name,
            }),
          );
        }
      }
      const outcome = await takeBack(tx, assignment, "reassigned", { source: source.name });
      if (keepsRow(outcome)) {
        // The old row stays with the vendor's request; the units go to the new source on a row of their own.
        const created = await tx.assignment.create({
          data: {
            order_increment_id: assignment.order_increment_id,
            shopify_order_id: assignment.shopify_order_id,
            item_id: assignment.item_id,
            product_sku: assignment.product_sku,
            qty_assigned: assignment.qty_assigned,
            store_id: source.source_code,
            dropshipper_name: source.dropshipper_name,
            assign_status: ASSIGN_STATUS.pending,
          },
          select: { id: true },
        });
        await refreshTotalAssigned(tx, [assignment.order_row_id]);
        return {
          movedId: created.id,
          answer: {
            error: false,
            message: withVendorNote(codedMessage("sales.reassign.saved_new", { id: assignment.id, source: source.name, new_id: created.id }), outcome),
            assignment_id: created.id,
          },
        };
      }
      await tx.assignment.update({
        where: { id: assignment.id },
        data: {
          store_id: source.source_code,
          dropshipper_name: source.dropshipper_name,
          assign_status: ASSIGN_STATUS.pending,
          purchase_order: null,
          form_number: null,
          // The new source's location is not reached yet.
          shopify_location_status: null,
          shopify_location_message: null,
          shopify_location_message_code: Prisma.DbNull,
          shopify_location_at: null,
        },
      });
      return {
        movedId: assignment.id,
        answer: {
          error: false,
          message: codedMessage("sales.reassign.saved", { id: assignment.id, source: source.name }) as CodedMessage,
          assignment_id: assignment.id,
        },
      };
    }, TX_OPTIONS),
  );
}

/** GET /api/dnh?assignment_id=: the assignment's fields, and its transfer when it has one. */
export async function dnhData(id: number) {
  const { dnh, ...assignment } = await readAssignment(id);
  return { ...assignment, assignment_id: assignment.id, transfer_num: dnh?.transfer_num ?? null, reason: dnh?.reason ?? null };
}

/** POST /api/dnh (assignment_id, transfer_num, reason): records the transfer and releases the quantity for reassignment. */
export async function createDnhTransfer(input: DnhInput) {
  const { assignment_id: id, transfer_num: transferNum, reason } = input;

  return withRetry(() =>
    prisma.$transaction(async (tx) => {
      const assignment = await lockAssignment(tx, id);
      if (assignment.transfer_num !== null)
        refuse("assignment_id", codedMessage("sales.rules.already_dnh", { id: assignment.id, transfer: assignment.transfer_num }));
      if (assignment.assign_status === ASSIGN_STATUS.pending) refuse("assignment_id", codedMessage("sales.rules.dnh_pending", { id: assignment.id }));
      if (assignment.assign_status === ASSIGN_STATUS.complete)
        refuse("assignment_id", codedMessage("sales.rules.complete_cannot_change", { id: assignment.id }));
      await checkChangeable(tx, assignment, "assignment_id", true);
      const outcome = await takeBack(tx, assignment, "transferred", { transfer: String(transferNum) }, "assignment_id");
      await tx.dnhTransfer.create({
        data: {
          assignment_id: assignment.id,
          order_increment_id: assignment.order_increment_id,
          shopify_order_id: assignment.shopify_order_id,
          item_id: assignment.item_id,
          product_sku: assignment.product_sku,
          qty_assigned: assignment.qty_assigned,
          store_id: assignment.store_id,
          transfer_num: transferNum,
          reason,
        },
      });
      await refreshTotalAssigned(tx, [assignment.order_row_id]);
      // "Transfer created successfully" has no full stop of its own (the spec's words): the vendor's sentence gets one.
      const told = outcome.kind === "requested" ? codedMessage("sales.dnh.saved_cancelling", { po: outcome.po, vendor: outcome.vendor }) : null;
      return { error: false, message: told ?? codedMessage("sales.dnh.saved") };
    }, TX_OPTIONS),
  );
}

/**
 * Tools' Send Cancellation: the vendor that has this assignment's request is asked to cancel it now (cause
 * tools), as a deletion would ask, the assignment Cancel Requested. The caller has checked that the vendor
 * has the PO; refusals come back as 422 problems (the same rules as delete).
 */
export async function askVendorToCancel(assignmentId: number): Promise<TakeBackOutcome> {
  return withRetry(() =>
    prisma.$transaction(async (tx) => {
      const assignment = await lockAssignment(tx, assignmentId);
      await checkChangeable(tx, assignment);
      const outcome = await takeBack(tx, assignment, "tools", {});
      await refreshTotalAssigned(tx, [assignment.order_row_id]);
      return outcome;
    }, TX_OPTIONS),
  );
}
