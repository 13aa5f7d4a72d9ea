// The EOD run's one statement (D31), over any Prisma client: the app's, or the
// demo seed's. Callers hold the EOD lock (./lock.server.ts).
import type { PrismaClient } from "../db/generated/client";

/** The store a sale counts for when neither the record nor the order names one: the web store. */
export const WEB_STORE = "WEB";

type RawQueryClient = Pick<PrismaClient, "$queryRaw">;

export interface RebuildResult {
  /** Report rows the days have now (stores with records). */
  rows: number;
  created: number;
  /** Rows whose figures changed: a new revision, waiting to be exported again. */
  changed: number;
  unchanged: number;
  /** Stores that no longer have records on a day: removed, or set to zero when a batch carried them. */
  removed: number;
  zeroed: number;
  sales_records: number;
  /** Net sales of the days, as SQL decimal text. */
  net_sales: string;
}

/** The run itself, for callers that already hold the EOD lock. */
export async function rebuildDays(db: RawQueryClient, from: string, to: string): Promise<RebuildResult> {
  // One statement, so it applies whole or not at all. The store of a record is
  // the record's own store, else the first source the order is allocated to,
  // else the web store. Unchanged rows are not touched (their revision and
  // export status stay); vanished stores are removed, or zeroed when a batch
  // already carried them, so the AS400 hears that they fell to zero.
  const [result] = await db.$queryRaw<Array<Omit<RebuildResult, "unchanged">>>`
    WITH src AS (
      SELECT sr.record_date AS sales_date,
             COALESCE(NULLIF(btrim(sr.store_id), ''), NULLIF(btrim(split_part(o.allocated_sources, ',', 1)), ''), ${WEB_STORE}) AS store_id,
             sr.record_type, sr.amount, sr.order_increment_id
        FROM sales_record sr
        LEFT JOIN order_grid o ON o.order_id = sr.order_increment_id
       WHERE sr.record_date BETWEEN ${from}::date AND ${to}::date
         AND sr.record_type IN ('invoice', 'credit_memo', 'shipping_invoice')
    ), agg AS (
      SELECT sales_date, store_id,
             COUNT(DISTINCT order_increment_id)::int AS order_count,
             (COUNT(*) FILTER (WHERE record_type = 'invoice'))::int AS invoice_count,
             COALESCE(SUM(amount) FILTER (WHERE record_type = 'invoice'), 0)::numeric(14, 2) AS invoice_total,
             (COUNT(*) FILTER (WHERE record_type = 'credit_memo'))::int AS credit_memo_count,
             COALESCE(SUM(amount) FILTER (WHERE record_type = 'credit_memo'), 0)::numeric(14, 2) AS credit_memo_total,
             (COUNT(*) FILTER (WHERE record_type = 'shipping_invoice'))::int AS shipping_invoice_count,
             COALESCE(SUM(amount) FILTER (WHERE record_type = 'shipping_invoice'), 0)::numeric(14, 2) AS shipping_invoice_total,
             COUNT(*)::int AS records
        FROM src
       GROUP BY sales_date, store_id
    ), upserted AS (
      INSERT INTO eod_report_row AS r
             (sales_date, store_id, order_count, invoice_count, invoice_total, credit_memo_count, credit_memo_total,
              shipping_invoice_count, shipping_invoice_total, net_sales, revision, export_status, created_at, updated_at)
      SELECT sales_date, store_id, order_count, invoice_count, invoice_total, credit_memo_count, credit_memo_total,
             shipping_invoice_count, shipping_invoice_total, invoice_total - credit_memo_total - shipping_invoice_total,
             1, 'pending', now(), now()
        FROM agg
      ON CONFLICT (sales_date, store_id) DO UPDATE
         SET order_count = EXCLUDED.order_count,
             invoice_count = EXCLUDED.invoice_count,
             invoice_total = EXCLUDED.invoice_total,
             credit_memo_count = EXCLUDED.credit_memo_count,
             credit_memo_total = EXCLUDED.credit_memo_total,
             shipping_invoice_count = EXCLUDED.shipping_invoice_count,
             shipping_invoice_total = EXCLUDED.shipping_invoice_total,
             net_sales = EXCLUDED.net_sales,
             revision = r.revision + 1,
             batch_id = NULL,
             export_status = 'pending',
             updated_at = now()
       WHERE (r.order_count, r.invoice_count, r.invoice_total, r.credit_memo_count, r.credit_memo_total,
              r.shipping_invoice_count, r.shipping_invoice_total)
             IS DISTINCT FROM
             (EXCLUDED.order_count, EXCLUDED.invoice_count, EXCLUDED.invoice_total, EXCLUDED.credit_memo_count,
              EXCLUDED.credit_memo_total, EXCLUDED.shipping_invoice_count, EXCLUDED.shipping_invoice_total)
      RETURNING (r.xmax = 0) AS inserted
    ), vanished AS (
      SELECT r.id, r.batched_revision
        FROM eod_report_row r
       WHERE r.sales_date BETWEEN ${from}::date AND ${to}::date
         AND NOT EXISTS (SELECT 1 FROM agg WHERE agg.sales_date = r.sales_date AND agg.store_id = r.store_id)
    ), removed AS (
      DELETE FROM eod_report_row r USING vanished v
       WHERE r.id = v.id AND v.batched_revision = 0
      RETURNING r.id
    ), zeroed AS (
      UPDATE eod_report_row r
         SET order_count = 0, invoice_count = 0, invoice_total = 0, credit_memo_count = 0, credit_memo_total = 0,
             shipping_invoice_count = 0, shipping_invoice_total = 0, net_sales = 0,
             revision = r.revision + 1, batch_id = NULL, export_status = 'pending', updated_at = now()
        FROM vanished v
       WHERE r.id = v.id AND v.batched_revision > 0
         AND (r.order_count, r.invoice_count, r.credit_memo_count, r.shipping_invoice_count,
              r.invoice_total, r.credit_memo_total, r.shipping_invoice_total) IS DISTINCT FROM (0, 0, 0, 0, 0::numeric, 0::numeric, 0::numeric)
      RETURNING r.id
    )
    SELECT (SELECT COUNT(*) FROM agg)::int AS rows,
           (SELECT COUNT(*) FILTER (WHERE inserted) FROM upserted)::int AS created,
           (SELECT COUNT(*) FILTER (WHERE NOT inserted) FROM upserted)::int AS changed,
           (SELECT COUNT(*) FROM removed)::int AS removed,
           (SELECT COUNT(*) FROM zeroed)::int AS zeroed,
           (SELECT COALESCE(SUM(records), 0) FROM agg)::int AS sales_records,
           (SELECT COALESCE(SUM(invoice_total - credit_memo_total - shipping_invoice_total), 0) FROM agg)::numeric(14, 2)::text AS net_sales`;
  return { ...result, unchanged: result.rows - result.created - result.changed };
}
