// The Shopify client for background jobs, which have no signed-in request:
// the stand-in in local mode, the shop's offline session in embedded mode
// (the app serves one merchant: the first of SHOPIFY_SHOPS with an offline session).
import prisma from "~/db.server";
import { env } from "~/env.server";
import { offlineShopifyAdmin, ShopifyApiError, type ShopifyAdmin } from "./admin-client.server";

export async function jobsShopifyAdmin(): Promise<ShopifyAdmin> {
  if (env().mode === "local") return offlineShopifyAdmin(env().LOCAL_SHOP);
  const shops = env().shops;
  const sessions = await prisma.session.findMany({ where: { isOnline: false, shop: { in: shops } }, select: { shop: true } });
  const session = shops.map((shop) => sessions.find((each) => each.shop === shop)).find(Boolean);
  if (!session) throw new ShopifyApiError("offline session", "the app is not installed on a shop yet: no offline session is stored");
  return offlineShopifyAdmin(session.shop);
}
