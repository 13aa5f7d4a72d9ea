// The stand-in's view of Shopify in local mode: orders and SKUs from our own
// database, so that local mode and tests fulfil orders and push stock for rows
// that really exist; the store locations and their stock from the demo shop
// (app/shopify/stand-in-shop.ts), which reach our stores only through location_sync.
import type { PrismaClient } from "~/db/client.server";
import { demoAvailable, DEMO_STORE_LOCATIONS } from "~/shopify/stand-in-shop";
import type { StandInCatalog } from "./stand-in.server";

export function databaseCatalog(prisma: PrismaClient): StandInCatalog {
  return {
    async order(numericId) {
      // shopify_order_id is kept numeric, but accept a gid written by hand too.
      const order = await prisma.order.findFirst({
        where: { shopify_order_id: { in: [numericId, `gid://shopify/Order/${numericId}`] } },
        orderBy: { id: "asc" },
        select: { order_id: true, items: { select: { sku: true, qty_ordered: true }, orderBy: { item_id: "asc" } } },
      });
      if (!order) return null;
      return { name: `#${order.order_id}`, lineItems: order.items.map((item) => ({ sku: item.sku, quantity: item.qty_ordered })) };
    },
    async variants(skus) {
      if (skus.length === 0) return [];
      const rows = await prisma.product.findMany({ where: { sku: { in: skus } }, select: { sku: true } });
      const known = new Set(rows.map((row) => row.sku));
      return skus.filter((sku) => known.has(sku));
    },
    /**
     * Shopify's search is not exact: here a term matches its SKU and every SKU that starts with it and a
     * separator (`sku:"TEE"` finds TEE-S and TEE-M too), as token matching does (D165).
     */
    async search(skus) {
      if (skus.length === 0) return [];
      const prefixes = skus.map((sku) => `${sku.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`);
      const rows = await prisma.$queryRaw<Array<{ sku: string }>>`
        SELECT sku FROM product WHERE sku = ANY(${skus}::text[]) OR sku LIKE ANY(${prefixes}::text[]) ORDER BY sku`;
      return rows.map((row) => row.sku);
    },
    /** The demo's stores, and a location per drop-ship vendor (where its 846 stock is pushed). */
    async locations() {
      const vendors = await prisma.inventorySource.findMany({ where: { type: "dropshipper" }, select: { name: true }, orderBy: { name: "asc" } });
      return [...new Set([...DEMO_STORE_LOCATIONS.map((store) => store.name), ...vendors.map((row) => row.name)])];
    },
    async levels(skus) {
      const known = await this.variants(skus);
      return known.flatMap((sku) =>
        DEMO_STORE_LOCATIONS.flatMap((store) => {
          const quantity = demoAvailable(store.name, sku);
          return quantity === null ? [] : [{ sku, location: store.name, quantity }];
        }),
      );
    },
  };
}
