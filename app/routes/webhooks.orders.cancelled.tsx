// orders/cancelled: financial and fulfillment status from the payload, the
// cancellation noted; magento_status stays the order system's (app/orders/sync.server.ts).
// A payload it cannot use is answered 200 as well (Shopify would retry it forever), and logged.
import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelOrder } from "~/orders/sync.server";
import { authenticateWebhook } from "~/shopify/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // 404 in local mode, 403 for a shop this app does not serve, 401 when the HMAC does not match.
  const { payload, shop, topic, webhookId } = await authenticateWebhook(request);
  return Response.json(await cancelOrder(payload, { shop, topic, webhookId }));
};
