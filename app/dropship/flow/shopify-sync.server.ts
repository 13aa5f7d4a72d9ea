// What the drop-ship flow tells Shopify, after the database knows it:
// a fulfilment with tracking for each shipped response (idempotent by
// tracking number, so a crash between Shopify's answer and our update never
// fulfils twice) and recorded for the AS400 in the realtime shipping log,
// and vendors' stock as "available" at their location.
import { logMessage } from "~/i18n/english.server";
import { message } from "~/i18n/messages";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { ShopifyApiError, type ShopifyAdmin } from "~/shopify/admin-client.server";
import { recordDropshipShipments } from "~/as400/realtime-outbox.server";
import { createFulfillmentFromView, orderGid, readFulfillmentViews, type FulfillmentOutcome, type OrderFulfillmentView } from "~/shopify/fulfillment.server";
import { FulfillmentCreate } from "~/shopify/operations";
import { DEFAULT_CALL_COST, NORMAL_CONCURRENCY } from "~/shopify/rate-limiter.server";
import { setAvailableQuantities } from "~/shopify/inventory.server";
import { jobsShopifyAdmin } from "~/shopify/jobs-admin.server";
import { SCOPES_NEEDED } from "~/shopify/access-scopes";
import { MissingScopesError, requireScopes } from "~/shopify/granted-scopes.server";
import { StepReport, writeLogs, type LogEntry } from "./context.server";
import { crashPoint } from "./crash-hook.server";
import { errorMessage } from "~/lib/error-message";
import { moveToSourceLocations } from "~/sales/shopify-location.server";

/**
 * Responses per batch: their orders are read from Shopify in a few queries, their fulfilments
 * made several at a time, their results written in one transaction.
 */
const BATCH = 200;
/** A shipment due in Shopify, with what its request and order say (one statement per batch). */
interface DueShipment {
  id: number;
  vendor_id: number;
  vendor_name: string;
  po_number: string;
  order_increment_id: string | null;
  item_sku: string | null;
  qty: number | null;
  tracking_number: string | null;
  tracking_carrier: string | null;
  request_id: number;
  request_order: string;
  request_sku: string;
  request_qty: number;
  assignment_id: number;
  shopify_order_id: string | null;
  /** The Shopify location of the assignment's source (the vendor's, D48): the fulfilment is made there when it can be (D169). */
  location_id: string | null;
  shopify_location_status: string | null;
  /** The vendor's "Notify Customer on Shipment" (D243). */
  notify_customer: number;
}

type Outcome = { due: DueShipment; fulfilment: FulfillmentOutcome } | { due: DueShipment; failure: string; noOrder?: true };

/**
 * Each shipped response becomes a fulfilment in Shopify (D101, D130): a batch
 * of responses is read in one statement; Shopify's view of all their orders
 * comes in a few `nodes` queries (as many orders to a query as its cost
 * allows), then the fulfilments are created as many at a time as the shop's
 * cost budget holds (the rate limiter's figures, never more); the batch's
 * results are written in one transaction of a few statements. A crash between
 * Shopify's answers and that transaction loses nothing: the responses are
 * still received, and the next run finds each fulfilment by its tracking
 * number (D15) in the orders' view instead of creating it again.
 */
export async function fulfilShipments(report: StepReport, options: { responseIds?: number[] } = {}) {
  let afterId = 0;
  let admin: Awaited<ReturnType<typeof jobsShopifyAdmin>> | null = null;
  for (;;) {
    const due = await prisma.$queryRaw<DueShipment[]>`
      SELECT r.id, r.vendor_id, r.vendor_name, r.po_number, r.order_increment_id, r.item_sku, r.qty, r.tracking_number, r.tracking_carrier,
             q.request_id, q.order_increment_id AS request_order, q.item_sku AS request_sku, q.qty AS request_qty, q.assignment_id,
             coalesce(a.shopify_order_id, o.shopify_order_id) AS shopify_order_id, s.shopify_location_id AS location_id,
             a.shopify_location_status, v.notify_customer
        FROM dropship_response r
        JOIN dropship_vendor v ON v.id = r.vendor_id
        JOIN dropship_request q ON q.request_id = r.request_id
        JOIN assignment a ON a.id = q.assignment_id
        LEFT JOIN inventory_source s ON s.source_code = a.store_id
        LEFT JOIN order_grid o ON a.shopify_order_id IS NULL AND o.order_id = q.order_increment_id
       WHERE r.response_type = '856' AND r.status = 'received' AND r.id > ${afterId}
         AND (${options.responseIds ?? null}::int[] IS NULL OR r.id = ANY(${options.responseIds ?? null}::int[]))
       ORDER BY r.id
       LIMIT ${BATCH}`;
    if (due.length === 0) return;
    afterId = due[due.length - 1].id;
    if (!admin) {
      try {
        admin = await jobsShopifyAdmin();
        // Without the grant every shipment would fail alone ("access denied", then "no open line"): one reason instead.
        await requireScopes(admin, SCOPES_NEEDED.fulfilment);
      } catch (error) {
        if (error instanceof MissingScopesError) return waitForAccess(error, report, options);
        report.problem(`Shopify: ${errorMessage(error)}`);
        return;
      }
    }
    // Lines not moved to the vendor's location yet (refused before the vendor's 846 stocked it there, a failed call,
    // a location linked since): tried again now, so the fulfilment is made there (D169). Never stops the fulfilments.
    const notMoved = [...new Set(due.filter((each) => each.location_id && each.shopify_location_status !== "moved").map((each) => each.assignment_id))];
    if (notMoved.length) await moveToSourceLocations(notMoved, admin).catch(() => undefined);
    const outcomes: Outcome[] = [];
    // The batch's orders as Shopify sees them. If that read fails, each response is tried alone (and fails alone).
    let views = new Map<string, OrderFulfillmentView | null>();
    try {
      views = await readFulfillmentViews(admin, [
        ...new Set(
          due.flatMap((response) => (response.shopify_order_id ? [validGid(response.shopify_order_id)] : [])).filter((id): id is string => id !== null),
        ),
      ]);
    } catch (error) {
      if (!(error instanceof ShopifyApiError)) throw error;
    }
    // The responses of one order one after another, so two shipments of the same order never ask for the same
    // open line at once; orders side by side, as many as the budget holds for FulfillmentCreate's cost.
    const byOrder = new Map<string, DueShipment[]>();
    for (const response of due) byOrder.set(response.request_order, [...(byOrder.get(response.request_order) ?? []), response]);
    const queue = [...byOrder.values()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const response of group) outcomes.push(await askShopify(admin!, views, response));
      }
    };
    const room = admin.budget?.room(admin.budget.requestedCost(FulfillmentCreate.name) ?? DEFAULT_CALL_COST) ?? NORMAL_CONCURRENCY;
    await Promise.all(Array.from({ length: Math.min(room, queue.length) }, worker));
    await recordOutcomes(outcomes, report);
  }
}

/** The shipments stay received (fulfilled at the first run once the access is approved); one log line and one problem say why. */
async function waitForAccess(error: MissingScopesError, report: StepReport, options: { responseIds?: number[] }) {
  const [{ waiting }] = await prisma.$queryRaw<Array<{ waiting: number }>>`
    SELECT count(*)::int AS waiting FROM dropship_response
     WHERE response_type = '856' AND status = 'received'
       AND (${options.responseIds ?? null}::int[] IS NULL OR id = ANY(${options.responseIds ?? null}::int[]))`;
  const reason = message("logs.dropship.fulfilment_access_missing", {
    shipments: message("logs.n.shipment", { count: waiting }),
    scopes: error.missing.join(", "),
  });
  report.problem(reason);
  await writeLogs([{ action: "shopify_fulfillment", status: "error", ...logMessage(reason.code, reason.params) }]);
}

/** The order's gid, or null when the id is not one (that response then fails on its own). */
function validGid(shopifyOrderId: string): string | null {
  try {
    return orderGid(shopifyOrderId);
  } catch {
    return null;
  }
}

async function askShopify(admin: ShopifyAdmin, views: Map<string, OrderFulfillmentView | null>, due: DueShipment): Promise<Outcome> {
  if (!due.shopify_order_id) return { due, failure: "the order has no Shopify order id", noOrder: true };
  try {
    const fulfilment = await createFulfillmentFromView(admin, views, {
      shopifyOrderId: due.shopify_order_id,
      sku: due.item_sku ?? due.request_sku,
      quantity: due.qty ?? due.request_qty,
      trackingNumber: due.tracking_number!,
      carrier: due.tracking_carrier,
      locationId: due.location_id,
      // Shopify's shipping e-mail with the tracking number, as the vendor is set (D243).
      notifyCustomer: due.notify_customer === 1,
    });
    crashPoint("after-fulfilment-call");
    return { due, fulfilment };
  } catch (error) {
    if (!(error instanceof ShopifyApiError)) throw error;
    return { due, failure: error.message };
  }
}

const logBase = (due: DueShipment) => ({
  vendor_id: due.vendor_id,
  vendor_name: due.vendor_name,
  action: "shopify_fulfillment" as const,
  po_number: due.po_number,
  order_increment_id: due.order_increment_id,
  item_sku: due.item_sku,
  qty: due.qty,
  tracking_number: due.tracking_number,
});

/** A batch's results in one transaction: responses, requests and assignments by unnest, the AS400 shipping rows and the logs in one insert each. */
async function recordOutcomes(outcomes: Outcome[], report: StepReport) {
  const done = outcomes.filter((o): o is Extract<Outcome, { fulfilment: unknown }> => "fulfilment" in o);
  const failed = outcomes.filter((o): o is Extract<Outcome, { failure: string }> => "failure" in o);
  const logs: LogEntry[] = [];
  await prisma.$transaction(
    async (tx) => {
      let completed = new Set<number>();
      if (done.length) {
        await tx.$executeRaw`
          UPDATE dropship_response r SET status = 'fulfilled', shopify_fulfillment_id = t.f, needs_processing = false, processed_at = now(),
                                         detail = NULL, updated_at = now()
            FROM unnest(${done.map((o) => o.due.id)}::int[], ${done.map((o) => o.fulfilment.fulfillmentId)}::text[]) AS t(id, f)
           WHERE r.id = t.id`;
        // Complete once everything asked for has shipped (partial shipments add up): the request, then its assignment.
        const complete = await tx.$queryRaw<Array<{ request_id: number }>>`
          WITH shipped AS (
            SELECT request_id, sum(qty) AS qty FROM dropship_response
             WHERE request_id = ANY(${[...new Set(done.map((o) => o.due.request_id))]}::int[]) AND response_type = '856' AND status = 'fulfilled'
             GROUP BY request_id),
          finished AS (
            UPDATE dropship_request q SET status = CASE WHEN q.status = 'archived' THEN 'archived' ELSE 'completed' END, updated_at = now()
              FROM shipped s WHERE q.request_id = s.request_id AND coalesce(s.qty, 0) >= q.qty
            RETURNING q.request_id, q.assignment_id),
          assigned AS (
            UPDATE assignment a SET assign_status = 4, update_time = now() FROM finished f WHERE a.id = f.assignment_id RETURNING a.id)
          SELECT request_id FROM finished`;
        completed = new Set(complete.map((row) => row.request_id));
        // The shipments go on to the AS400 (realtime shipping log, D26), committed with the rest.
        await recordDropshipShipments(
          tx as Prisma.TransactionClient,
          done.map(({ due, fulfilment }) => ({
            shopifyOrderId: due.shopify_order_id!,
            orderId: due.request_order,
            fulfillmentId: fulfilment.fulfillmentId,
            createdInShopify: fulfilment.created,
            poNumber: due.po_number,
            vendorName: due.vendor_name,
            responseId: due.id,
            sku: due.item_sku ?? due.request_sku,
            qty: due.qty ?? due.request_qty,
            trackingNumber: due.tracking_number,
            carrier: due.tracking_carrier,
          })),
        );
        for (const { due, fulfilment } of done) {
          const complete = completed.has(due.request_id);
          logs.push({
            ...logBase(due),
            status: "success",
            ...logMessage(fulfilment.created ? "logs.dropship.fulfilment_created" : "logs.dropship.fulfilment_existing", {
              order: due.request_order,
              qty: due.qty ?? due.request_qty,
              sku: due.item_sku ?? due.request_sku,
              carrier: due.tracking_carrier ? message("logs.dropship.comma_carrier", { carrier: due.tracking_carrier }) : "",
              tracking: due.tracking_number,
              complete: complete ? message("logs.dropship.assignment_complete", { assignment: due.assignment_id }) : "",
            }),
          });
          // Not at the vendor's location (its lines were never moved there, D169): said so, the fulfilment stands.
          if (fulfilment.created && fulfilment.elsewhere) {
            logs.push({
              ...logBase(due),
              status: "info",
              ...logMessage("logs.dropship.fulfilled_elsewhere", {
                location: fulfilment.location?.name ?? "?",
                order: due.request_order,
                sku: due.item_sku ?? due.request_sku,
                vendor: due.vendor_name,
              }),
            });
          }
        }
      }
      if (failed.length) {
        // No Shopify order id: failed (fulfil by hand, or revise once synced). A Shopify error: kept as received, tried again at the next run.
        await tx.$executeRaw`
          UPDATE dropship_response r SET detail = left(t.d, 500), updated_at = now(),
                 status = CASE WHEN t.no_order THEN 'failed' ELSE r.status END,
                 needs_processing = CASE WHEN t.no_order THEN false ELSE r.needs_processing END
            FROM unnest(${failed.map((o) => o.due.id)}::int[], ${failed.map((o) => o.failure)}::text[], ${failed.map((o) => o.noOrder === true)}::boolean[])
                 AS t(id, d, no_order)
           WHERE r.id = t.id`;
        for (const { due, failure, noOrder } of failed) {
          logs.push({
            ...logBase(due),
            status: "error",
            ...(noOrder
              ? logMessage("logs.dropship.no_shopify_order", { order: due.request_order })
              : logMessage("logs.dropship.fulfilment_failed", { po: due.po_number, error: failure })),
          });
        }
      }
      await writeLogs(logs, tx as Prisma.TransactionClient);
    },
    { timeout: 120_000 },
  );
  for (const { due, failure, noOrder } of failed)
    report.problem(
      noOrder ? message("logs.dropship.no_shopify_order_problem", { po: due.po_number, order: due.request_order }) : `PO ${due.po_number}: ${failure}`,
    );
  if (done.length) report.count("fulfilments", done.length);
}

/** Pushes the stock levels that changed since Shopify was last told, per drop-ship vendor's location. */
export async function syncInventoryToShopify(report: StepReport) {
  const sources = await prisma.$queryRaw<Array<{ source_code: string; name: string; changed: bigint }>>`
    SELECT s.source_code, s.name, count(*) AS changed
      FROM inventory_source_item i JOIN inventory_source s ON s.source_code = i.source_code
     WHERE s.type = 'dropshipper' AND i.shopify_synced_quantity IS DISTINCT FROM i.quantity
     GROUP BY s.source_code, s.name`;
  if (sources.length === 0) return;
  let admin;
  try {
    admin = await jobsShopifyAdmin();
    await requireScopes(admin, SCOPES_NEEDED.vendorStock);
  } catch (error) {
    if (error instanceof MissingScopesError) {
      const reason = message("logs.dropship.inventory_access_missing", {
        stock: message("logs.n.stock_level", { count: sources.reduce((sum, source) => sum + Number(source.changed), 0) }),
        scopes: error.missing.join(", "),
      });
      report.problem(reason);
      await writeLogs([{ action: "shopify_inventory", status: "error", ...logMessage(reason.code, reason.params) }]);
      return;
    }
    report.problem(`Shopify: ${errorMessage(error)}`);
    return;
  }
  for (const source of sources) {
    for (;;) {
      const rows = await prisma.$queryRaw<Array<{ sku: string; quantity: number }>>`
        SELECT sku, quantity FROM inventory_source_item
         WHERE source_code = ${source.source_code} AND shopify_synced_quantity IS DISTINCT FROM quantity
         ORDER BY sku LIMIT 2000`;
      if (rows.length === 0) break;
      try {
        const result = await setAvailableQuantities(admin, { locationName: source.name, items: rows });
        // Only what was sent is marked: a quantity changed meanwhile stays different and goes next time.
        await prisma.$executeRaw`
          UPDATE inventory_source_item i SET shopify_synced_quantity = t.q
            FROM unnest(${rows.map((row) => row.sku)}::text[], ${rows.map((row) => row.quantity)}::int[]) AS t(s, q)
           WHERE i.source_code = ${source.source_code} AND i.sku = t.s`;
        report.count("stock_levels_sent", rows.length - result.unknownSkus.length);
        await writeLogs([
          {
            action: "shopify_inventory",
            status: result.unknownSkus.length ? "warning" : "success",
            vendor_name: source.name,
            ...logMessage("logs.dropship.inventory_set", {
              source: source.name,
              quantities: message("logs.n.quantity", { count: result.set }),
              unknown: result.unknownSkus.length
                ? message("logs.dropship.inventory_unknown", {
                    skus: message("logs.n.sku", { count: result.unknownSkus.length }),
                    list: `${result.unknownSkus.slice(0, 5).join(", ")}${result.unknownSkus.length > 5 ? ", ..." : ""}`,
                  })
                : "",
            }),
          },
        ]);
      } catch (error) {
        if (!(error instanceof ShopifyApiError)) throw error;
        report.problem(`Shopify inventory at ${source.name}: ${error.message}`);
        await writeLogs([
          {
            action: "shopify_inventory",
            status: "error",
            vendor_name: source.name,
            ...logMessage("logs.dropship.inventory_failed", { source: source.name, error: error.message }),
          },
        ]);
        break;
      }
    }
  }
}
