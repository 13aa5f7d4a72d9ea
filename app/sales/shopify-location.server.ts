// Where Shopify ships an assigned item from (docs/decisions.md D169): once an
// assignment is committed, the order's open Shopify fulfillment order lines of
// that SKU and quantity move to the source's location (a store's own, a
// vendor's linked one, D48) with fulfillmentOrderMove, so the fulfilment takes
// the stock there. What happened is recorded on the assignment
// (shopify_location_status, _message, _at) and shown on the assignment grids;
// a refusal, a failed call or a source without location never stops anything:
// the fulfilment goes ahead as before. Safe to repeat: lines already at the
// location are not moved again.
import prisma from "~/db.server";
import { logger } from "~/observability/logger.server";
import type { ShopifyAdmin } from "~/shopify/admin-client.server";
import { orderGid, readOrderView, type OrderFulfillmentView } from "~/shopify/fulfillment.server";
import { jobsShopifyAdmin } from "~/shopify/jobs-admin.server";
import { FulfillmentOrderMove } from "~/shopify/operations";
import { errorMessage } from "~/lib/error-message";
import { logMessage } from "~/i18n/english.server";
import { message, plainText, type RunMessage } from "~/i18n/messages";
import { ACTIVE_ASSIGNMENT } from "./assignment-status.server";

const log = logger("sales");

/** What became of an assignment's lines in Shopify; null while not tried. */
export const SHOPIFY_LOCATION_STATUSES = ["moved", "refused", "failed", "no_location", "no_open_line"] as const;
export type ShopifyLocationStatus = (typeof SHOPIFY_LOCATION_STATUSES)[number];
export interface LocationOutcome {
  status: ShopifyLocationStatus;
  /** The note in English (searchable), and as a code rendered for the reader (D114). */
  message: string;
  message_code: RunMessage;
}

const NOTE = "sales.shopify_location_note";
/** An outcome whose note is one of ours (its code and parameters). */
const noted = (status: ShopifyLocationStatus, code: string, params?: Record<string, unknown>): LocationOutcome => ({
  status,
  ...logMessage(`${NOTE}.${code}`, params),
});
/** An outcome whose note is the words of an error (data, shown as they are). */
const failedWith = (error: unknown): LocationOutcome => ({ status: "failed", message: errorMessage(error), message_code: plainText(errorMessage(error)) });

/** How long a staff request waits for the moves; after that they finish (and are recorded) in the background. */
export const MOVE_WAIT_MS = 5_000;

// Shopify moves the unfulfilled lines of these; a closed, cancelled or on-hold one is left where it is.
const MOVABLE = new Set(["OPEN", "IN_PROGRESS", "SCHEDULED"]);

interface Due {
  id: number;
  order_increment_id: string;
  shopify_order_id: string | null;
  product_sku: string;
  qty_assigned: number;
  source_name: string | null;
  location_id: string | null;
}

const numericOf = (id: string) => id.split("/").pop() ?? id;

/**
 * Moves the assignments' lines and records each outcome. Never throws for
 * Shopify: a failure is an outcome. `admin` defaults to the jobs' client (the
 * shop's offline session; the stand-in in local mode).
 */
export async function moveToSourceLocations(ids: number[], admin?: ShopifyAdmin): Promise<Map<number, LocationOutcome>> {
  const outcomes = new Map<number, LocationOutcome>();
  if (ids.length === 0) return outcomes;
  const due = await prisma.$queryRaw<Due[]>`
    SELECT a.id, a.order_increment_id, coalesce(a.shopify_order_id, o.shopify_order_id) AS shopify_order_id, a.product_sku, a.qty_assigned,
           s.name AS source_name, s.shopify_location_id AS location_id
      FROM assignment a
      JOIN order_item i ON i.item_id = a.item_id JOIN order_grid o ON o.id = i.order_id
      LEFT JOIN inventory_source s ON s.source_code = a.store_id
     WHERE a.id = ANY(${ids}::int[]) AND ${ACTIVE_ASSIGNMENT}
     ORDER BY a.id`;
  const byOrder = new Map<string, Due[]>();
  for (const row of due) {
    if (!row.location_id) {
      outcomes.set(row.id, noted("no_location", "no_location", { source: row.source_name ?? message(`${NOTE}.the_source`) }));
    } else if (!row.shopify_order_id) {
      outcomes.set(row.id, noted("no_open_line", "no_order_id", { order: row.order_increment_id }));
    } else {
      byOrder.set(row.shopify_order_id, [...(byOrder.get(row.shopify_order_id) ?? []), row]);
    }
  }
  if (byOrder.size) {
    try {
      admin ??= await jobsShopifyAdmin();
    } catch (error) {
      for (const rows of byOrder.values()) for (const row of rows) outcomes.set(row.id, failedWith(error));
      byOrder.clear();
    }
  }
  for (const rows of byOrder.values()) {
    try {
      let view = await readOrderView(admin!, orderGid(rows[0].shopify_order_id!));
      for (const row of rows) {
        if (!view) {
          outcomes.set(row.id, noted("failed", "not_found", { order: row.order_increment_id }));
          continue;
        }
        const outcome = await moveOne(admin!, view, row);
        outcomes.set(row.id, outcome.outcome);
        // Shopify's fulfillment orders changed: the next assignment of the order is planned from a fresh read.
        if (outcome.changed) view = await readOrderView(admin!, orderGid(row.shopify_order_id!));
      }
    } catch (error) {
      for (const row of rows) if (!outcomes.has(row.id)) outcomes.set(row.id, failedWith(error));
    }
  }
  await record(outcomes);
  return outcomes;
}

async function moveOne(admin: ShopifyAdmin, view: OrderFulfillmentView, row: Due): Promise<{ outcome: LocationOutcome; changed: boolean }> {
  const target = numericOf(row.location_id!);
  const open = view.fulfillmentOrders.nodes.flatMap((fulfillmentOrder) =>
    MOVABLE.has(fulfillmentOrder.status)
      ? fulfillmentOrder.lineItems.nodes
          .filter((line) => line.lineItem.sku === row.product_sku && line.remainingQuantity > 0)
          .map((line) => ({ fulfillmentOrder, line, at: numericOf(fulfillmentOrder.assignedLocation.location?.id ?? "") }))
      : [],
  );
  const there = open.filter((each) => each.at === target).reduce((sum, each) => sum + each.line.remainingQuantity, 0);
  let need = row.qty_assigned - there;
  const where = row.source_name ?? `location ${target}`;
  if (need <= 0) return { outcome: noted("moved", "at", { where }), changed: false };
  const elsewhere = open.filter((each) => each.at !== target);
  if (elsewhere.length === 0) {
    const already = there ? message(`${NOTE}.already_there`, { count: there }) : "";
    return { outcome: noted("no_open_line", "no_open_line", { sku: row.product_sku, order: view.name, where, already }), changed: false };
  }
  let moved = 0;
  for (const { fulfillmentOrder, line } of elsewhere) {
    if (need <= 0) break;
    const quantity = Math.min(need, line.remainingQuantity);
    const { fulfillmentOrderMove: answer } = await admin.run(
      FulfillmentOrderMove,
      { id: fulfillmentOrder.id, newLocationId: `gid://shopify/Location/${target}`, fulfillmentOrderLineItems: [{ id: line.id, quantity }] },
      { sku: row.product_sku },
    );
    if (!answer || answer.userErrors.length || !answer.movedFulfillmentOrder) {
      const why = answer?.userErrors.map((error) => error.message).join("; ") || "no fulfillment order returned";
      const before = moved ? message(`${NOTE}.moved_before`, { count: moved }) : "";
      return { outcome: noted("refused", "refused", { qty: quantity, sku: row.product_sku, where, why, before }), changed: moved > 0 };
    }
    moved += quantity;
    need -= quantity;
  }
  const short = need > 0 ? message(`${NOTE}.short`, { count: need }) : "";
  return { outcome: noted("moved", "moved", { count: moved, where, short }), changed: true };
}

/** The outcomes on their assignments, in one statement. */
async function record(outcomes: Map<number, LocationOutcome>) {
  if (outcomes.size === 0) return;
  const ids = [...outcomes.keys()];
  const values = [...outcomes.values()];
  await prisma.$executeRaw`
    UPDATE assignment a SET shopify_location_status = t.status, shopify_location_message = left(t.message, 1000),
                            shopify_location_message_code = t.code::jsonb, shopify_location_at = now()
      FROM unnest(${ids}::int[], ${values.map((each) => each.status)}::text[], ${values.map((each) => each.message)}::text[],
                  ${values.map((each) => JSON.stringify(each.message_code))}::text[]) AS t(id, status, message, code)
     WHERE a.id = t.id`;
}

/**
 * After an assignment is committed (manual, reassign, the AS400's file): the
 * moves, waited for at most `waitMs` (a staff request), then left to finish
 * and record in the background. Nothing is thrown to the caller.
 */
export async function moveAssignedItems(ids: number[], options: { waitMs?: number; admin?: ShopifyAdmin } = {}): Promise<void> {
  const work = moveToSourceLocations(ids, options.admin).then(
    () => undefined,
    (error: unknown) => log.warn(`moving assignments ${ids.join(", ")} to their sources' Shopify locations failed: ${errorMessage(error)}`),
  );
  if (options.waitMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.warn(`moving assignments ${ids.join(", ")} in Shopify took over ${options.waitMs} ms: it goes on in the background`);
      resolve();
    }, options.waitMs);
  });
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}
