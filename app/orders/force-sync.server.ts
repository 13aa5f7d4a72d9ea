// GET /api/advancedordergrid_forcesync?id=: re-reads one order from Shopify
// (OrderRead) and writes its Shopify fields into the order grid row.
import type { Staff } from "~/shopify/staff";
import prisma from "~/db.server";
import { message, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, refuse, ValidationError } from "~/lib/validation.server";
import { ShopifyApiError, shopifyAdminFor, type ShopifyAdmin } from "~/shopify/admin-client.server";
import { OrderRead, type OrderReadResult } from "~/shopify/operations";
import { NOT_REQUIRED } from "./sync.server";

export interface ForceSyncAnswer {
  error: boolean;
  /** Rendered in the reader's language by the route (D127). */
  message: CodedMessage;
  /** The row's Shopify fields after the sync. */
  order?: {
    id: number;
    order_id: string;
    shopify_order_id: string;
    fulfillment_status: string | null;
    financial_status: string | null;
    shopify_updated_at: string | null;
    customer_email: string | null;
    grand_total_purchased: string;
  };
}

/**
 * Shopify's display enums as the grid keeps them (the webhooks' REST values): FULFILLED → fulfilled,
 * PARTIALLY_FULFILLED → partial. 2026-10's FULFILLMENT_NOT_REQUIRED (nothing left to fulfil: cancelled,
 * refunded or edited away before any shipment) → not_required, as order sync derives it (D156).
 */
export function fulfillmentStatusFrom(display: string | null | undefined): string | null {
  if (!display) return null;
  if (display === "PARTIALLY_FULFILLED") return "partial";
  if (display === "FULFILLMENT_NOT_REQUIRED") return NOT_REQUIRED;
  return display.toLowerCase();
}

export const financialStatusFrom = (display: string | null | undefined) => (display ? display.toLowerCase() : null);

const gidOf = (shopifyOrderId: string) => (/^gid:\/\//.test(shopifyOrderId) ? shopifyOrderId : `gid://shopify/Order/${shopifyOrderId.trim()}`);

function orderIdFrom(raw: string | null): number {
  const id = raw?.trim() ?? "";
  if (!/^\d{1,9}$/.test(id) || Number(id) < 1) throw new ValidationError({ id: [message("orders.force_sync.bad_id", { value: id })] });
  return Number(id);
}

export async function forceSyncOrder(
  rawId: string | null,
  staff: Staff,
  admin: ShopifyAdmin = shopifyAdminFor(staff),
): Promise<{ status: number; body: ForceSyncAnswer }> {
  const id = orderIdFrom(rawId);
  const row = await prisma.order.findUnique({ where: { id }, select: { id: true, order_id: true, shopify_order_id: true } });
  if (!row) throw new NotFoundError(message("orders.force_sync.not_found", { id }));
  const shopifyOrderId = row.shopify_order_id?.trim();
  if (!shopifyOrderId) {
    refuse("id", message("orders.force_sync.no_shopify_id", { order: row.order_id }));
  }

  let order: OrderReadResult["order"];
  try {
    ({ order } = await admin.run(OrderRead, { id: gidOf(shopifyOrderId) }));
  } catch (error) {
    if (!(error instanceof ShopifyApiError)) throw error;
    return { status: 502, body: { error: true, message: message("orders.force_sync.shopify_error", { order: row.order_id, detail: error.message }) } };
  }
  if (!order) {
    return { status: 502, body: { error: true, message: message("orders.force_sync.shopify_missing", { order: row.order_id, id: shopifyOrderId }) } };
  }

  const updatedAt = new Date(order.updatedAt);
  const amount = order.totalPriceSet?.shopMoney?.amount;
  // An answer older than what the row already holds (a webhook came in meanwhile) changes nothing.
  await prisma.$executeRaw`
    UPDATE order_grid
       SET fulfillment_status = ${fulfillmentStatusFrom(order.displayFulfillmentStatus)},
           financial_status = ${financialStatusFrom(order.displayFinancialStatus)},
           shopify_updated_at = ${updatedAt},
           customer_email = COALESCE(${order.email ?? null}, customer_email),
           grand_total_purchased = COALESCE(${amount ?? null}::numeric, grand_total_purchased)
     WHERE id = ${id} AND (shopify_updated_at IS NULL OR shopify_updated_at <= ${updatedAt})`;

  const after = await prisma.order.findUniqueOrThrow({
    where: { id },
    select: {
      id: true,
      order_id: true,
      fulfillment_status: true,
      financial_status: true,
      shopify_updated_at: true,
      customer_email: true,
      grand_total_purchased: true,
    },
  });
  return {
    status: 200,
    body: {
      error: false,
      message: message("orders.force_sync.synced", { order: row.order_id }),
      order: {
        ...after,
        shopify_order_id: shopifyOrderId,
        shopify_updated_at: after.shopify_updated_at?.toISOString() ?? null,
        grand_total_purchased: after.grand_total_purchased.toFixed(2),
      },
    },
  };
}
