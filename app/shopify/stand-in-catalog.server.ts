// The stand-in's view of Shopify taken from our own database, so that local
// mode and tests fulfil orders and push stock for rows that really exist.
import type { PrismaClient } from "~/db/client.server";
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
    async locations() {
      const rows = await prisma.inventorySource.findMany({ select: { name: true }, orderBy: { name: "asc" } });
      return [...new Set(rows.map((row) => row.name))];
    },
  };
}
