// Step 1, Populate Ship Requests: every Pending assignment to an enabled
// drop-ship vendor becomes a ship request with a PO number of its own, and
// the assignment becomes Processing. One transaction per batch: a crash leaves
// each assignment either untouched or with its request, never half of it.
import { logMessage } from "~/i18n/english.server";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { message } from "~/runs/messages";
import { releaseAllClosedLines } from "~/sales/order-lines.server";
import { plural, StepReport, vendorLog, writeLogs, type LogEntry, type StepResult } from "./context.server";

const BATCH = 1000;
/** BEG03 holds 22 characters. */
const PO_MAX = 22;

interface PendingAssignment {
  id: number;
  store_id: string;
  order_increment_id: string;
  product_sku: string;
  qty_assigned: number;
  purchase_order: string | null;
  vendor_id: number;
  vendor_name: string;
  use_cost: number;
  cost: string | null;
  price: string | null;
  ship_first_name: string | null;
  ship_last_name: string | null;
  ship_street: string | null;
  ship_city: string | null;
  ship_region: string | null;
  ship_postcode: string | null;
  ship_country_id: string | null;
  concat_ship_to_name: string | null;
}

/** Our PO number for an assignment: the one it already carries, else order and assignment. */
export function purchaseOrderNumber(assignment: { id: number; order_increment_id: string; purchase_order: string | null }): string {
  const given = assignment.purchase_order?.trim();
  if (given && given.length <= PO_MAX) return given;
  return `PO${assignment.order_increment_id}-${assignment.id}`.slice(0, PO_MAX);
}

function requestRow(a: PendingAssignment, po: string) {
  // Orders mirrored before the address parts existed only have the display name.
  const [first = "", ...last] = (a.concat_ship_to_name ?? "").trim().split(/\s+/);
  return {
    vendor_id: a.vendor_id,
    vendor_name: a.vendor_name,
    assignment_id: a.id,
    po_number: po,
    order_increment_id: a.order_increment_id,
    item_sku: a.product_sku,
    qty: a.qty_assigned,
    unit_cost: a.use_cost === 1 ? a.cost : a.price,
    ship_name_first: a.ship_first_name ?? first,
    ship_name_last: a.ship_last_name ?? last.join(" "),
    ship_address: a.ship_street ?? "",
    ship_city: a.ship_city ?? "",
    ship_state: a.ship_region ?? "",
    ship_zip: a.ship_postcode ?? "",
    country_id: (a.ship_country_id ?? "US").toUpperCase(),
  };
}

export async function populateShipRequests(): Promise<StepResult> {
  const report = new StepReport();
  // First what cancelled orders and removed lines no longer need (D226): their Pending assignments released,
  // their unsent requests withdrawn, their vendors asked to cancel. Heals a webhook that died before doing it.
  const released = await releaseAllClosedLines();
  if (released.orders) report.count("orders_released", released.orders);
  const total = await pendingCount();
  report.progress(0, total, "assignments");
  let afterId = 0;
  let done = 0;
  for (;;) {
    const pending = await prisma.$queryRaw<PendingAssignment[]>`
      SELECT a.id, a.store_id, a.order_increment_id, a.product_sku, a.qty_assigned, a.purchase_order,
             v.id AS vendor_id, v.name AS vendor_name, v.use_cost,
             p.cost::text AS cost, i.price::text AS price,
             o.ship_first_name, o.ship_last_name, o.ship_street, o.ship_city, o.ship_region,
             o.ship_postcode, o.ship_country_id, o.concat_ship_to_name
        FROM assignment a
        JOIN LATERAL (SELECT id, name, use_cost FROM dropship_vendor
                       WHERE store_id = a.store_id AND enabled = 1 AND archived_at IS NULL
                       ORDER BY id LIMIT 1) v ON true
        JOIN order_item i ON i.item_id = a.item_id
        JOIN order_grid o ON o.id = i.order_id
        LEFT JOIN product p ON p.sku = a.product_sku
       WHERE a.assign_status = 1 AND a.id > ${afterId}
       ORDER BY a.id
       LIMIT ${BATCH}`;
    if (pending.length === 0) break;
    afterId = pending[pending.length - 1].id;
    await createRequests(pending, report);
    done += pending.length;
    report.progress(done, Math.max(total, done), "assignments");
  }
  const created = report.counts.created ?? 0;
  const summary = created ? `${plural(created, "ship request")} created.` : "No pending drop-ship assignments.";
  return report.result(
    summary,
    created ? message("dropship_test.results.populate_requests", { count: created }) : message("dropship_test.results.populate_requests_none"),
  );
}

/**
 * Whether any assignment awaits its ship request: what the step would read, as one EXISTS on the
 * (assign_status, id) index; the minute watch asks it (D252).
 */
export async function assignmentsAwaitRequests(): Promise<boolean> {
  const [row] = await prisma.$queryRaw<Array<{ waiting: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM assignment a
                    WHERE a.assign_status = 1
                      AND EXISTS (SELECT 1 FROM dropship_vendor v WHERE v.store_id = a.store_id AND v.enabled = 1 AND v.archived_at IS NULL)) AS waiting`;
  return Boolean(row?.waiting);
}

/** How many assignments the step will read (the progress bar's total). */
async function pendingCount(): Promise<number> {
  const [row] = await prisma.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM assignment a
     WHERE a.assign_status = 1
       AND EXISTS (SELECT 1 FROM dropship_vendor v WHERE v.store_id = a.store_id AND v.enabled = 1 AND v.archived_at IS NULL)`;
  return Number(row?.count ?? 0);
}

/**
 * The batch's requests in one INSERT of one array per column, skipping those whose PO number or
 * assignment already has one; answers those inserted. Not createManyAndReturn: Prisma keeps each
 * model call's query plan, every value of the batch in it, among its last hundred debug entries,
 * so a thousand requests a batch stayed in memory after the step (D140).
 */
function insertRequests(tx: Prisma.TransactionClient, rows: Array<ReturnType<typeof requestRow>>) {
  const column = <T>(pick: (row: ReturnType<typeof requestRow>) => T) => rows.map(pick);
  return tx.$queryRaw<Array<{ assignment_id: number; po_number: string }>>`
    INSERT INTO dropship_request (vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, unit_cost,
                                  ship_name_first, ship_name_last, ship_address, ship_city, ship_state, ship_zip, country_id,
                                  created_at, updated_at)
    SELECT vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, unit_cost,
           ship_name_first, ship_name_last, ship_address, ship_city, ship_state, ship_zip, country_id, statement_timestamp(), statement_timestamp()
      FROM unnest(${column((r) => r.vendor_id)}::int[], ${column((r) => r.vendor_name)}::text[], ${column((r) => r.assignment_id)}::int[],
                  ${column((r) => r.po_number)}::text[], ${column((r) => r.order_increment_id)}::text[], ${column((r) => r.item_sku)}::text[],
                  ${column((r) => r.qty)}::int[], ${column((r) => r.unit_cost)}::numeric[], ${column((r) => r.ship_name_first)}::text[],
                  ${column((r) => r.ship_name_last)}::text[], ${column((r) => r.ship_address)}::text[], ${column((r) => r.ship_city)}::text[],
                  ${column((r) => r.ship_state)}::text[], ${column((r) => r.ship_zip)}::text[], ${column((r) => r.country_id)}::text[])
           WITH ORDINALITY AS r(vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, unit_cost,
                                ship_name_first, ship_name_last, ship_address, ship_city, ship_state, ship_zip, country_id, n)
     ORDER BY n
        ON CONFLICT DO NOTHING
    RETURNING assignment_id, po_number`;
}

async function createRequests(pending: PendingAssignment[], report: StepReport) {
  await prisma.$transaction(
    async (tx) => {
      // Staff may have deleted, reassigned or transferred (DNH) an assignment since it was read
      // (app/sales, D21): only those still Pending at the same source, locked until the batch commits.
      const still = await tx.$queryRaw<Array<{ id: number }>>`
      SELECT a.id FROM assignment a
        JOIN unnest(${pending.map((a) => a.id)}::int[], ${pending.map((a) => a.store_id)}::text[]) AS k(id, store_id)
          ON k.id = a.id AND k.store_id = a.store_id
       WHERE a.assign_status = 1 AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)
       ORDER BY a.id
         FOR UPDATE OF a`;
      const unchanged = new Set(still.map((row) => row.id));
      let remaining = pending.filter((a) => unchanged.has(a.id));
      const created: Array<{ assignment: PendingAssignment; po: string }> = [];
      // A PO number already used by another request (an older assignment of the
      // same item) gets the assignment id appended; the second pass never clashes.
      for (let pass = 0; pass < 2 && remaining.length; pass++) {
        const rows = remaining.map((a) => {
          const po = pass === 0 ? purchaseOrderNumber(a) : `PO${a.order_increment_id}-A${a.id}`.slice(0, PO_MAX);
          return { a, po, row: requestRow(a, po) };
        });
        const inserted = await insertRequests(
          tx,
          rows.map(({ row }) => row),
        );
        const done = new Set(inserted.map((row) => row.assignment_id));
        for (const { a, po } of rows) if (done.has(a.id)) created.push({ assignment: a, po });
        // Assignments that already had a request (a run that crashed after its commit cannot exist, but
        // a request made by hand can) are not retried with another PO.
        const existing = new Set(
          (
            await tx.dropshipRequest.findMany({
              where: { assignment_id: { in: remaining.filter((a) => !done.has(a.id)).map((a) => a.id) } },
              select: { assignment_id: true },
            })
          ).map((row) => row.assignment_id),
        );
        for (const a of remaining) if (existing.has(a.id)) created.push({ assignment: a, po: "" });
        remaining = remaining.filter((a) => !done.has(a.id) && !existing.has(a.id));
      }
      for (const a of remaining) report.problem(message("logs.dropship.no_unique_po", { assignment: a.id }));

      // The assignment carries its PO from now on, and is Processing.
      const ids = created.map(({ assignment }) => assignment.id);
      await tx.$executeRaw`
      UPDATE assignment a SET assign_status = 2, purchase_order = r.po_number, update_time = now()
        FROM dropship_request r
       WHERE r.assignment_id = a.id AND a.id = ANY(${ids}::int[]) AND a.assign_status = 1`;
      const logs: LogEntry[] = created
        .filter(({ po }) => po)
        .map(({ assignment: a, po }) => ({
          ...vendorLog({ id: a.vendor_id, name: a.vendor_name }),
          action: "populate_requests",
          status: "success",
          po_number: po,
          order_increment_id: a.order_increment_id,
          item_sku: a.product_sku,
          qty: a.qty_assigned,
          ...logMessage("logs.dropship.request_created", { po, qty: a.qty_assigned, sku: a.product_sku, order: a.order_increment_id, assignment: a.id }),
        }));
      await writeLogs(logs, tx);
      report.count("created", logs.length);
    },
    { timeout: 60_000 },
  );
}
