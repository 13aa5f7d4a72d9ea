// `rows` drop-ship log rows made up by PostgreSQL itself (one statement, no
// round trip per row): six vendors, five actions, errors and warnings mixed in,
// one a second going back from now. The grids' benches read them.
import type pg from "pg";

export async function insertDropshipLogs(client: pg.Client | pg.Pool, rows: number) {
  await client.query(
    `INSERT INTO dropship_log (vendor_id, vendor_name, action, status, po_number, order_increment_id, item_sku, qty,
       tracking_number, file_name, message, created_at)
     SELECT NULL,
            (ARRAY['Acme Outdoor Supply','Brightline Footwear','Cascade Apparel Co','Delta Home Goods','Evergreen Sporting','Granite Tools'])[1 + g % 6],
            (ARRAY['populate_requests','send_requests','receive_file','process_responses','ack_997'])[1 + g % 5],
            CASE WHEN g % 50 = 0 THEN 'error' WHEN g % 17 = 0 THEN 'warning' ELSE 'success' END,
            'PO' || (100000000 + g) || '-' || g % 7,
            (100000000 + g)::text,
            'SKU-' || (10001 + g % 200),
            1 + g % 3,
            CASE WHEN g % 5 = 3 THEN '1Z' || (900000000000 + g) END,
            CASE WHEN g % 5 IN (1, 2, 3) THEN '856_DS0' || (g % 6) || '_' || g || '.edi' END,
            'Created ship request PO' || (100000000 + g),
            now() - (g || ' seconds')::interval
       FROM generate_series(1, $1::int) AS g`,
    [rows],
  );
}
