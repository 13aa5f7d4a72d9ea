// fulfillments/create: shipped quantities on the items and the order's
// fulfillment status (app/orders/sync.server.ts).
import { applyFulfillment } from "~/orders/sync.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, topic, webhookId }) => applyFulfillment(payload, { shop, topic, webhookId }));
