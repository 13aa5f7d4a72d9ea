// orders/cancelled: financial and fulfillment status from the payload, the
// cancellation noted; magento_status stays the order system's (app/orders/sync.server.ts); then
// what the order no longer needs is taken back from its sources (app/sales/order-lines.server.ts, D226).
import { cancelOrder } from "~/orders/sync.server";
import { releaseAfterOrderChange } from "~/sales/order-lines.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(async ({ payload, shop, topic, webhookId }) =>
  releaseAfterOrderChange(await cancelOrder(payload, { shop, topic, webhookId })),
);
