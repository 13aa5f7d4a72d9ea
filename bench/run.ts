// `npm run bench`: figures for docs/performance.md. Not part of `npm test`.
// On a database of its own (created and dropped): seeds a million orders the
// way `npm run seed -- --orders 1000000` does, fills a million drop-ship log
// rows, then times the generic grid (the code behind GET /api/dropship_log).
// BENCH_ROWS changes the size (default 1000000).
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createTestDatabase } from "../tests/support/test-database";
import { seedBulkOrders } from "../prisma/seed/bulk-orders";
import { insertDropshipLogs } from "./support/dropship-logs";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 15);

const database = await createTestDatabase("bench");
process.env.DATABASE_URL = database.url;
const results: Array<{ what: string; median_ms: number; p95_ms: number; note?: string }> = [];

async function time(what: string, fn: () => Promise<unknown>, note?: string) {
  await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const entry = {
    what,
    median_ms: +samples[Math.floor(samples.length / 2)].toFixed(1),
    p95_ms: +samples[Math.ceil(samples.length * 0.95) - 1].toFixed(1),
    note,
  };
  results.push(entry);
  console.log(`${what.padEnd(58)} median ${String(entry.median_ms).padStart(7)} ms   p95 ${String(entry.p95_ms).padStart(7)} ms${note ? `   ${note}` : ""}`);
}

try {
  console.log(`Bench database ${database.name}, ${rows.toLocaleString("en-US")} rows, ${runs} runs each\n`);

  let start = performance.now();
  await seedBulkOrders(database.url, rows, () => {});
  console.log(`seed --orders ${rows}: ${((performance.now() - start) / 1000).toFixed(1)} s (orders and one item each)`);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  start = performance.now();
  await insertDropshipLogs(client, rows);
  await client.query("ANALYZE dropship_log");
  console.log(`${rows} drop-ship log rows inserted: ${((performance.now() - start) / 1000).toFixed(1)} s\n`);
  await client.end();

  const { listDropshipLogs } = await import("../app/dropship/logs.server");
  const { i18nServer } = await import("../app/i18n/i18n.server");
  const { renderForReader } = await import("../app/i18n/messages");
  const t = await i18nServer.getFixedT("en", "common");
  const list = (query: string) => () => listDropshipLogs(new URLSearchParams(query)).then((answer) => renderForReader(t, answer));

  await time("logs grid: page 1, id desc (default)", list(""));
  await time("logs grid: page 50, id desc", list("page=50"));
  await time("logs grid: page 5000, id desc (offset 100k)", list("page=5000"));
  await time("logs grid: page 1, sort vendor_name asc", list("sort=vendor_name&sort_dir=asc"));
  await time("logs grid: status=error (select filter)", list("status=error"));
  await time("logs grid: vendor_name contains 'acme' (text filter)", list("vendor_name=acme"));
  await time("logs grid: queryValue=PO100054321 (global search)", list("queryValue=PO100054321"));
  await time("logs grid: queryValue=zzz (search, no match)", list("queryValue=zzz"));
} finally {
  const { default: prisma } = await import("../app/db.server").catch(() => ({ default: null }));
  await prisma?.$disconnect();
  await database.dispose();
}
