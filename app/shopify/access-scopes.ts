// The Admin API access scopes the app asks for, and why: each is what
// Shopify's published schema (./schema/) or webhook topics require of what the
// app sends or subscribes to, and nothing more (docs/decisions.md D170).
// Shared by the environment's default, the stand-in's grant and the tests
// that check shopify.app.toml against the operations.

export const APP_SCOPES = [
  // orderCreate (special orders); implies read_orders: order, orders, LineItem, Fulfillment, the orders/* and refunds/create webhooks.
  "write_orders",
  // tagsAdd on products (product sync); implies read_products: productVariants, Product, ProductVariant.
  "write_products",
  // inventorySetQuantities (846 stock); implies read_inventory: InventoryItem, InventoryLevel, InventoryQuantity.
  "write_inventory",
  // locations, Location.name/isActive/updatedAt, the locations/* webhooks.
  "read_locations",
  // The fulfillments/create webhook (order grid).
  "read_fulfillments",
  // fulfillmentCreate and fulfillmentOrderMove at the merchant's own locations (stores and the vendors' locations);
  // implies read_merchant_managed_fulfillment_orders: FulfillmentOrder, FulfillmentOrderLineItem.
  "write_merchant_managed_fulfillment_orders",
] as const;

/** What each part of the app needs from the grant (any scope that covers it, write for read included). */
export const SCOPES_NEEDED = {
  /** Drop-ship shipments become fulfilments: the order's fulfillment orders read, fulfillmentCreate. */
  fulfilment: ["read_orders", "write_merchant_managed_fulfillment_orders"],
  /** An assignment moves the order's fulfillment order lines to its source's location (fulfillmentOrderMove). */
  fulfillmentMove: ["read_orders", "write_merchant_managed_fulfillment_orders"],
  /** Vendors' 846 stock becomes "available" at their location. */
  vendorStock: ["read_locations", "write_inventory"],
} as const satisfies Record<string, readonly (typeof APP_SCOPES)[number][] | readonly string[]>;

/** Shopify: "Any scope that writes a resource also grants read access to it." */
export function expandScopes(scopes: Iterable<string>): Set<string> {
  const expanded = new Set<string>();
  for (const raw of scopes) {
    const scope = raw.trim();
    if (!scope) continue;
    expanded.add(scope);
    const write = /^(unauthenticated_)?write_(.+)$/.exec(scope);
    if (write) expanded.add(`${write[1] ?? ""}read_${write[2]}`);
  }
  return expanded;
}

/** The scopes of `required` that `granted` does not cover (a write scope covers its read), in `required`'s order. */
export function missingScopes(granted: Iterable<string>, required: readonly string[] = APP_SCOPES): string[] {
  const covered = expandScopes(granted);
  return required.filter((scope) => !covered.has(scope));
}

/** A comma-separated scope list (a session's `scope`, SCOPES) as its scopes. */
export const scopesOf = (list: string | null | undefined): string[] =>
  (list ?? "")
    .split(",")
    .map((scope) => scope.trim())
    .filter(Boolean);

/** The scopes the app asks for: SCOPES when set, else APP_SCOPES. */
export const requestedScopes = (scopes: string | undefined): string[] => (scopes ? scopesOf(scopes) : [...APP_SCOPES]);
