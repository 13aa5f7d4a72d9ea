// Who a request is made for: the demo shop in local mode, or a shop's staff
// member with the Admin API context the session token opened (app/auth.server.ts
// decides which). The Shopify client and the areas take it as it is.
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";

export type Staff = { mode: "local"; shop: string } | { mode: "embedded"; shop: string; admin: AdminApiContext };
