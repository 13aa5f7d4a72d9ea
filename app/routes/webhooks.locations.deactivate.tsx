// locations/deactivate: the shop's location is a store (app/sales/stores.server.ts, D48).
import type { ActionFunctionArgs } from "@remix-run/node";
import { applyLocationWebhook } from "~/sales/stores.server";
import { authenticateWebhook } from "~/shopify/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // 404 in local mode, 403 for a shop this app does not serve, 401 when the HMAC does not match.
  const { payload, shop, webhookId } = await authenticateWebhook(request);
  return Response.json(await applyLocationWebhook("deactivate", payload, { shop, webhookId }));
};
