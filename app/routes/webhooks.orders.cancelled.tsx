// orders/cancelled: financial and fulfillment status from the payload, the
// cancellation noted; magento_status stays the order system's (app/orders/sync.server.ts).
import { cancelOrder } from "~/orders/sync.server";
import { webhookRoute } from "~/shopify/webhooks.server";

export const action = webhookRoute(({ payload, shop, topic, webhookId }) => cancelOrder(payload, { shop, topic, webhookId }));
