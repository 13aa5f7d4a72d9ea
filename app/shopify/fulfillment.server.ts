// Fulfilling one drop-shipped order line in Shopify with the vendor's tracking.
// Idempotent by tracking number: a crash between Shopify's answer and our own
// database update must not fulfil the same shipment twice on the next run.
import { ShopifyApiError, type ShopifyAdmin } from "./admin-client.server";
import { logger } from "~/observability/logger.server";
import {
  FulfillmentCreate,
  FulfillmentOrderLines,
  OrderFulfillmentOrders,
  OrderFulfillmentState,
  ORDER_FULFILLMENT_PAGES,
  ORDERS_FULFILLMENT_PAGES,
  OrdersFulfillmentState,
  type OrderFulfillmentStateResult,
  type OrdersFulfillmentStateResult,
} from "./operations";
import { MAX_PAGES } from "./pages.server";

const log = logger("shopify");

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
  /** The Shopify location it ships from (the vendor's, numeric id or gid): an open line there is preferred (D169). */
  locationId?: string | null;
}

/** A fulfilment found or made; for one made, where it shipped from, and whether that is not the location asked for. */
export interface FulfillmentOutcome {
  fulfillmentId: string;
  created: boolean;
  location?: { id: string; name: string } | null;
  /** Made elsewhere than `locationId`: no open line of the SKU was at that location (today's rule: the first open line). */
  elsewhere?: boolean;
}

const numericOf = (id: string) => id.split("/").pop() ?? id;

// Fulfillment orders in these states still accept fulfilments.
const FULFILLABLE = new Set(["OPEN", "IN_PROGRESS"]);

export function orderGid(shopifyOrderId: string): string {
  const id = shopifyOrderId.trim();
  if (/^gid:\/\/shopify\/Order\/\d+$/.test(id)) return id;
  if (/^\d+$/.test(id)) return `gid://shopify/Order/${id}`;
  throw new ShopifyFulfillmentError("bad_input", `"${shopifyOrderId}" is not a Shopify order id.`, "FulfillmentCreate", { shopifyOrderId });
}

const sameTracking = (a: string | null | undefined, b: string) => (a ?? "").trim().toUpperCase() === b.trim().toUpperCase();

/** What Shopify says of an order's fulfilments and fulfillment orders; changed in place as fulfilments are made from it. */
export type OrderFulfillmentView = NonNullable<OrderFulfillmentStateResult["order"]>;

function checkInput(input: FulfillmentRequest) {
  if (!input.trackingNumber.trim()) {
    throw new ShopifyFulfillmentError("bad_input", `No tracking number to fulfil SKU ${input.sku} with.`, "FulfillmentCreate", input);
  }
  if (!Number.isInteger(input.quantity) || input.quantity <= 0) {
    throw new ShopifyFulfillmentError(
      "bad_input",
      `Cannot fulfil ${input.quantity} of SKU ${input.sku}: the quantity must be a whole number above 0.`,
      "FulfillmentCreate",
      input,
    );
  }
}

/**
 * One fulfilment from a view of its order: found by tracking number (D15), or
 * created on an open line of the SKU: at the location it ships from when one
 * is there (D169), else on the first open line, as before, and said so.
 */
async function fulfilFromView(admin: ShopifyAdmin, order: OrderFulfillmentView, input: FulfillmentRequest): Promise<FulfillmentOutcome> {
  const done = order.fulfillments.find(
    (fulfillment) => fulfillment.status !== "CANCELLED" && fulfillment.trackingInfo.some((info) => sameTracking(info.number, input.trackingNumber)),
  );
  if (done) return { fulfillmentId: done.id, created: false };

  type FulfillmentOrder = OrderFulfillmentView["fulfillmentOrders"]["nodes"][number];
  const open: Array<{ fulfillmentOrder: FulfillmentOrder; line: FulfillmentOrder["lineItems"]["nodes"][number] }> = [];
  for (const fulfillmentOrder of order.fulfillmentOrders.nodes) {
    if (!FULFILLABLE.has(fulfillmentOrder.status)) continue;
    const line = fulfillmentOrder.lineItems.nodes.find((item) => item.lineItem.sku === input.sku && item.remainingQuantity > 0);
    if (line) open.push({ fulfillmentOrder, line });
  }
  const wanted = input.locationId ? numericOf(input.locationId) : null;
  const atLocation = wanted ? open.find((each) => numericOf(each.fulfillmentOrder.assignedLocation.location?.id ?? "") === wanted) : undefined;
  const target = atLocation ?? open[0] ?? null;
  if (!target) {
    throw new ShopifyFulfillmentError(
      "no_open_line",
      `No open line for SKU ${input.sku} on order ${order.name} in Shopify (already fulfilled?).`,
      OrderFulfillmentState.name,
      { id: order.id, sku: input.sku },
    );
  }
  const elsewhere = Boolean(wanted) && !atLocation;
  if (elsewhere) {
    const from = target.fulfillmentOrder.assignedLocation.location?.name ?? "its fulfillment order's location";
    log.info(`order ${order.name}: no open line of SKU ${input.sku} at location ${wanted}; fulfilled from ${from} instead`);
  }

  const quantity = Math.min(input.quantity, target.line.remainingQuantity);
  const { fulfillmentCreate } = await admin.run(
    FulfillmentCreate,
    {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          {
            fulfillmentOrderId: target.fulfillmentOrder.id,
            fulfillmentOrderLineItems: [{ id: target.line.id, quantity }],
          },
        ],
        trackingInfo: { number: input.trackingNumber.trim(), company: input.carrier },
        notifyCustomer: input.notifyCustomer ?? false,
      },
    },
    { sku: input.sku },
  );
  const userErrors = fulfillmentCreate?.userErrors ?? [];
  const created = fulfillmentCreate?.fulfillment;
  if (userErrors.length || !created) {
    const messages = userErrors.map((error) => error.message).join("; ") || "no fulfillment returned";
    throw new ShopifyFulfillmentError(
      "user_errors",
      `Shopify refused to fulfil SKU ${input.sku} on order ${order.name}: ${messages}`,
      FulfillmentCreate.name,
      userErrors,
    );
  }
  // The view now says what a fresh read would: a later shipment of the same order is planned from it.
  order.fulfillments.push({ id: created.id, status: created.status, trackingInfo: created.trackingInfo });
  target.line.remainingQuantity -= quantity;
  const left = target.fulfillmentOrder.lineItems.nodes.reduce((sum, item) => sum + item.remainingQuantity, 0);
  target.fulfillmentOrder.status = left === 0 ? "CLOSED" : "IN_PROGRESS";
  return { fulfillmentId: created.id, created: true, location: target.fulfillmentOrder.assignedLocation.location, elsewhere };
}

/**
 * Shopify's view of one order, read to its end (D165): the fulfillment orders
 * after the first page, and each one's lines after its first page. The
 * fulfilments are a plain list without a cursor: more than
 * ORDER_FULFILLMENT_PAGES.fulfillments of them is logged, not hidden.
 */
export async function readOrderView(admin: ShopifyAdmin, id: string, context: { sku?: string } = {}): Promise<OrderFulfillmentView | null> {
  const { order } = await admin.run(OrderFulfillmentState, { id }, context);
  if (!order) return null;
  let pageInfo = order.fulfillmentOrders.pageInfo;
  let pages = 1;
  while (pageInfo.hasNextPage && pageInfo.endCursor) {
    if (++pages > MAX_PAGES) throw new ShopifyApiError(OrderFulfillmentOrders.name, `order ${order.name}: more than ${MAX_PAGES} pages of fulfillment orders`);
    const { order: more } = await admin.run(OrderFulfillmentOrders, { id, after: pageInfo.endCursor }, context);
    if (!more) break;
    order.fulfillmentOrders.nodes.push(...more.fulfillmentOrders.nodes);
    pageInfo = more.fulfillmentOrders.pageInfo;
  }
  order.fulfillmentOrders.pageInfo = { hasNextPage: false, endCursor: null };
  for (const fulfillmentOrder of order.fulfillmentOrders.nodes) {
    let lines = fulfillmentOrder.lineItems.pageInfo;
    let linePages = 1;
    while (lines.hasNextPage && lines.endCursor) {
      if (++linePages > MAX_PAGES) throw new ShopifyApiError(FulfillmentOrderLines.name, `order ${order.name}: more than ${MAX_PAGES} pages of lines`);
      const { fulfillmentOrder: more } = await admin.run(FulfillmentOrderLines, { id: fulfillmentOrder.id, after: lines.endCursor }, context);
      if (!more) break;
      fulfillmentOrder.lineItems.nodes.push(...more.lineItems.nodes);
      lines = more.lineItems.pageInfo;
    }
    fulfillmentOrder.lineItems.pageInfo = { hasNextPage: false, endCursor: null };
  }
  const sizes = ORDER_FULFILLMENT_PAGES;
  const full = order.fulfillments.length >= sizes.fulfillments || order.fulfillments.some((each) => each.trackingInfo.length >= sizes.trackingInfo);
  if (full) {
    log.warn(
      `order ${order.name}: Shopify lists at most ${sizes.fulfillments} fulfilments with ${sizes.trackingInfo} tracking numbers each ` +
        "(a plain list, no cursor); a tracking number beyond them is not seen by the once-only check",
    );
  }
  return order;
}

export async function createFulfillmentOnce(admin: ShopifyAdmin, input: FulfillmentRequest): Promise<FulfillmentOutcome> {
  const id = orderGid(input.shopifyOrderId);
  checkInput(input);
  const order = await readOrderView(admin, id, { sku: input.sku });
  if (!order) {
    throw new ShopifyFulfillmentError("order_not_found", `Order ${input.shopifyOrderId} was not found in Shopify.`, OrderFulfillmentState.name, { id });
  }
  return fulfilFromView(admin, order, input);
}

// ---------------------------------------------------------------------------
// A batch of orders (D130): their state in `nodes(ids:)` queries sized by
// Shopify's query cost, then each fulfilment from that state.

/** Shopify refuses a single query above this requested cost (MAX_COST_EXCEEDED). */
export const MAX_QUERY_COST = 1000;
/** Ids per `nodes` query: at most this (Shopify takes 250), and fewer when the cost says so. */
export const MAX_ORDERS_PER_QUERY = 100;
/** The first query's size, before Shopify has said what an order costs. */
const FIRST_ORDERS_PER_QUERY = 25;

declare global {
  // What one order of OrdersFulfillmentState costs, as Shopify last reported it (per process).
  var __ordersFulfillmentStateCost: number | undefined;
}

/** How many orders go in one query: as many as keep its requested cost within Shopify's single-query limit and half the bucket. */
function ordersPerQuery(admin: ShopifyAdmin): number {
  const perOrder = globalThis.__ordersFulfillmentStateCost;
  if (!perOrder) return FIRST_ORDERS_PER_QUERY;
  const ceiling = Math.min(MAX_QUERY_COST, (admin.budget?.maximumAvailable() ?? 2 * MAX_QUERY_COST) / 2) - 1;
  return Math.max(1, Math.min(MAX_ORDERS_PER_QUERY, Math.floor(ceiling / perOrder)));
}

const isMaxCostExceeded = (error: unknown) =>
  error instanceof ShopifyApiError &&
  Array.isArray(error.details) &&
  error.details.some((each) => (each as { extensions?: { code?: unknown } } | null)?.extensions?.code === "MAX_COST_EXCEEDED");

/** A view with more pages, or that fills one of the batch query's plain lists, may leave something out: such an order is read again alone, to its end. */
function mayBeTruncated(order: OrderFulfillmentView): boolean {
  const pages = ORDERS_FULFILLMENT_PAGES;
  return (
    order.fulfillments.length >= pages.fulfillments ||
    order.fulfillments.some((fulfillment) => fulfillment.trackingInfo.length >= pages.trackingInfo) ||
    order.fulfillmentOrders.pageInfo.hasNextPage ||
    order.fulfillmentOrders.nodes.some((fulfillmentOrder) => fulfillmentOrder.lineItems.pageInfo.hasNextPage)
  );
}

/**
 * Shopify's view of each order (by gid; null when Shopify does not know it), in
 * as few `nodes` queries as the query cost allows: the first alone while no
 * order's cost is known, the others side by side (the rate limiter lets as many
 * go as the budget holds). A query Shopify refuses as too costly is split; an
 * order that fills a page is read again alone.
 */
export async function readFulfillmentViews(admin: ShopifyAdmin, orderIds: string[]): Promise<Map<string, OrderFulfillmentView | null>> {
  const views = new Map<string, OrderFulfillmentView | null>();
  const pending = [...new Set(orderIds)];
  if (!globalThis.__ordersFulfillmentStateCost && pending.length > 0) await readViews(admin, pending.splice(0, ordersPerQuery(admin)), views);
  await Promise.all(chunked(pending, ordersPerQuery(admin)).map((ids) => readViews(admin, ids, views)));
  return views;
}

const chunked = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

async function readViews(admin: ShopifyAdmin, ids: string[], views: Map<string, OrderFulfillmentView | null>): Promise<void> {
  const perOrder = globalThis.__ordersFulfillmentStateCost;
  let nodes: OrdersFulfillmentStateResult["nodes"];
  try {
    ({ nodes } = await admin.run(
      OrdersFulfillmentState,
      { ids },
      {
        cost: perOrder ? 1 + perOrder * ids.length : undefined,
        // What an order costs, as Shopify reckons it: the next queries are sized by it.
        onCost: (cost) => {
          if (typeof cost.requestedQueryCost === "number" && cost.requestedQueryCost > 0)
            globalThis.__ordersFulfillmentStateCost = Math.max(1, (cost.requestedQueryCost - 1) / ids.length);
        },
      },
    ));
  } catch (error) {
    if (!isMaxCostExceeded(error) || ids.length === 1) throw error;
    // Shopify reckons an order dearer than we did: learn from its figure (or halve), and try again in smaller queries.
    const reported = Number(
      (error as ShopifyApiError & { details: Array<{ extensions?: { cost?: unknown } }> }).details.find((each) => typeof each?.extensions?.cost === "number")
        ?.extensions?.cost,
    );
    globalThis.__ordersFulfillmentStateCost =
      Number.isFinite(reported) && reported > 0
        ? Math.max((perOrder ?? 0) + 1, reported / ids.length)
        : Math.max((perOrder ?? 1) * 2, MAX_QUERY_COST / Math.ceil(ids.length / 2));
    await Promise.all(chunked(ids, Math.min(ordersPerQuery(admin), Math.ceil(ids.length / 2))).map((part) => readViews(admin, part, views)));
    return;
  }
  for (const [i, id] of ids.entries()) {
    const node = nodes[i];
    const view = node?.id === id ? (node as OrderFulfillmentView) : null;
    views.set(id, view && mayBeTruncated(view) ? await readOrderView(admin, id) : view);
  }
}

/**
 * createFulfillmentOnce for an order whose view was read with readFulfillmentViews.
 * The view is brought up to date with what is created, so the order's next
 * shipment is planned from it. Shopify refusing it (the order changed since it
 * was read: another admin tab, a shipment fulfilled by hand) reads the order
 * again and tries once more from what it says now.
 */
export async function createFulfillmentFromView(
  admin: ShopifyAdmin,
  views: Map<string, OrderFulfillmentView | null>,
  input: FulfillmentRequest,
): Promise<FulfillmentOutcome> {
  const id = orderGid(input.shopifyOrderId);
  checkInput(input);
  const view = views.get(id);
  if (view === undefined) return createFulfillmentOnce(admin, input);
  if (!view)
    throw new ShopifyFulfillmentError("order_not_found", `Order ${input.shopifyOrderId} was not found in Shopify.`, OrdersFulfillmentState.name, { id });
  try {
    return await fulfilFromView(admin, view, input);
  } catch (error) {
    if (!(error instanceof ShopifyFulfillmentError) || error.failure === "bad_input") throw error;
    const order = await readOrderView(admin, id, { sku: input.sku });
    views.set(id, order);
    if (!order)
      throw new ShopifyFulfillmentError("order_not_found", `Order ${input.shopifyOrderId} was not found in Shopify.`, OrderFulfillmentState.name, { id });
    return fulfilFromView(admin, order, input);
  }
}
