// Every webhook route starts here: local mode has no webhooks (404); a shop
// this app does not serve is refused (403) before its body is read; then the
// template's HMAC check (401 when it does not match the app secret).
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { env } from "~/env.server";
import { logger } from "~/observability/logger.server";
import { addToLogContext } from "~/observability/context.server";
import { shopify } from "~/shopify.server";
import { isServedShop } from "./shops.server";
import { forgetShopAccess } from "./granted-scopes.server";

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

export type Webhook = Awaited<ReturnType<typeof authenticateWebhook>>;

/**
 * A webhook route's action: authenticateWebhook first (404 in local mode, 403
 * for a shop this app does not serve, 401 when the HMAC does not match), then
 * `handle`. What it returns is answered as JSON; nothing, an empty 200. A
 * payload a handler cannot use is answered 200 as well (Shopify would retry it
 * forever), and logged by the handler.
 */
export function webhookRoute(handle: (webhook: Webhook) => Promise<object | void>) {
  return async ({ request }: ActionFunctionArgs): Promise<Response> => {
    const answer = await handle(await authenticateWebhook(request));
    return answer === undefined ? new Response() : Response.json(answer);
  };
}

// The app's own webhooks (the template's): its sessions follow the shop.
const log = logger("webhooks");

/** app/uninstalled: the shop's sessions go. */
export async function deleteShopSessions({ shop, session, topic }: Webhook): Promise<void> {
  log.info(`Received ${topic} webhook for ${shop}`);
  if (session) await prisma.session.deleteMany({ where: { shop } });
}

/** app/scopes_update: the session keeps the scopes the shop granted now, and Home asks Shopify again. */
export async function updateSessionScopes({ payload, session, topic, shop }: Webhook): Promise<void> {
  log.info(`Received ${topic} webhook for ${shop}`);
  forgetShopAccess(shop);
  const current = (payload as { current?: string[] }).current;
  if (session && current) {
    await prisma.session.update({ where: { id: session.id }, data: { scope: current.toString() } });
  }
}
