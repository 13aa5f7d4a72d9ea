// The stand-in's orders as Shopify models them for fulfilment (D165, D169):
// an order's lines are grouped into fulfillment orders, each assigned to a
// location; fulfillmentOrderMove moves lines (or a whole fulfillment order) to
// another location; fulfilments are made per fulfillment order. Lists are
// served in pages with opaque cursors, as Shopify serves connections.
//
// Routing, plainly: a line the catalog names a location for goes there; any
// other line goes to the shop's first active location (the catalog's first,
// in local mode Store 001). Shopify's own routing weighs stock and distance;
// the app never depends on where a line starts, only on moving it.

export interface Located {
  id: string;
  name: string;
}

export interface FulfillmentOrderLine {
  id: string;
  sku: string;
  /** The order line's whole quantity (`lineItem { quantity }`). */
  orderLineQuantity: number;
  /** Units this fulfillment order holds of it, and how many of them are not fulfilled yet. */
  total: number;
  remaining: number;
}

export interface StandInFulfillmentOrder {
  numericId: string;
  order: StandInOrder;
  location: Located;
  lines: FulfillmentOrderLine[];
  /** Moved away whole, or emptied by a move: nothing left to do here. */
  closed: boolean;
}

export interface StandInOrder {
  numericId: string;
  name: string;
  lines: Array<{ sku: string; quantity: number }>;
  fulfillmentOrders: StandInFulfillmentOrder[];
  fulfillments: Array<{ id: string; status: string; trackingInfo: Array<{ number: string | null; company: string | null }> }>;
}

const pad = (index: number) => String(index).padStart(3, "0");
export const orderGid = (numericId: string) => `gid://shopify/Order/${numericId}`;
export const fulfillmentOrderGid = (numericId: string) => `gid://shopify/FulfillmentOrder/${numericId}`;
const fulfillmentOrderLineGid = (foNumericId: string, index: number) => `gid://shopify/FulfillmentOrderLineItem/${foNumericId}${pad(index + 1)}`;
export const fulfillmentGid = (numericId: string, index: number) => `gid://shopify/Fulfillment/${numericId}${pad(index + 1)}`;

// ---------------------------------------------------------------------------
// Pages: the cursor is the offset, base64-encoded with the list's name, so a
// cursor of one list given to another starts that one from its beginning.

const cursorOf = (list: string, offset: number) => Buffer.from(`${list}:${offset}`).toString("base64url");
function offsetOf(list: string, cursor: unknown): number {
  if (typeof cursor !== "string" || !cursor) return 0;
  const text = Buffer.from(cursor, "base64url").toString();
  const at = text.lastIndexOf(":");
  const offset = Number(text.slice(at + 1));
  return text.slice(0, at) === list && Number.isInteger(offset) && offset > 0 ? offset : 0;
}
/** One page of `items` after the cursor `after` (null: the first), `first` long. */
export function page<T>(items: T[], after: unknown, first: number, list = "list") {
  const start = offsetOf(list, after);
  const nodes = items.slice(start, start + first);
  const end = start + nodes.length;
  return { pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length ? cursorOf(list, end) : null }, nodes };
}

// ---------------------------------------------------------------------------

export function createOrder(
  numericId: string,
  found: { name: string; lineItems: Array<{ sku: string; quantity: number; location?: Located }> },
  routedTo: Located,
): StandInOrder {
  const order: StandInOrder = { numericId, name: found.name, lines: [], fulfillmentOrders: [], fulfillments: [] };
  found.lineItems.forEach((line) => {
    order.lines.push({ sku: line.sku, quantity: line.quantity });
    const location = line.location ?? routedTo;
    const fo = order.fulfillmentOrders.find((each) => each.location.id === location.id) ?? addFulfillmentOrder(order, location);
    fo.lines.push({
      id: fulfillmentOrderLineGid(fo.numericId, fo.lines.length),
      sku: line.sku,
      orderLineQuantity: line.quantity,
      total: line.quantity,
      remaining: line.quantity,
    });
  });
  return order;
}

/** The first keeps the order's own number (as the stand-in always answered); later ones add a counter. */
function addFulfillmentOrder(order: StandInOrder, location: Located): StandInFulfillmentOrder {
  const count = order.fulfillmentOrders.length;
  const fo: StandInFulfillmentOrder = {
    numericId: count === 0 ? order.numericId : `${order.numericId}${pad(count)}`,
    order,
    location,
    lines: [],
    closed: false,
  };
  order.fulfillmentOrders.push(fo);
  return fo;
}

export function fulfillmentOrderStatus(fo: StandInFulfillmentOrder): "OPEN" | "IN_PROGRESS" | "CLOSED" {
  const remaining = fo.lines.reduce((sum, line) => sum + line.remaining, 0);
  if (fo.closed || remaining === 0) return "CLOSED";
  return fo.lines.some((line) => line.remaining < line.total) ? "IN_PROGRESS" : "OPEN";
}

export function displayFulfillmentStatus(order: StandInOrder): string {
  const lines = order.fulfillmentOrders.flatMap((fo) => fo.lines);
  const remaining = lines.reduce((sum, line) => sum + line.remaining, 0);
  if (remaining === 0) return "FULFILLED";
  return lines.some((line) => line.remaining < line.total) ? "PARTIALLY_FULFILLED" : "UNFULFILLED";
}

export interface Pages {
  fulfillments?: number;
  trackingInfo?: number;
  fulfillmentOrders?: number;
  lineItems?: number;
}
const ALL = Number.MAX_SAFE_INTEGER;
const cut = <T>(list: T[], first: number | undefined) => (first === undefined ? list : list.slice(0, first));

/** A fulfillment order as the documents select it; its lines one page long. */
export function fulfillmentOrderNode(fo: StandInFulfillmentOrder, lines: { first?: number; after?: unknown } = {}) {
  return {
    id: fulfillmentOrderGid(fo.numericId),
    status: fulfillmentOrderStatus(fo),
    assignedLocation: { location: { id: fo.location.id, name: fo.location.name } },
    lineItems: page(
      fo.lines.map((line) => ({ id: line.id, remainingQuantity: line.remaining, lineItem: { sku: line.sku, quantity: line.orderLineQuantity } })),
      lines.after,
      lines.first ?? ALL,
      `lines:${fo.numericId}`,
    ),
  };
}

/** The order's fulfilments and fulfillment orders, each list one page (`pages`), the fulfillment orders after `after`. */
export function orderFulfillmentView(order: StandInOrder, pages: Pages = {}, after?: unknown) {
  return {
    id: orderGid(order.numericId),
    name: order.name,
    fulfillments: cut(order.fulfillments, pages.fulfillments).map((fulfillment) => ({
      ...fulfillment,
      trackingInfo: cut(fulfillment.trackingInfo, pages.trackingInfo),
    })),
    fulfillmentOrders: fulfillmentOrdersPage(order, pages, after),
  };
}

export function fulfillmentOrdersPage(order: StandInOrder, pages: Pages, after: unknown) {
  const { pageInfo, nodes } = page(order.fulfillmentOrders, after, pages.fulfillmentOrders ?? ALL, `fos:${order.numericId}`);
  return { pageInfo, nodes: nodes.map((fo) => fulfillmentOrderNode(fo, { first: pages.lineItems })) };
}

// ---------------------------------------------------------------------------
// fulfillmentOrderMove (D169). Shopify's docs list when a move fails (closed,
// progress reported, a location that does not stock the item); the messages
// below are the stand-in's, Shopify's exact texts are not published.

export interface MoveRequest {
  fo: StandInFulfillmentOrder;
  to: Located;
  /** Left out: every line with its remaining quantity. */
  lines?: Array<{ id: string; quantity: number }>;
}
export type MoveAnswer =
  | { userErrors: Array<{ field: string[] | null; message: string; code: string | null }> }
  | { moved: StandInFulfillmentOrder; original: StandInFulfillmentOrder };

/**
 * Checks and applies a move. `stocks(sku)` says whether the new location
 * stocks the SKU (the stand-in's inventory levels).
 */
export function moveFulfillmentOrder(request: MoveRequest, stocks: (sku: string) => boolean): MoveAnswer {
  const { fo, to } = request;
  const refuse = (field: string[] | null, message: string, code: string | null = null) => ({ userErrors: [{ field, message, code }] });
  const status = fulfillmentOrderStatus(fo);
  if (status === "CLOSED") return refuse(["id"], `Fulfillment order ${fo.numericId} is closed and cannot be moved.`);
  if (fo.location.id === to.id) return refuse(["newLocationId"], "The fulfillment order is already assigned to this location.");
  const asked = request.lines?.length
    ? request.lines
    : fo.lines.filter((line) => line.remaining > 0).map((line) => ({ id: line.id, quantity: line.remaining }));
  const moving: Array<{ line: FulfillmentOrderLine; quantity: number }> = [];
  for (const item of asked) {
    const line = fo.lines.find((each) => each.id === item.id);
    if (!line) return refuse(["fulfillmentOrderLineItems"], "Fulfillment order line item does not exist.");
    if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > line.remaining)
      return refuse(["fulfillmentOrderLineItems"], "Invalid fulfillment order line item quantity requested.");
    if (!stocks(line.sku)) return refuse(["newLocationId"], `The location ${to.name} does not stock the inventory item of SKU ${line.sku}.`);
    moving.push({ line, quantity: item.quantity });
  }
  const whole = status === "OPEN" && fo.lines.every((line) => moving.some((each) => each.line === line && each.quantity === line.remaining));
  if (whole) {
    // Nothing fulfilled and everything moves: the fulfillment order itself changes location.
    fo.location = to;
    return { moved: fo, original: fo };
  }
  // A part moves: into an open fulfillment order of the order already at that location, else a new one.
  const order = fo.order;
  const target =
    order.fulfillmentOrders.find((each) => each !== fo && each.location.id === to.id && fulfillmentOrderStatus(each) === "OPEN") ??
    addFulfillmentOrder(order, to);
  for (const { line, quantity } of moving) {
    line.remaining -= quantity;
    line.total -= quantity;
    const there = target.lines.find((each) => each.sku === line.sku && each.orderLineQuantity === line.orderLineQuantity);
    if (there) {
      there.total += quantity;
      there.remaining += quantity;
    } else {
      target.lines.push({
        id: fulfillmentOrderLineGid(target.numericId, target.lines.length),
        sku: line.sku,
        orderLineQuantity: line.orderLineQuantity,
        total: quantity,
        remaining: quantity,
      });
    }
  }
  // Lines with nothing left and nothing fulfilled go; an original with nothing left to do closes.
  fo.lines = fo.lines.filter((line) => line.total > 0);
  if (fo.lines.every((line) => line.remaining === 0)) fo.closed = true;
  return { moved: target, original: fo };
}
