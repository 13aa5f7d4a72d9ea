// The shop's locations and what each has available of some SKUs, read from
// the Admin API for the stores (app/sales/stores.server.ts, D48–D51).
import type { ShopifyAdmin } from "./admin-client.server";
import { skuSearchTerm } from "./inventory.server";
import {
  InventoryItemLevels,
  InventoryLevelsBySku,
  ShopLocations,
  type InventoryItemLevelsResult,
  type InventoryLevelPage,
  type InventoryLevelsBySkuResult,
  type ShopLocation,
  type ShopLocationsResult,
} from "./operations";

/** A numeric id out of a gid (`gid://shopify/Location/123` → `123`); a numeric id stays as it is. */
export const numericId = (gid: string | number) => String(gid).split("/").pop()!.split("?")[0];

/** Every location of the shop, inactive ones included, page by page. */
export async function readShopLocations(admin: ShopifyAdmin): Promise<ShopLocation[]> {
  const locations: ShopLocation[] = [];
  let after: string | null = null;
  for (;;) {
    const { locations: page }: ShopLocationsResult = await admin.run(ShopLocations, { after });
    locations.push(...page.nodes);
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return locations;
    after = page.pageInfo.endCursor;
  }
}

/**
 * What Shopify says of a SKU: nothing (`null`: Shopify has no item with it, or
 * does not track its stock), or the available quantity per location (numeric
 * id) where it is stocked. Variants sharing a SKU add up.
 */
export type SkuAvailability = Map<string, number> | null;

// Shopify's search caps the query length; ten quoted SKUs stay well under it.
export const SKUS_PER_LEVELS_CALL = 10;

export async function readAvailableBySku(admin: ShopifyAdmin, skus: string[]): Promise<Map<string, SkuAvailability>> {
  const out = new Map<string, SkuAvailability>(skus.map((sku) => [sku, null]));
  const tracked = new Set<string>();
  const add = (sku: string, page: InventoryLevelPage) => {
    const bySource = out.get(sku) ?? new Map<string, number>();
    for (const level of page.nodes) {
      const available = level.quantities.find((quantity) => quantity.name === "available")?.quantity ?? 0;
      const location = numericId(level.location.id);
      bySource.set(location, (bySource.get(location) ?? 0) + available);
    }
    out.set(sku, bySource);
  };
  for (let start = 0; start < skus.length; start += SKUS_PER_LEVELS_CALL) {
    const batch = skus.slice(start, start + SKUS_PER_LEVELS_CALL);
    const wanted = new Set(batch);
    let after: string | null = null;
    for (;;) {
      const { inventoryItems }: InventoryLevelsBySkuResult = await admin.run(InventoryLevelsBySku, { query: batch.map(skuSearchTerm).join(" OR "), after });
      for (const item of inventoryItems.nodes) {
        // Shopify's search is not exact (tokens, prefixes): keep only equal SKUs, and only tracked stock.
        if (!item.sku || !wanted.has(item.sku) || !item.tracked) continue;
        tracked.add(item.sku);
        add(item.sku, item.inventoryLevels);
        let levels = item.inventoryLevels;
        while (levels.pageInfo.hasNextPage && levels.pageInfo.endCursor) {
          const { inventoryItem }: InventoryItemLevelsResult = await admin.run(InventoryItemLevels, { id: item.id, after: levels.pageInfo.endCursor });
          if (!inventoryItem) break;
          levels = inventoryItem.inventoryLevels;
          add(item.sku, levels);
        }
      }
      if (!inventoryItems.pageInfo.hasNextPage || !inventoryItems.pageInfo.endCursor) break;
      after = inventoryItems.pageInfo.endCursor;
    }
  }
  for (const sku of skus) if (!tracked.has(sku)) out.set(sku, null);
  return out;
}
