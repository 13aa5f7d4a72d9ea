// refunds/create: a credit memo for the refunded money and the refunded
// quantities on the items (app/orders/sync.server.ts).
import { applyRefund } from "~/orders/sync.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, topic, webhookId }) => applyRefund(payload, { shop, topic, webhookId }));
