// Demo data of the sales area, on top of what demo.ts seeds (orders, items,
// assignments in every status, a few DNH transfers, stock per source):
// - a DNH transfer is made of an assignment that was handed over, so the
//   seeded ones are Sent, as the DNH form requires (D21);
// - total_assigned counts what active assignments hold (a DNH releases its
//   quantity), as the sales screens keep it;
// - processing orders are left wholly unassigned by demo.ts; their stock at the
//   stores is the demo shop's (app/shopify/stand-in-shop.ts: the first two stores stock
//   every SKU), read through location_sync, so the Manual Assignment Tool has
//   work at once.
import type { PrismaClient } from "../../app/db/client.server";

export async function seedSalesDemo(db: PrismaClient): Promise<void> {
  await db.$executeRaw`
    UPDATE assignment a SET assign_status = 3
     WHERE a.assign_status = 1 AND EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)`;

  await db.$executeRaw`
    UPDATE order_grid o SET total_assigned = COALESCE((
             SELECT SUM(a.qty_assigned) FROM assignment a JOIN order_item i ON i.item_id = a.item_id
              WHERE i.order_id = o.id AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = a.id)), 0)::int`;
}
