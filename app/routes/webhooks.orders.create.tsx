// orders/create: a new order goes into the order grid with its items and,
// once paid, its sales records (app/orders/sync.server.ts).
import { upsertShopifyOrder } from "~/orders/sync.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, topic, webhookId }) => upsertShopifyOrder(payload, { shop, topic, webhookId }));
