// Demo data of the sales area, on top of what demo.ts seeds (orders, items,
// assignments in every status, a few DNH transfers, stock per source):
// - a DNH transfer is made of an assignment that was handed over, so the
//   seeded ones are Sent, as the DNH form requires (D21);
// - total_assigned counts what active assignments hold (a DNH releases its
//   quantity), as the sales screens keep it;
// - two processing orders are left wholly unassigned with stock at a store, one
//   of them a marketplace order, so the Manual Assignment Tool has work at once.
import type { PrismaClient } from "../../app/db/client.server";

export async function seedSalesDemo(db: PrismaClient): Promise<void> {
  await db.$executeRaw`
    UPDATE assignment a SET assign_status = 3
     WHERE a.assign_status = 1 AND EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)`;

  // Two processing orders with a US address and no assignment yet: their items get stock at the first two stores.
  const open = await db.$queryRaw<Array<{ id: number; marketplace: boolean }>>`
    SELECT o.id, (COALESCE(o.marketplace_source, '') <> '') AS marketplace FROM order_grid o
     WHERE o.magento_status = 'processing' AND o.shipping_description IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM order_item i JOIN assignment a ON a.item_id = i.item_id WHERE i.order_id = o.id)
     ORDER BY o.id`;
  const picks = [open.find((order) => order.marketplace), open.find((order) => !order.marketplace)].filter((order): order is { id: number; marketplace: boolean } => Boolean(order));
  const stores = await db.inventorySource.findMany({ where: { type: "store", enabled: 1 }, orderBy: { source_code: "asc" }, take: 2 });
  for (const order of picks) {
    const items = await db.orderItem.findMany({ where: { order_id: order.id }, select: { sku: true, qty_ordered: true } });
    for (const item of items) {
      for (const store of stores) {
        await db.sourceStock.upsert({
          where: { source_code_sku: { source_code: store.source_code, sku: item.sku } },
          create: { source_code: store.source_code, sku: item.sku, quantity: item.qty_ordered + 5 },
          update: { quantity: { increment: item.qty_ordered + 5 } },
        });
      }
    }
  }

  await db.$executeRaw`
    UPDATE order_grid o SET total_assigned = COALESCE((
             SELECT SUM(a.qty_assigned) FROM assignment a JOIN order_item i ON i.item_id = a.item_id
              WHERE i.order_id = o.id AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)), 0)::int`;
}
