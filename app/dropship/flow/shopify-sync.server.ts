// What the drop-ship flow tells Shopify, after the database knows it:
// a fulfilment with tracking for each shipped response (idempotent by
// tracking number, so a crash between Shopify's answer and our update never
// fulfils twice) and recorded for the AS400 in the realtime shipping log,
// and vendors' stock as "available" at their location.
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { ShopifyApiError, type ShopifyAdmin } from "~/shopify/admin-client.server";
import { recordDropshipShipment } from "~/sales/realtime-outbox.server";
import { createFulfillmentOnce } from "~/shopify/fulfillment.server";
import { setAvailableQuantities } from "~/shopify/inventory.server";
import { jobsShopifyAdmin } from "~/shopify/jobs-admin.server";
import { errorMessage, plural, StepReport, writeLogs } from "./context.server";

const BATCH = 200;
/** Shopify allows bursts; four calls at once stay well inside its rate limits. */
const SHOPIFY_CONCURRENCY = 4;

export async function fulfilShipments(report: StepReport, options: { responseIds?: number[] } = {}) {
  let afterId = 0;
  let admin: Awaited<ReturnType<typeof jobsShopifyAdmin>> | null = null;
  for (;;) {
    const due = await prisma.dropshipResponse.findMany({
      where: { response_type: "856", status: "received", request_id: { not: null }, id: { gt: afterId, ...(options.responseIds ? { in: options.responseIds } : {}) } },
      include: { request: { include: { assignment: { select: { id: true, shopify_order_id: true, assign_status: true } } } } },
      orderBy: { id: "asc" },
      take: BATCH,
    });
    if (due.length === 0) return;
    afterId = due[due.length - 1].id;
    try {
      admin ??= await jobsShopifyAdmin();
    } catch (error) {
      report.problem(`Shopify: ${errorMessage(error)}`);
      return;
    }
    // A few Shopify calls in flight; the responses of one order one after another, so two
    // shipments of the same order never ask for the same open line at once.
    const byOrder = new Map<string, typeof due>();
    for (const response of due) byOrder.set(response.request!.order_increment_id, [...(byOrder.get(response.request!.order_increment_id) ?? []), response]);
    const queue = [...byOrder.values()];
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const response of group) await fulfilOne(admin!, response, report);
      }
    };
    await Promise.all(Array.from({ length: SHOPIFY_CONCURRENCY }, worker));
  }
}

type DueResponse = Prisma.DropshipResponseGetPayload<{ include: { request: { include: { assignment: { select: { id: true; shopify_order_id: true; assign_status: true } } } } } }>;

async function fulfilOne(admin: ShopifyAdmin, response: DueResponse, report: StepReport) {
  const request = response.request!;
  const base = { vendor_id: response.vendor_id, vendor_name: response.vendor_name, action: "shopify_fulfillment" as const, po_number: response.po_number, order_increment_id: response.order_increment_id, item_sku: response.item_sku, qty: response.qty, tracking_number: response.tracking_number };
  const shopifyOrderId =
    request.assignment.shopify_order_id ?? (await prisma.order.findUnique({ where: { order_id: request.order_increment_id }, select: { shopify_order_id: true } }))?.shopify_order_id ?? null;
  if (!shopifyOrderId) {
    await prisma.dropshipResponse.update({ where: { id: response.id }, data: { status: "failed", detail: "the order has no Shopify order id", needs_processing: false } });
    await writeLogs([{ ...base, status: "error", message: `Order ${request.order_increment_id} has no Shopify order id: fulfil it in Shopify by hand, or revise the response once the order is synced.` }]);
    report.problem(`PO ${response.po_number}: order ${request.order_increment_id} has no Shopify order id`);
    return;
  }
  let fulfilment: { fulfillmentId: string; created: boolean };
  try {
    fulfilment = await createFulfillmentOnce(admin, {
      shopifyOrderId,
      sku: response.item_sku ?? request.item_sku,
      quantity: response.qty ?? request.qty,
      trackingNumber: response.tracking_number!,
      carrier: response.tracking_carrier,
    });
  } catch (error) {
    if (!(error instanceof ShopifyApiError)) throw error;
    // Kept as received: tried again at the next run (a revision can correct it).
    await prisma.dropshipResponse.update({ where: { id: response.id }, data: { detail: error.message.slice(0, 500) } });
    await writeLogs([{ ...base, status: "error", message: `Shopify fulfilment for PO ${response.po_number} failed: ${error.message}. Tried again at the next run.` }]);
    report.problem(`PO ${response.po_number}: ${error.message}`);
    return;
  }
  await prisma.$transaction(async (tx) => {
    await tx.dropshipResponse.update({ where: { id: response.id }, data: { status: "fulfilled", shopify_fulfillment_id: fulfilment.fulfillmentId, needs_processing: false, processed_at: new Date(), detail: null } });
    // Complete once everything asked for has shipped (partial shipments add up).
    const shipped = await tx.dropshipResponse.aggregate({ where: { request_id: request.request_id, response_type: "856", status: "fulfilled" }, _sum: { qty: true } });
    const complete = (shipped._sum.qty ?? 0) >= request.qty;
    if (complete) {
      await tx.dropshipRequest.update({ where: { request_id: request.request_id }, data: { status: request.status === "archived" ? "archived" : "completed" } });
      await tx.assignment.update({ where: { id: request.assignment_id }, data: { assign_status: 4 } });
    }
    // The shipment goes on to the AS400 (realtime shipping log, D26), committed with the rest.
    await recordDropshipShipment(tx, {
      shopifyOrderId,
      orderId: request.order_increment_id,
      fulfillmentId: fulfilment.fulfillmentId,
      createdInShopify: fulfilment.created,
      poNumber: response.po_number,
      vendorName: response.vendor_name,
      responseId: response.id,
      sku: response.item_sku ?? request.item_sku,
      qty: response.qty ?? request.qty,
      trackingNumber: response.tracking_number,
      carrier: response.tracking_carrier,
    });
    await writeLogs(
      [
        {
          ...base,
          status: "success",
          message: `${fulfilment.created ? "Fulfilment created in" : "Fulfilment already in"} Shopify for order ${request.order_increment_id}: ${response.qty ?? request.qty} x ${response.item_sku ?? request.item_sku}${response.tracking_carrier ? `, ${response.tracking_carrier}` : ""} tracking ${response.tracking_number}.${complete ? ` Assignment ${request.assignment_id} is Complete.` : ""}`,
        },
      ],
      tx,
    );
  });
  report.count("fulfilments");
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
  } catch (error) {
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
            message: `Shopify inventory at ${source.name}: ${plural(result.set, "quantity", "quantities")} set${result.unknownSkus.length ? `; ${plural(result.unknownSkus.length, "SKU")} unknown to Shopify (${result.unknownSkus.slice(0, 5).join(", ")}${result.unknownSkus.length > 5 ? ", ..." : ""})` : ""}.`,
          },
        ]);
      } catch (error) {
        if (!(error instanceof ShopifyApiError)) throw error;
        report.problem(`Shopify inventory at ${source.name}: ${error.message}`);
        await writeLogs([{ action: "shopify_inventory", status: "error", vendor_name: source.name, message: `Shopify inventory at ${source.name} not updated: ${error.message}. Tried again at the next run.` }]);
        break;
      }
    }
  }
}
