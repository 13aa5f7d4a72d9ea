// refunds/create: a credit memo for the refunded money and the refunded
// quantities on the items (app/orders/sync.server.ts); then
// what the order no longer needs is taken back from its sources (app/sales/order-lines.server.ts, D226).
import { applyRefund } from "~/orders/sync.server";
import { releaseAfterOrderChange } from "~/sales/order-lines.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(async ({ payload, shop, topic, webhookId }) =>
  releaseAfterOrderChange(await applyRefund(payload, { shop, topic, webhookId })),
);
