// `npm run bench:eod`: the EOD run at a realistic size. A million orders
// (seed --orders), 300 stores, and 30 days of sales records at ~74,000 a day
// (40,000 invoices, 30,000 shipping invoices, 4,000 credit memos): 2.2 million
// records. Times the run of two days (first, again unchanged, again after 1% of
// a day's records changed) and the export's batch creation; writes
// bench/eod/results.json. Figures: docs/performance.md.
import { writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { seedBulkOrders } from "../../prisma/seed/bulk-orders";
import { createTestDatabase } from "../../tests/support/test-database";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const DAYS = 30;
const INVOICES = 40_000;
const SHIPPING = 30_000;
const CREDIT_MEMOS = 4_000;
const LAST_DAY = "2026-11-21";

const database = await createTestDatabase("bench_eod");
process.env.DATABASE_URL = database.url;
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const timed = async <T>(label: string, work: () => Promise<T>) => {
  const started = performance.now();
  const result = await work();
  const ms = Math.round(performance.now() - started);
  console.log(`${label}: ${ms} ms`);
  return { result, ms };
};
try {
  // The grid's trigram indexes make a million inserts and updates slow and play no part in the EOD run.
  const trigram = (
    await client.query<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'order_grid' AND indexdef LIKE '%gin_trgm_ops%'")
  ).rows;
  for (const { indexname } of trigram) await client.query(`DROP INDEX "${indexname}"`);
  await timed(`${ORDERS} orders`, () => seedBulkOrders(database.url, ORDERS, () => {}));
  await timed("allocations (300 stores, a quarter unallocated)", () =>
    client.query(
      "UPDATE order_grid SET allocated_sources = lpad((1 + id % 300)::text, 3, '0') || CASE WHEN id % 7 = 0 THEN ',DS01' ELSE '' END WHERE id % 4 <> 0",
    ),
  );
  await timed(`${DAYS} days of sales records`, () =>
    client.query(
      `INSERT INTO sales_record (source_key, record_type, order_increment_id, amount, record_date)
       SELECT 'bench:' || d || ':' || t.kind || ':' || g, t.kind, 'B' || lpad((1 + (g * 7919 + d * 104729) % $1::int)::text, 9, '0'),
              round((5 + (g * 31 + d) % 40000 / 100.0)::numeric, 2), $2::date - d
         FROM generate_series(0, $3::int - 1) AS d
        CROSS JOIN (VALUES ('invoice', $4::int), ('shipping_invoice', $5::int), ('credit_memo', $6::int)) AS t(kind, n)
        CROSS JOIN LATERAL generate_series(1, t.n) AS g`,
      [ORDERS, LAST_DAY, DAYS, INVOICES, SHIPPING, CREDIT_MEMOS],
    ),
  );
  await client.query("ANALYZE");
  const [{ count }] = (await client.query<{ count: string }>("SELECT count(*) FROM sales_record")).rows;

  const { runEodReport } = await import("../../app/eod/report.server");
  const { createBatch } = await import("../../app/eod/batches.server");
  const { withEodLock } = await import("../../app/eod/lock.server");
  const run = () => runEodReport({ sales_date: LAST_DAY, days: 2 });
  const first = await timed("run, 2 days, first", run);
  const again = await timed("run, 2 days, again (nothing changed)", run);
  await client.query(`UPDATE sales_record SET amount = amount + 1 WHERE record_date = $1::date AND id % 100 = 0`, [LAST_DAY]);
  const changed = await timed("run, 2 days, after 1% of a day's records changed", run);
  const batch = await timed("export: batch of the pending rows (file built and stored)", () => withEodLock(() => createBatch()));
  // The aggregate alone, as the run joins the orders (a hash join) and as a
  // per-record lookup of the order by its unique id would, each twice (warm).
  const aggregate = (storeOfOrder: string) => `EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT)
       SELECT sr.record_date, COALESCE(NULLIF(btrim(sr.store_id), ''), ${storeOfOrder}, 'WEB'), count(*), sum(amount)
         FROM sales_record sr ${storeOfOrder.startsWith("(SELECT") ? "" : "LEFT JOIN order_grid o ON o.order_id = sr.order_increment_id"}
        WHERE sr.record_date BETWEEN $1::date - 1 AND $1::date AND sr.record_type IN ('invoice', 'credit_memo', 'shipping_invoice')
        GROUP BY 1, 2`;
  const explain = async (sql: string) => (await client.query<{ "QUERY PLAN": string }>(sql, [LAST_DAY])).rows.map((row) => row["QUERY PLAN"]);
  const executionMs = (lines: string[]) => Number(/Execution Time: ([\d.]+)/.exec(lines.join("\n"))?.[1]);
  const joinSql = aggregate("NULLIF(btrim(split_part(o.allocated_sources, ',', 1)), '')");
  const lookupSql = aggregate("(SELECT NULLIF(btrim(split_part(o.allocated_sources, ',', 1)), '') FROM order_grid o WHERE o.order_id = sr.order_increment_id)");
  const plan = await explain(joinSql);
  const joinMs = [executionMs(plan), executionMs(await explain(joinSql))];
  const lookupPlan = await explain(lookupSql);
  const lookupMs = [executionMs(lookupPlan), executionMs(await explain(lookupSql))];
  console.log(`aggregate with a hash join: ${joinMs.join(", ")} ms; with a lookup per record: ${lookupMs.join(", ")} ms`);
  const results = {
    orders: ORDERS,
    sales_records: Number(count),
    records_per_day: INVOICES + SHIPPING + CREDIT_MEMOS,
    run_first_ms: first.ms,
    run_again_ms: again.ms,
    run_after_change_ms: changed.ms,
    batch_ms: batch.ms,
    rows: first.result.rows,
    first: first.result,
    again: again.result,
    changed: changed.result,
    aggregate_hash_join_ms: joinMs,
    aggregate_lookup_per_record_ms: lookupMs,
    plan_of_the_aggregate: plan,
    plan_of_the_lookup_variant: lookupPlan,
    measured_at: new Date().toISOString(),
  };
  writeFileSync(path.join("bench", "eod", "results.json"), JSON.stringify(results, null, 2) + "\n");
  console.log(JSON.stringify({ ...results, plan_of_the_aggregate: undefined, plan_of_the_lookup_variant: undefined }, null, 2));
  console.log(plan.join("\n"));
  console.log(lookupPlan.join("\n"));
} finally {
  await client.end();
  const { prisma } = await import("../../app/db.server");
  await prisma.$disconnect();
  await database.dispose();
}
