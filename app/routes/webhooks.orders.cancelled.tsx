// orders/cancelled: financial and fulfillment status from the payload, the
// cancellation noted; magento_status stays the order system's (app/orders/sync.server.ts).
// A payload it cannot use is answered 200 as well (Shopify would retry it forever), and logged.
import type { ActionFunctionArgs } from "@remix-run/node";
import { cancelOrder } from "~/orders/sync.server";
import { isEmbedded, shopify } from "~/shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  if (!isEmbedded()) return new Response(null, { status: 404 });
  // Refuses (401) anything whose HMAC does not match the app secret.
  const { payload, shop, topic, webhookId } = await shopify().authenticate.webhook(request);
  return Response.json(await cancelOrder(payload, { shop, topic, webhookId }));
};
