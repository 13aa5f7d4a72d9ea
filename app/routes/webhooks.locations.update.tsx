// locations/update: the shop's location is a store (app/sales/stores.server.ts, D48).
import { applyLocationWebhook } from "~/sales/stores.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, webhookId }) => applyLocationWebhook("update", payload, { shop, webhookId }));
