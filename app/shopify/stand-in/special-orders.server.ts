// Special orders: orderCreate and the search by tag that makes it idempotent
// (app/special-orders/shopify-order.server.ts). Created orders are kept per
// stand-in, so a second run finds what the first one created.
import type { Handler } from "../stand-in.server";
import { orderGid } from "../stand-in-fulfillment-orders.server";
import { hashedNumber, type UserError } from "./common.server";

interface CreatedOrder {
  id: string;
  name: string;
  tags: string[];
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
}
const createdOrders = new WeakMap<object, CreatedOrder[]>();
const createdOrdersOf = (state: object) => {
  let list = createdOrders.get(state);
  if (!list) createdOrders.set(state, (list = []));
  return list;
};
const cents = (value: unknown) => Math.round(Number((value as { shopMoney?: { amount?: unknown } } | undefined)?.shopMoney?.amount ?? NaN) * 100);

export const specialOrderHandlers = {
  SpecialOrderByTag: (variables, { state }) => {
    const tags = [...String(variables.query ?? "").matchAll(/\btag:(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s()]+))/g)].map(
      (match) => match[1] ?? match[2] ?? match[3],
    );
    const nodes = createdOrdersOf(state).filter(
      (order) => tags.length > 0 && tags.every((tag) => order.tags.some((own) => own.toLowerCase() === tag.toLowerCase())),
    );
    return { orders: { nodes: nodes.slice(0, 5) } };
  },

  SpecialOrderCreate: (variables, { state }) => {
    const order = (variables.order ?? {}) as {
      email?: string;
      lineItems?: Array<{ quantity?: number; priceSet?: unknown; taxLines?: Array<{ priceSet?: unknown }> }>;
      shippingLines?: Array<{ priceSet?: unknown }>;
      shippingAddress?: { countryCode?: string; provinceCode?: string };
      tags?: string[];
    };
    const errors: UserError[] = [];
    const lines = order.lineItems ?? [];
    if (lines.length === 0) errors.push({ code: "INVALID", field: ["order", "lineItems"], message: "Line items must have at least one line item" });
    if (order.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(order.email))
      errors.push({ code: "INVALID", field: ["order", "email"], message: "Email is invalid" });
    lines.forEach((line, index) => {
      if (!Number.isInteger(line.quantity) || line.quantity! < 1)
        errors.push({ code: "INVALID", field: ["order", "lineItems", String(index), "quantity"], message: "Quantity must be greater than or equal to 1" });
      if (!Number.isFinite(cents(line.priceSet)))
        errors.push({ code: "INVALID", field: ["order", "lineItems", String(index), "priceSet"], message: "Price is invalid" });
    });
    const address = order.shippingAddress;
    if (!address || !["US", "CA"].includes(String(address.countryCode)) || !/^[A-Z]{2}$/.test(String(address.provinceCode))) {
      errors.push({ code: "INVALID", field: ["order", "shippingAddress"], message: "Shipping address is invalid" });
    }
    if (errors.length) return { orderCreate: { order: null, userErrors: errors } };

    const total =
      lines.reduce(
        (sum, line) => sum + cents(line.priceSet) * line.quantity! + (line.taxLines ?? []).reduce((tax, each) => tax + (cents(each.priceSet) || 0), 0),
        0,
      ) + (order.shippingLines ?? []).reduce((sum, line) => sum + (cents(line.priceSet) || 0), 0);
    const list = createdOrdersOf(state);
    const tags = order.tags ?? [];
    const numericId = hashedNumber(`special-order:${tags.join(",")}:${list.length}:${Date.now()}`);
    const created: CreatedOrder = {
      id: orderGid(numericId),
      name: `#${numericId.slice(-7)}`,
      tags,
      totalPriceSet: { shopMoney: { amount: (total / 100).toFixed(2), currencyCode: "USD" } },
    };
    list.push(created);
    return { orderCreate: { order: created, userErrors: [] } };
  },
} satisfies Record<string, Handler>;
