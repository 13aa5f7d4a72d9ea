// Fills the order grid (and one item per order) up to a total count, in
// PostgreSQL itself with generate_series: a million orders take a minute or
// two, not hours. Idempotent: it only adds what is missing.
import pg from "pg";

export async function seedBulkOrders(databaseUrl: string, totalOrders: number, log = console.log): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string; max: string | null }>("SELECT count(*)::text AS count, max(id)::text AS max FROM order_grid");
    const missing = totalOrders - Number(rows[0].count);
    if (missing <= 0) return 0;
    const chunk = 100_000;
    let added = 0;
    while (added < missing) {
      const size = Math.min(chunk, missing - added);
      await client.query("BEGIN");
      // Order ids continue after the highest one; values vary by series number.
      await client.query(
        `WITH s AS (
           SELECT g AS n, (SELECT coalesce(max(id), 0) FROM order_grid) + g AS nid FROM generate_series(1, $1::int) AS g
         ), ins AS (
           INSERT INTO order_grid (order_id, shopify_order_id, created_at, updated_at, shopify_updated_at,
             concat_bill_to_name, concat_ship_to_name, grand_total_purchased, select_skus, magento_status,
             fulfillment_status, financial_status, concat_billing_address, concat_shipping_address, customer_email,
             marketplace_source, marketplace_order_id, refer_source_name, gift_card_used, shipping_description,
             auto_assignment_eligible, total_shippable_qty_ordered)
           SELECT 'B' || lpad(nid::text, 9, '0'),
                  (7000000000000 + nid)::text,
                  now() - (n % 730) * interval '1 day' - (n % 86400) * interval '1 second',
                  now() - (n % 700) * interval '1 day',
                  now() - (n % 700) * interval '1 day',
                  (ARRAY['James','Mary','Robert','Linda','Carlos','Susan','David','Karen'])[1 + n % 8] || ' ' ||
                    (ARRAY['Smith','Garcia','Miller','Davis','Lopez','Wilson','Moore','Lee','White'])[1 + n % 9],
                  (ARRAY['James','Mary','Robert','Linda','Carlos','Susan','David','Karen'])[1 + (n / 8) % 8] || ' ' ||
                    (ARRAY['Smith','Garcia','Miller','Davis','Lopez','Wilson','Moore','Lee','White'])[1 + n % 9],
                  round((15 + (n * 7919) % 50000 / 100.0)::numeric, 2),
                  'SKU-' || (10001 + n % 200) || CASE WHEN n % 3 = 0 THEN ',SKU-' || (10001 + (n * 7) % 200) ELSE '' END,
                  (ARRAY['processing','complete','complete','processing','avs_pending','canceled','closed','fraud'])[1 + n % 8],
                  (ARRAY['unfulfilled','fulfilled','partial'])[1 + n % 3],
                  (ARRAY['paid','paid','pending','refunded'])[1 + n % 4],
                  (n % 9999) || ' Main St, Chicago, IL 60601, US',
                  (n % 9999) || ' Main St, Chicago, IL 60601, US',
                  'customer' || nid || '@example.com',
                  (ARRAY[NULL,NULL,NULL,'AMAZON_US','EBAY_STORES'])[1 + n % 5],
                  CASE WHEN n % 5 >= 3 THEN (100000000 + nid)::text END,
                  (ARRAY['Amazon','Salesforce','Shopping','Direct Revenue','Ebay','Facebook','Organic Revenue','Specials'])[1 + n % 8],
                  (n % 10 = 0)::int,
                  'Standard - Ground',
                  n % 3,
                  1 + n % 3
             FROM s
           RETURNING id, created_at, select_skus
         )
         INSERT INTO order_item (order_id, sku, name, qty_ordered, price, created_time, update_time)
         SELECT id, split_part(select_skus, ',', 1), 'Bulk demo item', 1, 49.95, created_at, created_at FROM ins`,
        [size],
      );
      await client.query("COMMIT");
      added += size;
      log(`  ${added} / ${missing} orders added`);
    }
    await client.query("ANALYZE order_grid");
    await client.query("ANALYZE order_item");
    return added;
  } finally {
    await client.end();
  }
}
