// app/uninstalled (the template's): the shop's sessions go (app/shopify/webhooks.server.ts).
import { deleteShopSessions, webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(deleteShopSessions);
