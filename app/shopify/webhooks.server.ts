// Every webhook route starts here: local mode has no webhooks (404); a shop
// this app does not serve is refused (403) before its body is read; then the
// template's HMAC check (401 when it does not match the app secret).
import { env } from "~/env.server";
import { addToLogContext } from "~/observability/context.server";
import { shopify } from "~/shopify.server";
import { isServedShop } from "./shops.server";

export async function authenticateWebhook(request: Request) {
  if (env().mode !== "embedded") throw new Response(null, { status: 404 });
  const claimed = request.headers.get("x-shopify-shop-domain");
  if (!claimed || !isServedShop(claimed)) throw new Response(null, { status: 403 });
  const context = await shopify().authenticate.webhook(request);
  // The library takes the shop from that same header; checked again in case that ever changes.
  if (!isServedShop(context.shop)) throw new Response(null, { status: 403 });
  addToLogContext({ shop: context.shop });
  return context;
}
