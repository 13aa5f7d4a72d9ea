// A special order becomes a Shopify order, once. The ticket's key (store and
// ticket number) is written on the order as a tag and looked up first: a run
// that crashed after Shopify created the order, but before our row said so,
// finds it the next time instead of creating a second one.
import type { SpecialOrder } from "~/db/generated/client";
import type { ShopifyAdmin } from "~/shopify/admin-client.server";
import { SpecialOrderByTag, SpecialOrderCreate, VariantsBySku, type OrderCreateAddressInput, type SpecialOrderSummary } from "~/shopify/operations";
import { readAllPages } from "~/shopify/pages.server";
import { readItems, shopifyRegion } from "./special-order-rules";

const slug = (value: string) => value.trim().replace(/[^A-Za-z0-9]+/g, "_");

/** The idempotency key of a ticket, as a Shopify order tag: "special-order-001-7001". */
export function specialOrderTag(storeId: string, storeTicket: string): string {
  return `special-order-${slug(storeId)}-${slug(storeTicket)}`;
}

export type ShopifyOrderOutcome = { ok: true; created: boolean; shopifyOrderId: string; name: string; total: string } | { ok: false; message: string };

const usd = (amount: number) => ({ shopMoney: { amount: amount.toFixed(2), currencyCode: "USD" as const } });
const numericId = (gid: string) => gid.split("/").pop() ?? gid;

function found(order: SpecialOrderSummary, created: boolean): ShopifyOrderOutcome {
  return { ok: true, created, shopifyOrderId: numericId(order.id), name: order.name.replace(/^#/, ""), total: order.totalPriceSet.shopMoney.amount };
}

/**
 * Finds the ticket's order in Shopify or creates it. Refusals (a SKU Shopify
 * does not know, userErrors) come back as `ok: false` with a message for
 * staff; a failed call (network, Shopify down) throws, and the order stays
 * pending for the next run.
 */
export async function createShopifyOrderOnce(admin: ShopifyAdmin, order: SpecialOrder): Promise<ShopifyOrderOutcome> {
  const tag = specialOrderTag(order.store_id, order.store_ticket);
  const existing = await admin.run(SpecialOrderByTag, { query: `tag:"${tag}"` });
  const match = existing.orders.nodes.find((node) => node.tags.includes(tag));
  if (match) return found(match, false);

  const items = readItems(order.items) ?? [];
  if (items.length === 0) return { ok: false, message: "The special order has no items" };
  const skus = [...new Set(items.map((item) => item.sku.trim()))];
  const query = skus.map((sku) => `sku:"${sku.replace(/["\\]/g, "\\$&")}"`).join(" OR ");
  // Every page: Shopify's search is not exact, and the variant wanted may be past the first (D165).
  const variants = await readAllPages(async (after) => (await admin.run(VariantsBySku, { query, after })).productVariants, "VariantsBySku");
  const variantOf = new Map(variants.filter((node) => node.sku).map((node) => [node.sku!, node.id]));
  const unknown = skus.filter((sku) => !variantOf.has(sku));
  if (unknown.length) return { ok: false, message: `SKU ${unknown.join(", ")} ${unknown.length === 1 ? "has" : "have"} no Shopify variant` };

  const { countryCode, provinceCode } = shopifyRegion(order.customer_address_state_code ?? "");
  const [firstName, ...rest] = order.customer_name.trim().split(/\s+/);
  const address: OrderCreateAddressInput = {
    firstName: rest.length ? firstName : undefined,
    lastName: rest.length ? rest.join(" ") : firstName,
    address1: order.customer_address_1 ?? "",
    address2: order.customer_address_2 || null,
    city: order.customer_address_city ?? "",
    provinceCode,
    countryCode,
    zip: order.customer_address_zip ?? "",
    phone: order.customer_phone ?? undefined,
  };
  const answer = await admin.run(SpecialOrderCreate, {
    order: {
      currency: "USD",
      email: (order.customer_email ?? "").trim(),
      phone: order.customer_phone ?? undefined,
      lineItems: items.map((item) => {
        const price = Number(item.price);
        const tax = Number(item.tax);
        return {
          variantId: variantOf.get(item.sku.trim()),
          sku: item.sku.trim(),
          title: `${item.sku.trim()} (size ${item.size}${item.width ? `, width ${item.width}` : ""})`,
          quantity: 1,
          priceSet: usd(price),
          requiresShipping: true,
          properties: [{ name: "Size", value: item.size }, ...(item.width ? [{ name: "Width", value: item.width }] : [])],
          // rate is a Decimal, which Shopify serialises as a string.
          taxLines: tax > 0 ? [{ title: "Sales tax", rate: String(price > 0 ? Math.round((tax / price) * 10_000) / 10_000 : 0), priceSet: usd(tax) }] : [],
        };
      }),
      shippingAddress: address,
      billingAddress: address,
      shippingLines: [{ title: order.shipping_description ?? "Special Order Shipping", priceSet: usd(Number(order.shipping_cost)) }],
      financialStatus: "PENDING",
      sourceName: "special_order",
      sourceIdentifier: tag,
      tags: ["special-order", tag, `store-${slug(order.store_id)}`],
      note: `Special order: store ${order.store_id}, ticket ${order.store_ticket}${order.employee_number ? `, employee ${order.employee_number}` : ""}`,
    },
    // The store already holds the customer's money and the stock decision: no receipt, no stock change.
    options: { inventoryBehaviour: "BYPASS", sendReceipt: false },
  });
  const created = answer.orderCreate?.order;
  const userErrors = answer.orderCreate?.userErrors ?? [];
  if (userErrors.length || !created) {
    return { ok: false, message: `Shopify refused the order: ${userErrors.map((error) => error.message).join("; ") || "no order in the answer"}` };
  }
  return found(created, true);
}
