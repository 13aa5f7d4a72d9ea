// `npm run bench:attention [-- --requests N --open M]`: the Needs attention sweep
// at a real shop's size (issue 30, D239). Not part of `npm test`.
// N drop-ship requests (default 1,000,000, one per order) of which M (default
// 20,000) are still open with their vendor at every age, some rejected or
// backordered; 200,000 vendor files with 2,000 refused; 100,000 shipments with
// 300 Shopify refused; 100,000 invoice lines with 1,000 mismatches; 60 vendors
// with 5 unreachable; 15 feeds with 2 failed. Made with SQL (foreign keys set
// aside while filling), then timed: the first sweep (opens everything), a sweep
// with nothing changed (what runs every 5 minutes), a sweep after a tenth of
// the causes are gone, the screen's first page (oldest first, by kind, by
// vendor, by age) and the navigation's count; then the vendors' scorecards over the same requests. A database of its own.
// Figures go to the console (one line a script can read last) and to bench/attention/results.json.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/test-database";
import { forgetShopifyAndAs400 } from "../support/bench-env";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const { values: args } = parseArgs({ options: { requests: { type: "string", default: "1000000" }, open: { type: "string", default: "20000" } } });
const REQUESTS = Number(args.requests);
const OPEN = Number(args.open);
if (!Number.isInteger(REQUESTS) || !Number.isInteger(OPEN) || OPEN < 100 || OPEN > REQUESTS)
  throw new Error("--requests and --open are whole numbers, 100 ≤ open ≤ requests");

const ms = (value: number) => Math.round(value * 10) / 10;
const database = await createTestDatabase("bench_attention");
forgetShopifyAndAs400();
process.env.DATABASE_URL = database.url;
const own = new pg.Client({ connectionString: database.url });
await own.connect();

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const began = performance.now();
  const result = await work();
  return { ms: ms(performance.now() - began), result };
}

try {
  const filling = performance.now();
  await own.query("SET session_replication_role = replica"); // the rows stand alone: no orders or items behind them
  await own.query(`
    INSERT INTO dropship_vendor (name, store_id, edi_format, "997_enabled", use_cost, created_at, updated_at)
    SELECT 'Bench Vendor ' || v, 'DSB' || lpad(v::text, 2, '0'), CASE WHEN v % 3 = 0 THEN 0 ELSE 1 END, 1, v % 2, now(), now()
      FROM generate_series(1, 60) v`);
  await own.query(`
    INSERT INTO transmission (vendor_id, direction, file_name, content, content_hash, size, status, error, error_segment, transaction_set,
                              created_at, updated_at)
    SELECT 1 + t % 60, CASE WHEN t <= 100000 THEN 'out' ELSE 'in' END, 'file_' || t || '.edi', '\\x00', md5(t::text), 1,
           CASE WHEN t <= 100000 THEN (CASE WHEN t % 10 = 0 THEN 'sent' ELSE 'accepted' END) WHEN t % 100 = 0 THEN 'failed' ELSE 'processed' END,
           CASE WHEN t > 100000 AND t % 100 = 0 THEN 'no IEA' END, CASE WHEN t > 100000 AND t % 100 = 0 THEN '3 (BSN)' END,
           '850', now() - make_interval(mins => t % 20000), now()
      FROM generate_series(1, 200000) t`);
  // Requests: the open ones spread over the last 10 days; the rest long done.
  await own.query(
    `INSERT INTO assignment (order_increment_id, item_id, product_sku, qty_assigned, store_id, assign_status, created_time, update_time)
     SELECT (100000000 + r)::text, r, 'SKU-' || (r % 5000), 1 + r % 3, 'DSB' || lpad((1 + r % 60)::text, 2, '0'),
            CASE WHEN r <= $1 THEN 3 ELSE 4 END, now() - interval '30 days', now()
       FROM generate_series(1, $2::int) r`,
    [OPEN, REQUESTS],
  );
  await own.query(
    `INSERT INTO dropship_request (vendor_id, vendor_name, assignment_id, po_number, order_increment_id, item_sku, qty, ship_name_first, ship_name_last,
                                   ship_address, ship_city, ship_state, ship_zip, country_id, status, transmission_id, sent_at, archived_at,
                                   created_at, updated_at)
     SELECT 1 + r % 60, 'Bench Vendor ' || (1 + r % 60), r, 'PO' || r, (100000000 + r)::text, 'SKU-' || (r % 5000), 1 + r % 3, 'Ada', 'Lovelace',
            '1 Main St', 'Springfield', 'IL', '62701', 'US',
            CASE WHEN r > $1 THEN 'archived' WHEN r % 50 = 0 THEN 'rejected' WHEN r % 50 = 1 THEN 'backordered'
                 WHEN r % 3 = 0 THEN 'sent' ELSE 'acknowledged' END,
            1 + r % 100000, now() - make_interval(mins => (r * 7) % 14400), CASE WHEN r > $1 THEN now() - interval '20 days' END,
            now() - interval '30 days', now()
       FROM generate_series(1, $2::int) r`,
    [OPEN, REQUESTS],
  );
  await own.query(`
    INSERT INTO dropship_response (vendor_id, vendor_name, po_number, response_type, status, detail, created_at, updated_at)
    SELECT 1 + r % 60, 'Bench Vendor ' || (1 + r % 60), 'PO' || r, '856', CASE WHEN r % 333 = 0 THEN 'received' ELSE 'fulfilled' END,
           CASE WHEN r % 333 = 0 THEN 'Line items are already fulfilled' END, now() - interval '2 days', now()
      FROM generate_series(1, 100000) r`);
  await own.query(`
    INSERT INTO dropship_invoice_check (vendor_id, invoice_number, po_number, sku, qty_invoiced, qty_shipped, problems, status, created_at)
    SELECT 1 + r % 60, 'INV' || r, 'PO' || r, 'SKU-' || (r % 5000), 1, 1, CASE WHEN r % 100 = 0 THEN ARRAY['cost'] ELSE ARRAY[]::text[] END,
           CASE WHEN r % 100 = 0 THEN 'mismatch' ELSE 'matched' END, now() - interval '3 days'
      FROM generate_series(1, 100000) r`);
  await own.query(`
    INSERT INTO partner_contact (partner, vendor_id, failures, first_failed_at, last_error, updated_at)
    SELECT 'vendor:' || v, v, CASE WHEN v <= 5 THEN 4 ELSE 0 END, CASE WHEN v <= 5 THEN now() - interval '1 hour' END, 'timed out', now()
      FROM generate_series(1, 60) v`);
  await own.query(`
    INSERT INTO feed (name, cron_expression, last_finished_at, last_failed_at)
    SELECT 'feed_' || f, '* * * * *', now() - interval '1 hour', CASE WHEN f <= 2 THEN now() END FROM generate_series(1, 15) f`);
  await own.query(`
    INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at)
    SELECT 'feed_' || (1 + l % 15), CASE WHEN l % 15 < 2 AND l > 990000 THEN 'failed' ELSE 'finished' END, '{"error":"boom"}',
           now() - make_interval(secs => 1000000 - l), now()
      FROM generate_series(1, 1000000) l`);
  await own.query("SET session_replication_role = DEFAULT");
  await own.query("ANALYZE");
  const fillSeconds = Math.round((performance.now() - filling) / 100) / 10;

  const { sweepAttention } = await import("../../app/attention/sweep.server");
  const { listAttention, openAttentionCount } = await import("../../app/attention/queue.server");
  const { default: prisma } = await import("../../app/db.server");

  const first = await timed(() => sweepAttention());
  const steady = await timed(() => sweepAttention());
  // A tenth of the late requests answered, and the unreachable vendors back.
  await own.query(
    `UPDATE dropship_request SET status = 'shipped' WHERE request_id IN
       (SELECT request_id FROM dropship_request WHERE status IN ('sent','acknowledged') AND request_id % 10 = 0)`,
  );
  await own.query("UPDATE partner_contact SET failures = 0, first_failed_at = NULL");
  const resolving = await timed(() => sweepAttention());
  const pages: Record<string, number> = {};
  for (const [name, query] of Object.entries({
    oldest_first: "",
    by_kind: "kind=late_856",
    by_vendor: "vendor_name=Vendor%2017",
    older_than_3d: "since=3d",
    search: "queryValue=PO1234",
  })) {
    await listAttention(new URLSearchParams(query)); // warm
    pages[name] = (await timed(() => listAttention(new URLSearchParams(query)))).ms;
  }
  const count = await timed(() => openAttentionCount());
  // The scorecards (D244) over the same requests: every one of them was uploaded in the last 10 days, so all are in both windows.
  const { refreshVendorScorecards } = await import("../../app/dropship/scorecards.server");
  const scorecards = await timed(() => refreshVendorScorecards());
  const results = {
    requests: REQUESTS,
    open_requests: OPEN,
    fill_seconds: fillSeconds,
    first_sweep: { ms: first.ms, opened: first.result.opened, open: first.result.open },
    steady_sweep: { ms: steady.ms, opened: steady.result.opened, resolved: steady.result.resolved },
    resolving_sweep: { ms: resolving.ms, resolved: resolving.result.resolved, open: resolving.result.open },
    first_page_ms: pages,
    count_ms: count.ms,
    scorecards: { ms: scorecards.ms, rows: scorecards.result },
    machine: { cpus: (await import("node:os")).cpus().length, load: (await import("node:os")).loadavg().map((load) => Math.round(load * 100) / 100) },
  };
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results));
  await prisma.$disconnect();
} finally {
  await own.end();
  await database.dispose();
}
