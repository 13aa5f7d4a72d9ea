// orders/updated: the order grid row, items and sales records follow the
// order; an update older than the stored one is ignored (app/orders/sync.server.ts).
import { upsertShopifyOrder } from "~/orders/sync.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, topic, webhookId }) => upsertShopifyOrder(payload, { shop, topic, webhookId }));
