// orders/updated: the order grid row, items and sales records follow the
// order; an update older than the stored one is ignored (app/orders/sync.server.ts).
// A payload it cannot use is answered 200 as well (Shopify would retry it forever), and logged.
import type { ActionFunctionArgs } from "@remix-run/node";
import { upsertShopifyOrder } from "~/orders/sync.server";
import { authenticateWebhook } from "~/shopify/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // 404 in local mode, 403 for a shop this app does not serve, 401 when the HMAC does not match.
  const { payload, shop, topic, webhookId } = await authenticateWebhook(request);
  return Response.json(await upsertShopifyOrder(payload, { shop, topic, webhookId }));
};
