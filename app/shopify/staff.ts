// Who a request is made for: the demo shop in local mode, or a shop's staff
// member with the Admin API context the session token opened (app/auth.server.ts
// decides which). The Shopify client and the areas take it as it is.
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";

export type Staff = { mode: "local"; shop: string } | { mode: "embedded"; shop: string; admin: AdminApiContext; user?: string };

/** Who did it, as a record keeps it: the Shopify staff member's user id (the session token's sub) in embedded mode, "local" in local mode. */
export const staffName = (staff: Staff): string => (staff.mode === "local" ? "local" : staff.user ? `shopify-user:${staff.user}` : staff.shop);
