// `npm run bench:feeds [-- --logs N]`: the Feed Summary and Feed Logs
// grids at volume. N feed logs (default 3,000,000) over 12 feeds are written
// straight into a database of the bench's own (created and dropped), then each
// list request the screens make is answered by the app's own functions
// (listFeeds, listFeedLogs) several times; the median and the slowest are
// reported. Figures go to the console and to bench/feeds/results.json.
// --url postgresql://… uses (and keeps) that database instead, loading the
// logs only when it has none: for trying indexes without reloading.
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { applyMigrations } from "../../app/db/migrate.server";
import { createTestDatabase } from "../../tests/support/test-database";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const { values: args } = parseArgs({
  options: { logs: { type: "string", default: "3000000" }, repeat: { type: "string", default: "7" }, url: { type: "string" } },
});
const LOGS = Number(args.logs);
const REPEAT = Number(args.repeat);
const FEEDS = [
  "populate_ship_requests",
  "send_ship_requests",
  "populate_ship_responses",
  "process_ship_responses",
  "clear_completed_ship_requests",
  "vendor_inventory_846",
  "vendor_invoices_810",
  "eod_report",
  "order_sync",
  "product_sync",
  "special_order_pull",
  "assignment_import",
];

const database = args.url ? { url: args.url, dispose: async () => {} } : await createTestDatabase("bench_feeds");
if (args.url) await applyMigrations(args.url);
process.env.DATABASE_URL = database.url;
const client = new pg.Client({ connectionString: database.url });
await client.connect();
try {
  let started = performance.now();
  const {
    rows: [existing],
  } = await client.query<{ count: string }>("SELECT count(*) FROM (SELECT 1 FROM feed_log LIMIT 1) one");
  if (existing!.count === "0") {
    await client.query(
      `INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at)
     SELECT ($2::text[])[1 + (g % 12)],
            CASE WHEN g % 100 < 46 THEN 'starting' WHEN g % 100 < 88 THEN 'finished' WHEN g % 100 < 95 THEN 'failed' ELSE 'skipped' END,
            jsonb_build_object('trigger', 'schedule', 'pid', 4242, 'host', 'jobs-1', 'message', 'processed ' || (g % 500) || ' records',
              'duration_ms', g % 90000),
            now() - ($1 - g) * interval '1 second', now() - ($1 - g) * interval '1 second'
       FROM generate_series(1, $1::int) g`,
      [LOGS, FEEDS],
    );
    await client.query(
      `INSERT INTO feed (name, cron_expression, last_started_at, last_finished_at, last_failed_at, last_skipped_at)
     SELECT name, '*/5 * * * *', now() - i * interval '1 minute', now() - i * interval '1 minute', now() - i * interval '1 hour', NULL
       FROM unnest($1::text[]) WITH ORDINALITY AS f(name, i)`,
      [FEEDS],
    );
    await client.query("VACUUM ANALYZE feed_log");
    await client.query("VACUUM ANALYZE feed");
  }
  const loadSeconds = (performance.now() - started) / 1000;
  const {
    rows: [size],
  } = await client.query("SELECT pg_size_pretty(pg_total_relation_size('feed_log')) AS total, pg_size_pretty(pg_indexes_size('feed_log')) AS indexes");
  console.log(`${LOGS.toLocaleString("en-US")} feed logs written and analysed in ${loadSeconds.toFixed(1)} s (table ${size.total}, indexes ${size.indexes})`);

  const { listFeeds, listFeedLogs } = await import("../../app/feeds/feeds.server");
  const { i18nServer } = await import("../../app/i18n/i18n.server");
  const { renderForReader } = await import("../../app/i18n/messages");
  const t = await i18nServer.getFixedT("en", "common");
  const cases: Array<[string, string, (params: URLSearchParams) => Promise<{ total: number }>]> = [
    ["/feed (default: last_started_at desc)", "", (p) => listFeeds(p).then((answer) => renderForReader(t, answer))],
    ["/feed?name=ship", "name=ship", (p) => listFeeds(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item (default: created_at desc)", "", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item page 500", "page=500", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item?feed_name=<one feed> (View Logs)", "feed_name=order_sync", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item?feed_name=ship (4 feeds)", "feed_name=ship", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item?type=failed", "type=failed", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item?feed_name=order_sync&type=failed", "feed_name=order_sync&type=failed", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item?feed_name=nothing", "feed_name=nothing", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item sort=id asc", "sort=id&sort_dir=asc", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item sort=feed_name asc", "sort=feed_name&sort_dir=asc", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item sort=type desc", "sort=type&sort_dir=desc", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    ["/feed/item sort=updated_at desc", "sort=updated_at&sort_dir=desc", (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer))],
    [
      "/feed/item?feed_name=order_sync sort=type",
      "feed_name=order_sync&sort=type&sort_dir=asc",
      (p) => listFeedLogs(p).then((answer) => renderForReader(t, answer)),
    ],
  ];
  const results: Array<{ request: string; total: number; median_ms: number; max_ms: number }> = [];
  for (const [label, query, run] of cases) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < REPEAT; i++) {
      started = performance.now();
      total = (await run(new URLSearchParams(query))).total;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const row = { request: label, total, median_ms: +times[Math.floor(times.length / 2)]!.toFixed(1), max_ms: +times.at(-1)!.toFixed(1) };
    results.push(row);
    console.log(
      `${label.padEnd(52)} total ${String(total).padStart(9)}  median ${String(row.median_ms).padStart(7)} ms  max ${String(row.max_ms).padStart(7)} ms`,
    );
  }
  writeFileSync(RESULTS, `${JSON.stringify({ logs: LOGS, repeat: REPEAT, measured_at: new Date().toISOString(), results }, null, 2)}\n`);
  const { prisma } = await import("../../app/db.server");
  await prisma.$disconnect();
} finally {
  await client.end();
  await database.dispose();
}
