// orders/updated: the order grid row, items and sales records follow the
// order; an update older than the stored one is ignored (app/orders/sync.server.ts); then
// what the order no longer needs is taken back from its sources (app/sales/order-lines.server.ts, D226).
import { upsertShopifyOrder } from "~/orders/sync.server";
import { releaseAfterOrderChange } from "~/sales/order-lines.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(async ({ payload, shop, topic, webhookId }) =>
  releaseAfterOrderChange(await upsertShopifyOrder(payload, { shop, topic, webhookId })),
);
