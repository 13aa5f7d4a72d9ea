// One merchant's back office: the shops it serves are SHOPIFY_SHOPS (embedded
// mode) or LOCAL_SHOP (local mode). Everything else is another tenant.
import { env } from "~/env.server";

export function isServedShop(shop: string | null | undefined): boolean {
  if (!shop) return false;
  return env().shops.includes(shop.trim().toLowerCase());
}
