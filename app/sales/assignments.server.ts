// Sales assignment (spec 001 §2–§5, docs/decisions.md D21): order items
// assigned to stores and dropshippers, by hand, by the AS400's file, and
// changed by delete, reassign and DNH. Every rule is checked here, on the
// server, inside one transaction that first locks what it counts:
//   1. the order rows (order_grid, FOR UPDATE): one order's assignments change
//      one request at a time, so the marketplace rule and total_assigned hold;
//   2. the order item rows (order_item, FOR UPDATE): what is left to assign;
//   3. the sources concerned (inventory_source, FOR SHARE): a source code is not
//      renamed on the Stores screen under an assignment being made to it;
//   4. the stock rows of the sources and SKUs concerned (inventory_source_item):
//      what a source still has available.
// Always in that order, each sorted by key, so two requests never deadlock.
// An assignment holds its quantity until it is deleted, a DNH transfer releases it
// (the row then stays, referenced by dnh_transfer), or the vendor that has it is
// asked to cancel it (assignment-changes.server.ts, vendor-cancellations.server.ts).
import { message as codedMessage, type CodedMessage } from "~/i18n/messages";
import prisma from "~/db.server";
import { Prisma } from "~/db/generated/client";
import { NotFoundError, ValidationError, type FieldProblems } from "~/lib/validation.server";
import { MAX_QTY, type ManualAssignmentInput } from "./assignment-forms";
import { moveAssignedItems, MOVE_WAIT_MS } from "./shopify-location.server";
import { ACTIVE_ASSIGNMENT, ASSIGN_STATUS, FINISHED_ORDER_STATUSES } from "./assignment-status.server";

export const TX_OPTIONS = { maxWait: 10_000, timeout: 60_000 } as const;

// ---------------------------------------------------------------------------
// What the screens read

export interface UnassignedOrderItem {
  item_id: number;
  order_id: string;
  increment_id: string;
  shopify_order_id: string | null;
  sku: string;
  name: string;
  qty_ordered: number;
  qty_unassigned: number;
  billing_addr: string | null;
  shipping_addr: string | null;
  customer_notes: string | null;
  created_time: Date;
  update_time: Date;
}

export interface AvailableStore {
  source_code: string;
  name: string;
  type: string;
  /** A dropshipper's share of POs shipped within its service level over 30 days (its scorecard, D244); null when none was due. */
  on_time_30: number | null;
}

/** Per SKU, per source_code: what the source has available (known only where it reports stock). */
export type AvailableQtys = Record<string, Record<string, number>>;

interface OrderRow {
  id: number;
  order_id: string;
  shopify_order_id: string | null;
  magento_status: string | null;
  marketplace_source: string | null;
  customer_notes: string | null;
}

const isMarketplace = (order: Pick<OrderRow, "marketplace_source">) => Boolean(order.marketplace_source?.trim());
const isFinished = (order: Pick<OrderRow, "magento_status">) => (FINISHED_ORDER_STATUSES as readonly string[]).includes(order.magento_status ?? "");

async function findOrder(db: Prisma.TransactionClient, incrementId: string): Promise<OrderRow> {
  const order = incrementId
    ? await db.order.findUnique({
        where: { order_id: incrementId },
        select: { id: true, order_id: true, shopify_order_id: true, magento_status: true, marketplace_source: true, customer_notes: true },
      })
    : null;
  if (!order) throw new NotFoundError(codedMessage("sales.rules.order_not_found", { order: incrementId }));
  return order;
}

/** Items of orders with what is left to assign of each (shippable quantity minus active assignments). */
async function itemsWithUnassigned(db: Prisma.TransactionClient, orderRowIds: number[]) {
  return db.$queryRaw<Array<UnassignedOrderItem & { order_row_id: number }>>`
    SELECT i.item_id, o.order_id, o.order_id AS increment_id, o.shopify_order_id, i.sku, i.name, i.qty_ordered,
           GREATEST(0, CASE WHEN i.is_shippable THEN GREATEST(0, i.qty_ordered - i.qty_refunded - i.qty_canceled) ELSE 0 END
                       - COALESCE((SELECT SUM(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id AND
                         ${ACTIVE_ASSIGNMENT}), 0))::int AS qty_unassigned,
           o.concat_billing_address AS billing_addr, o.concat_shipping_address AS shipping_addr, o.customer_notes,
           i.created_time, i.update_time, o.id AS order_row_id
      FROM order_item i JOIN order_grid o ON o.id = i.order_id
     WHERE i.order_id = ANY(${orderRowIds}::int[])
     ORDER BY i.item_id`;
}

/** Enabled stores and dropshippers, stores first, by name; a dropshipper with its 30-day on-time rate (read from its vendor's scorecard). */
export async function availableStores(db: Prisma.TransactionClient = prisma): Promise<AvailableStore[]> {
  return db.$queryRaw<AvailableStore[]>`
    SELECT s.source_code, s.name, s.type,
           (SELECT round(100.0 * c.ship_on_time / c.ship_due)::int
              FROM vendor_scorecard c JOIN dropship_vendor v ON v.id = c.vendor_id
             WHERE v.store_id = s.source_code AND v.archived_at IS NULL AND c.window_days = 30 AND c.ship_due > 0
             ORDER BY v.id LIMIT 1) AS on_time_30
      FROM inventory_source s
     WHERE s.enabled = 1
     ORDER BY s.type DESC, s.name ASC, s.source_code ASC`;
}

/**
 * What each source has available of each SKU: its reported stock minus what
 * Pending and Processing assignments there already hold (a Sent one is the
 * source's own business: its stock report no longer counts it). Sources that
 * report no stock for a SKU are absent: their quantity is unknown.
 */
export async function availableQtys(db: Prisma.TransactionClient, skus: string[]): Promise<AvailableQtys> {
  if (skus.length === 0) return {};
  const rows = await db.$queryRaw<Array<{ sku: string; source_code: string; available: number }>>`
    SELECT s.sku, s.source_code,
           GREATEST(0, s.quantity - COALESCE((SELECT SUM(a.qty_assigned) FROM assignment a
                                               WHERE a.store_id = s.source_code AND a.product_sku = s.sku
                                                 AND a.assign_status IN (1, 2) AND ${ACTIVE_ASSIGNMENT}), 0))::int AS available
      FROM inventory_source_item s JOIN inventory_source src ON src.source_code = s.source_code AND src.enabled = 1
     WHERE s.sku = ANY(${skus}::text[])`;
  const out: AvailableQtys = {};
  for (const row of rows) (out[row.sku] ??= {})[row.source_code] = row.available;
  return out;
}

/**
 * Brings the stores' stock of these SKUs up to date before it is shown
 * (stores.server.ts: Shopify's inventory levels; never throws).
 */
export type StockRefresh = (skus: string[]) => Promise<void>;

/** GET /api/manual_assignment?order_id= (order_id is the order's increment id, the grid's Order ID). */
export async function manualAssignmentData(orderId: string, refreshStock?: StockRefresh) {
  const order = await findOrder(prisma, orderId.trim());
  const items = (await itemsWithUnassigned(prisma, [order.id])).filter((item) => item.qty_unassigned > 0).map(({ order_row_id: _, ...item }) => item);
  const skus = [...new Set(items.map((item) => item.sku))];
  await refreshStock?.(skus);
  const [stores, qtys] = await Promise.all([availableStores(), availableQtys(prisma, skus)]);
  return {
    order: {
      order_id: order.order_id,
      shopify_order_id: order.shopify_order_id,
      magento_status: order.magento_status,
      marketplace_source: order.marketplace_source,
      is_marketplace: isMarketplace(order),
    },
    unassigned_order_items: items,
    available_stores: stores,
    available_qtys: qtys,
  };
}

// ---------------------------------------------------------------------------
// Creating assignments (manual form and AS400 import)

export interface AssignmentLine {
  /** Where a problem is reported: a form field prefix ("assignments.0") or a file line ("line 4"). */
  key: string;
  orderId: string;
  itemId: number;
  storeId: string;
  qty: number;
  /** The import names the SKU too; it must be the item's. */
  sku?: string;
  formNumber?: string | null;
}

export interface LineProblem {
  key: string;
  field: "order_id" | "item_id" | "store_id" | "qty_assigned" | "sku";
  /** What is wrong, as a code (D116, D127): rendered by the form's answer, or a log. */
  problem: CodedMessage;
}

export interface PlannedAssignment {
  line: AssignmentLine;
  order: OrderRow;
  item: { item_id: number; sku: string };
  source: { source_code: string; name: string; type: string; dropshipper_name: string | null };
}

/**
 * Locks the orders, items and stock rows the lines touch, then checks the lines
 * in order, each against what the lines before it took. Returns the lines that
 * pass and one problem per line that does not. Runs inside `tx`.
 */
export async function planAssignments(tx: Prisma.TransactionClient, lines: AssignmentLine[]) {
  const problems: LineProblem[] = [];
  const planned: PlannedAssignment[] = [];
  if (lines.length === 0) return { planned, problems };

  const orderIds = [...new Set(lines.map((line) => line.orderId))].sort();
  const orders = await tx.$queryRaw<OrderRow[]>`
    SELECT id, order_id, shopify_order_id, magento_status, marketplace_source, customer_notes
      FROM order_grid WHERE order_id = ANY(${orderIds}::text[]) ORDER BY id FOR UPDATE`;
  const orderById = new Map(orders.map((order) => [order.order_id, order]));

  const itemIds = [...new Set(lines.map((line) => line.itemId))];
  const items = await tx.$queryRaw<Array<{ item_id: number; order_id: number; sku: string; shippable: number }>>`
    SELECT item_id, order_id, sku,
           CASE WHEN is_shippable THEN GREATEST(0, qty_ordered - qty_refunded - qty_canceled) ELSE 0 END::int AS shippable
      FROM order_item WHERE item_id = ANY(${itemIds}::int[]) ORDER BY item_id FOR UPDATE`;
  const itemById = new Map(items.map((item) => [item.item_id, item]));
  const held = await tx.$queryRaw<Array<{ item_id: number; held: number }>>`
    SELECT a.item_id, SUM(a.qty_assigned)::int AS held FROM assignment a
     WHERE a.item_id = ANY(${itemIds}::int[]) AND ${ACTIVE_ASSIGNMENT} GROUP BY a.item_id`;
  const left = new Map(items.map((item) => [item.item_id, item.shippable]));
  for (const row of held) left.set(row.item_id, Math.max(0, (left.get(row.item_id) ?? 0) - row.held));

  // Marketplace orders: the one source their active assignments already use.
  const marketplaceRowIds = orders.filter(isMarketplace).map((order) => order.id);
  const usedSources = new Map<number, Set<string>>();
  if (marketplaceRowIds.length) {
    const used = await tx.$queryRaw<Array<{ order_id: number; store_id: string }>>`
      SELECT DISTINCT i.order_id, a.store_id FROM assignment a JOIN order_item i ON i.item_id = a.item_id
       WHERE i.order_id = ANY(${marketplaceRowIds}::int[]) AND ${ACTIVE_ASSIGNMENT}`;
    for (const row of used) (usedSources.get(row.order_id) ?? usedSources.set(row.order_id, new Set()).get(row.order_id)!).add(row.store_id);
  }
  const sourceCodes = [...new Set([...lines.map((line) => line.storeId), ...[...usedSources.values()].flatMap((codes) => [...codes])])];
  const sources = await sourcesByCode(tx, sourceCodes);

  const stockKeys = [
    ...new Set(
      lines.flatMap((line) => {
        const item = itemById.get(line.itemId);
        return item ? [`${line.storeId}\u0000${item.sku}`] : [];
      }),
    ),
  ].sort();
  const stock = await lockStock(tx, stockKeys);

  for (const line of lines) {
    const fail = (field: LineProblem["field"], key: string, params: Record<string, unknown>) => {
      problems.push({ key: line.key, field, problem: codedMessage(`sales.rules.${key}`, params) });
    };
    const order = orderById.get(line.orderId);
    if (!order) {
      fail("order_id", "order_not_found", { order: line.orderId });
      continue;
    }
    if (isFinished(order)) {
      fail("order_id", "order_finished", { order: order.order_id, status: order.magento_status });
      continue;
    }
    const item = itemById.get(line.itemId);
    if (!item || item.order_id !== order.id) {
      fail("item_id", "item_not_in_order", { item: line.itemId, order: order.order_id });
      continue;
    }
    if (line.sku !== undefined && line.sku !== item.sku) {
      fail("sku", "item_sku_mismatch", { item: item.item_id, actual: item.sku, sku: line.sku });
      continue;
    }
    const source = sources.get(line.storeId);
    if (!source) {
      fail("store_id", "source_unknown", { source: line.storeId });
      continue;
    }
    if (!source.enabled) {
      fail("store_id", "source_disabled", { source: source.name });
      continue;
    }
    if (!Number.isInteger(line.qty) || line.qty < 1 || line.qty > MAX_QTY) {
      fail("qty_assigned", "qty_positive", {});
      continue;
    }
    const itemLeft = left.get(item.item_id) ?? 0;
    if (line.qty > itemLeft) {
      fail("qty_assigned", itemLeft === 0 ? "nothing_left" : "qty_over_unassigned", { left: itemLeft, item: item.item_id, sku: item.sku, qty: line.qty });
      continue;
    }
    const stockKey = `${source.source_code}\u0000${item.sku}`;
    const atSource = stock.get(stockKey);
    if (atSource !== undefined && line.qty > atSource) {
      fail("qty_assigned", "qty_over_available", { source: source.name, available: atSource, sku: item.sku, qty: line.qty });
      continue;
    }
    if (isMarketplace(order)) {
      const used = usedSources.get(order.id) ?? new Set<string>();
      const other = [...used].find((code) => code !== source.source_code);
      if (other) {
        fail("store_id", "marketplace_one_source", { order: order.order_id, existing: sources.get(other)?.name ?? other, source: source.name });
        continue;
      }
      usedSources.set(order.id, used.add(source.source_code));
    }
    left.set(item.item_id, itemLeft - line.qty);
    if (atSource !== undefined) stock.set(stockKey, atSource - line.qty);
    planned.push({ line, order, item: { item_id: item.item_id, sku: item.sku }, source });
  }
  return { planned, problems };
}

export async function sourcesByCode(tx: Prisma.TransactionClient, codes: string[]) {
  const rows = await tx.$queryRaw<Array<{ source_code: string; name: string; type: string; enabled: number; vendor_name: string | null }>>`
    SELECT s.source_code, s.name, s.type, s.enabled,
           (SELECT v.name FROM dropship_vendor v WHERE v.store_id = s.source_code AND v.archived_at IS NULL ORDER BY v.enabled DESC, v.id
             LIMIT 1) AS vendor_name
      FROM inventory_source s WHERE s.source_code = ANY(${codes}::text[])
     ORDER BY s.source_code FOR SHARE OF s`;
  return new Map(
    rows.map((row) => [
      row.source_code,
      {
        source_code: row.source_code,
        name: row.name,
        type: row.type,
        enabled: row.enabled === 1,
        dropshipper_name: row.type === "dropshipper" ? (row.vendor_name ?? row.name) : null,
      },
    ]),
  );
}

/** Locks the stock rows ("source\0sku", sorted) and answers what each has available. */
export async function lockStock(tx: Prisma.TransactionClient, keys: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (keys.length === 0) return out;
  const codes = keys.map((key) => key.split("\u0000")[0]);
  const skus = keys.map((key) => key.split("\u0000")[1]);
  const rows = await tx.$queryRaw<Array<{ source_code: string; sku: string; quantity: number }>>`
    SELECT s.source_code, s.sku, s.quantity FROM inventory_source_item s
      JOIN unnest(${codes}::text[], ${skus}::text[]) AS k(source_code, sku) ON k.source_code = s.source_code AND k.sku = s.sku
     ORDER BY s.source_code, s.sku FOR UPDATE OF s`;
  if (rows.length === 0) return out;
  const held = await tx.$queryRaw<Array<{ store_id: string; product_sku: string; held: number }>>`
    SELECT a.store_id, a.product_sku, SUM(a.qty_assigned)::int AS held FROM assignment a
      JOIN unnest(${rows.map((row) => row.source_code)}::text[], ${rows.map((row) => row.sku)}::text[]) AS k(source_code, sku)
        ON k.source_code = a.store_id AND k.sku = a.product_sku
     WHERE a.assign_status IN (1, 2) AND ${ACTIVE_ASSIGNMENT}
     GROUP BY a.store_id, a.product_sku`;
  const heldBy = new Map(held.map((row) => [`${row.store_id}\u0000${row.product_sku}`, row.held]));
  for (const row of rows) {
    const key = `${row.source_code}\u0000${row.sku}`;
    out.set(key, Math.max(0, row.quantity - (heldBy.get(key) ?? 0)));
  }
  return out;
}

/** Writes the planned assignments and the orders' total_assigned. */
export async function insertAssignments(tx: Prisma.TransactionClient, planned: PlannedAssignment[], status: (plan: PlannedAssignment) => number) {
  if (planned.length === 0) return [];
  const created = await tx.assignment.createManyAndReturn({
    data: planned.map((plan) => ({
      order_increment_id: plan.order.order_id,
      shopify_order_id: plan.order.shopify_order_id,
      item_id: plan.item.item_id,
      product_sku: plan.item.sku,
      qty_assigned: plan.line.qty,
      store_id: plan.source.source_code,
      dropshipper_name: plan.source.dropshipper_name,
      assign_status: status(plan),
      form_number: plan.line.formNumber ?? null,
      customer_note: plan.order.customer_notes,
    })),
    select: { id: true },
  });
  await refreshTotalAssigned(tx, [...new Set(planned.map((plan) => plan.order.id))]);
  return created.map((row) => row.id);
}

/** order_grid.total_assigned: the quantities the order's active assignments hold. */
export async function refreshTotalAssigned(tx: Prisma.TransactionClient, orderRowIds: number[]) {
  if (orderRowIds.length === 0) return;
  await tx.$executeRaw`
    UPDATE order_grid o SET total_assigned = COALESCE((
             SELECT SUM(a.qty_assigned) FROM assignment a JOIN order_item i ON i.item_id = a.item_id
              WHERE i.order_id = o.id AND ${ACTIVE_ASSIGNMENT}), 0)::int
     WHERE o.id = ANY(${orderRowIds}::int[])`;
}

/** PostgreSQL's deadlock and serialization failures: the transaction is tried again. */
export async function withRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const text = String((error as { message?: string })?.message ?? error);
      if (attempt >= attempts || !/40P01|40001|deadlock detected|could not serialize/i.test(text)) throw error;
    }
  }
}

// --- the manual form (its schema: ./assignment-forms.ts) ------------------------

export async function createManualAssignments(input: ManualAssignmentInput) {
  const orderId = input.order_id;
  const lines: AssignmentLine[] = input.assignments.map((row, index) => ({
    key: `assignments.${index}`,
    orderId,
    itemId: row.item_id,
    storeId: row.store_id,
    qty: row.qty_assigned,
  }));

  // Two rows for the same item and source are one assignment.
  const merged = new Map<string, AssignmentLine>();
  for (const line of lines) {
    const key = `${line.itemId}\u0000${line.storeId}`;
    const seen = merged.get(key);
    if (seen) seen.qty += line.qty;
    else merged.set(key, { ...line });
  }

  const ids = await withRetry(() =>
    prisma.$transaction(async (tx) => {
      await findOrder(tx, orderId);
      const { planned, problems } = await planAssignments(tx, [...merged.values()]);
      if (problems.length) {
        const fieldErrors: FieldProblems = {};
        for (const problem of problems) (fieldErrors[`${problem.key}.${problem.field}`] ??= []).push(problem.problem);
        throw new ValidationError(fieldErrors, problems[0].problem);
      }
      return insertAssignments(tx, planned, () => ASSIGN_STATUS.pending);
    }, TX_OPTIONS),
  );
  // Committed: Shopify's lines go to the sources' locations, outside the locks and bounded in time (D169).
  await moveAssignedItems(ids, { waitMs: MOVE_WAIT_MS });
  return { error: false, message: codedMessage("sales.manual.created"), assignment_ids: ids };
}
