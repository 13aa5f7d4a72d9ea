// A backordered drop-ship request for the "Send to another source" specs, local
// and embedded (issue 29, D231–D232): a fresh copy of a seeded processing
// order with one item, its assignment Sent to the first enabled demo vendor,
// and that vendor's request backordered (its 855 said so), so the spec runs
// again on the same database (--repeat-each).
import type pg from "pg";

type Query = <T extends pg.QueryResultRow>(sql: string, params?: unknown[]) => Promise<T[]>;

export interface BackorderedRequest {
  order_id: string;
  sku: string;
  qty: number;
  assignment_id: number;
  request_id: number;
  po_number: string;
  vendor_name: string;
  vendor_source: string;
}

export async function seedBackorderedRequest(dbQuery: Query, tag: string): Promise<BackorderedRequest> {
  const stamp = `${tag}${Date.now()}`.slice(-11);
  const [order] = await dbQuery<{ id: number; order_id: string; shopify_order_id: string }>(
    `INSERT INTO order_grid
     SELECT (jsonb_populate_record(NULL::order_grid, to_jsonb(o) || jsonb_build_object(
              'id', nextval(pg_get_serial_sequence('order_grid', 'id')),
              'order_id', 'SE' || $1::text, 'shopify_order_id', '78' || $1::text,
              'total_assigned', 0, 'auto_assignment_eligible', 0))).*
       FROM order_grid o
      WHERE o.magento_status = 'processing' AND COALESCE(o.marketplace_source, '') = '' AND o.shopify_order_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM order_item i WHERE i.order_id = o.id AND i.qty_ordered > 0 AND i.sku <> '')
      ORDER BY o.id LIMIT 1
     RETURNING id, order_id, shopify_order_id`,
    [stamp],
  );
  const [item] = await dbQuery<{ item_id: number; sku: string; qty_ordered: number }>(
    `INSERT INTO order_item (order_id, sku, name, qty_ordered, price, is_shippable, update_time)
     SELECT $1, i.sku, i.name, 2, i.price, i.is_shippable, now() FROM order_item i JOIN order_grid o ON o.id = i.order_id
      WHERE o.magento_status = 'processing' AND COALESCE(o.marketplace_source, '') = '' AND o.shopify_order_id IS NOT NULL
        AND i.qty_ordered > 0 AND i.sku <> '' AND o.id <> $1
      ORDER BY o.id, i.item_id LIMIT 1
     RETURNING item_id, sku, qty_ordered`,
    [order.id],
  );
  const [vendor] = await dbQuery<{ id: number; name: string; store_id: string }>(
    `SELECT v.id, v.name, v.store_id FROM dropship_vendor v JOIN inventory_source s ON s.source_code = v.store_id AND s.enabled = 1
      WHERE v.enabled = 1 AND v.archived_at IS NULL ORDER BY v.id LIMIT 1`,
  );
  const po = `POSE${stamp}`.slice(0, 22);
  const [assignment] = await dbQuery<{ id: number }>(
    `INSERT INTO assignment (order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned, store_id, dropshipper_name, assign_status,
                             purchase_order, update_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 3, $8, now()) RETURNING id`,
    [order.order_id, order.shopify_order_id, item.item_id, item.sku, item.qty_ordered, vendor.store_id, vendor.name, po],
  );
  await dbQuery("UPDATE order_grid SET total_assigned = $2, total_shippable_qty_ordered = $2 WHERE id = $1", [order.id, item.qty_ordered]);
  const [request] = await dbQuery<{ request_id: number }>(
    `INSERT INTO dropship_request (vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, ship_name_first, ship_name_last,
                                   ship_address, ship_city, ship_state, ship_zip, country_id, status, vendor_expected_date, vendor_codes, vendor_note,
                                   needs_processing, sent_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'Dana', 'Rivers', '12 Elm Street', 'Chicago', 'IL', '60601', 'US', 'backordered', DATE '2026-12-24',
             ARRAY['IB', 'BP'], 'Back in stock before Christmas', false, now() - interval '2 days', now())
     RETURNING request_id`,
    [vendor.id, vendor.name, assignment.id, po, order.order_id, item.sku, item.qty_ordered],
  );
  return {
    order_id: order.order_id,
    sku: item.sku,
    qty: item.qty_ordered,
    assignment_id: assignment.id,
    request_id: request.request_id,
    po_number: po,
    vendor_name: vendor.name,
    vendor_source: vendor.store_id,
  };
}
