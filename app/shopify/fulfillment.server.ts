// Fulfilling one drop-shipped order line in Shopify with the vendor's tracking.
// Idempotent by tracking number: a crash between Shopify's answer and our own
// database update must not fulfil the same shipment twice on the next run.
import { ShopifyApiError, type ShopifyAdmin } from "./admin-client.server";
import { FulfillmentCreate, OrderFulfillmentState } from "./operations";

export type ShopifyFulfillmentFailure = "order_not_found" | "no_open_line" | "user_errors" | "bad_input";

/** A fulfilment Shopify refused or that cannot be made; the message is for people. */
export class ShopifyFulfillmentError extends ShopifyApiError {
  constructor(
    readonly failure: ShopifyFulfillmentFailure,
    message: string,
    operation: string,
    details: unknown,
  ) {
    super(operation, details);
    this.name = "ShopifyFulfillmentError";
    this.message = message;
  }
}

export interface FulfillmentRequest {
  /** Numeric id (as order_grid.shopify_order_id keeps it) or gid. */
  shopifyOrderId: string;
  sku: string;
  quantity: number;
  trackingNumber: string;
  carrier: string | null;
  notifyCustomer?: boolean;
}

// Fulfillment orders in these states still accept fulfilments.
const FULFILLABLE = new Set(["OPEN", "IN_PROGRESS"]);

export function orderGid(shopifyOrderId: string): string {
  const id = shopifyOrderId.trim();
  if (/^gid:\/\/shopify\/Order\/\d+$/.test(id)) return id;
  if (/^\d+$/.test(id)) return `gid://shopify/Order/${id}`;
  throw new ShopifyFulfillmentError("bad_input", `"${shopifyOrderId}" is not a Shopify order id.`, "FulfillmentCreate", { shopifyOrderId });
}

const sameTracking = (a: string | null | undefined, b: string) => (a ?? "").trim().toUpperCase() === b.trim().toUpperCase();

export async function createFulfillmentOnce(
  admin: ShopifyAdmin,
  input: FulfillmentRequest,
): Promise<{ fulfillmentId: string; created: boolean }> {
  const id = orderGid(input.shopifyOrderId);
  if (!input.trackingNumber.trim()) {
    throw new ShopifyFulfillmentError("bad_input", `No tracking number to fulfil SKU ${input.sku} with.`, "FulfillmentCreate", input);
  }
  if (!Number.isInteger(input.quantity) || input.quantity <= 0) {
    throw new ShopifyFulfillmentError("bad_input", `Cannot fulfil ${input.quantity} of SKU ${input.sku}: the quantity must be a whole number above 0.`, "FulfillmentCreate", input);
  }

  const { order } = await admin.run(OrderFulfillmentState, { id }, { sku: input.sku });
  if (!order) {
    throw new ShopifyFulfillmentError("order_not_found", `Order ${input.shopifyOrderId} was not found in Shopify.`, OrderFulfillmentState.name, { id });
  }

  const done = order.fulfillments.find(
    (fulfillment) => fulfillment.status !== "CANCELLED" && fulfillment.trackingInfo.some((info) => sameTracking(info.number, input.trackingNumber)),
  );
  if (done) return { fulfillmentId: done.id, created: false };

  let target: { fulfillmentOrderId: string; lineId: string; remaining: number } | null = null;
  for (const fulfillmentOrder of order.fulfillmentOrders.nodes) {
    if (!FULFILLABLE.has(fulfillmentOrder.status)) continue;
    const line = fulfillmentOrder.lineItems.nodes.find((item) => item.lineItem.sku === input.sku && item.remainingQuantity > 0);
    if (line) {
      target = { fulfillmentOrderId: fulfillmentOrder.id, lineId: line.id, remaining: line.remainingQuantity };
      break;
    }
  }
  if (!target) {
    throw new ShopifyFulfillmentError(
      "no_open_line",
      `No open line for SKU ${input.sku} on order ${order.name} in Shopify (already fulfilled?).`,
      OrderFulfillmentState.name,
      { id, sku: input.sku },
    );
  }

  const { fulfillmentCreate } = await admin.run(FulfillmentCreate, {
    fulfillment: {
      lineItemsByFulfillmentOrder: [
        {
          fulfillmentOrderId: target.fulfillmentOrderId,
          fulfillmentOrderLineItems: [{ id: target.lineId, quantity: Math.min(input.quantity, target.remaining) }],
        },
      ],
      trackingInfo: { number: input.trackingNumber.trim(), company: input.carrier },
      notifyCustomer: input.notifyCustomer ?? false,
    },
  }, { sku: input.sku });
  if (fulfillmentCreate.userErrors.length || !fulfillmentCreate.fulfillment) {
    const messages = fulfillmentCreate.userErrors.map((error) => error.message).join("; ") || "no fulfillment returned";
    throw new ShopifyFulfillmentError(
      "user_errors",
      `Shopify refused to fulfil SKU ${input.sku} on order ${order.name}: ${messages}`,
      FulfillmentCreate.name,
      fulfillmentCreate.userErrors,
    );
  }
  return { fulfillmentId: fulfillmentCreate.fulfillment.id, created: true };
}
