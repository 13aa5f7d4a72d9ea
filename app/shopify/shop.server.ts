// The shop's name for the page header; Shopify being unreachable must not
// break a page, so a failure shows no name.
import type { Staff } from "~/shopify/staff";
import { shopifyAdminFor } from "./admin-client.server";
import { ShopInfo } from "./operations";
import { logger } from "~/observability/logger.server";

const log = logger("shopify");

const cache = new Map<string, { name: string; until: number }>();
const TTL_MS = 10 * 60_000;

export async function shopName(staff: Staff): Promise<string | null> {
  const hit = cache.get(staff.shop);
  if (hit && hit.until > Date.now()) return hit.name;
  try {
    const { shop } = await shopifyAdminFor(staff).run(ShopInfo, {});
    cache.set(staff.shop, { name: shop.name, until: Date.now() + TTL_MS });
    return shop.name;
  } catch (error) {
    log.warn(`ShopInfo failed for ${staff.shop}: ${(error as Error).message}`);
    return null;
  }
}
