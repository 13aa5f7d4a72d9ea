// A real large input for the background-run specs, local and embedded: `count`
// Pending assignments of one order item (added to a real order, `count` ordered) to a demo drop-ship vendor. The
// seed's own Pending ones are set aside meanwhile and come back in `remove`,
// with what a run made of the bulk ones gone, for the other specs.
import type pg from "pg";

type Query = <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<T[]>;

export function bulkPendingAssignments(dbQuery: Query, sku: string, count = 10_000) {
  let parked: number[] = [];
  return {
    async insert() {
      parked = (await dbQuery<{ id: number }>("UPDATE assignment SET assign_status = 91 WHERE assign_status = 1 RETURNING id")).map((row) => row.id);
      // An order item of its own, ordered `count` times: the assignments hold what the line still needs, so
      // Populate Ship Requests' sweep of closed lines (D226) leaves them alone, as it would a real order.
      const [target] = await dbQuery<{ store_id: string; order_row: number; order_id: string; shopify_order_id: string | null }>(
        `SELECT v.store_id, o.id AS order_row, o.order_id, o.shopify_order_id FROM dropship_vendor v, order_grid o
          WHERE v.enabled = 1 AND v.archived_at IS NULL AND o.magento_status = 'processing' AND o.shopify_cancelled_at IS NULL
          ORDER BY v.id, o.id LIMIT 1`,
      );
      const [item] = await dbQuery<{ item_id: number }>(
        "INSERT INTO order_item (order_id, sku, name, qty_ordered, update_time) VALUES ($1, $2, 'Bulk run item', $3, now()) RETURNING item_id",
        [target.order_row, sku, count],
      );
      await dbQuery(
        `INSERT INTO assignment (order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned, store_id, assign_status, update_time)
         SELECT $1, $2, $3, $4, 1, $5, 1, now() FROM generate_series(1, $6)`,
        [target.order_id, target.shopify_order_id, item.item_id, sku, target.store_id, count],
      );
    },
    async remove() {
      await dbQuery("DELETE FROM dropship_log WHERE item_sku = $1", [sku]);
      await dbQuery("DELETE FROM dropship_request WHERE item_sku = $1", [sku]);
      await dbQuery("DELETE FROM assignment WHERE product_sku = $1", [sku]);
      await dbQuery("DELETE FROM order_item WHERE sku = $1", [sku]);
      if (parked.length) await dbQuery("UPDATE assignment SET assign_status = 1 WHERE id = ANY($1::int[]) AND assign_status = 91", [parked]);
      parked = [];
    },
  };
}
