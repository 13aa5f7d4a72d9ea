// `npm run bench:order-grid`: the Advanced Order Summary at a million orders,
// over HTTP, with the bare SQL of the same queries for comparison
// (docs/performance.md, "Advanced Order Summary at a million orders").
// On a database of its own (created and dropped): seeds BENCH_ROWS orders
// (default 1,000,000) the way `npm run seed -- --orders N` does, gives a share
// of the marketplace orders ChannelAdvisor ids (the seed leaves them empty),
// starts the built app (`npm run build` first unless BENCH_SKIP_BUILD=1), then
// for every sort (each key, asc and desc), every filter alone (a value taken
// from the data) and the global search:
//   - the first answer's time (a new filter: its count is not cached yet);
//   - autocannon against GET /api/advancedordergrid for BENCH_SECONDS (5) with
//     BENCH_CONNECTIONS (4) connections, after the exact count has been cached;
//   - the bare SQL the app runs for that request in the same state, through
//     `pg` with as many connections for as long;
//   - the floor: the same statement answered as JSON by a bare node:http server
//     (floor-server.ts, a process of its own), under the same load: what any
//     HTTP service costs here;
//   - the app's own time: one request at a time for BENCH_SEQUENTIAL_SECONDS (2),
//     the `Server-Timing: app;dur=` the app reports (authentication, parsing,
//     SQL, JSON), each followed by the bare SQL once, so both see the same machine.
// Prints a table (markdown) and writes bench/order-grid/results.json.
// BENCH_DATABASE_URL runs the cases on an existing seeded database instead
// (nothing created, seeded or dropped); BENCH_ONLY=<regex> picks cases.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { seedBulkOrders } from "../../prisma/seed/bulk-orders";
import { startAppServer } from "../../tests/support/app-server";
import { createTestDatabase } from "../../tests/support/test-database";

interface AutocannonResult {
  requests: { total: number; average: number };
  non2xx: number;
  errors: number;
}
interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
}
type Autocannon = ((options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance) & {
  track?: unknown;
};
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const SEQUENTIAL_SECONDS = Number(process.env.BENCH_SEQUENTIAL_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const round = (value: number) => (Number.isFinite(value) ? (value >= 10 ? Math.round(value) : Math.round(value * 10) / 10) : value);

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
  count: number;
}

function figures(samples: number[], seconds: number): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    perSecond: Math.round(samples.length / seconds),
    count: samples.length,
  };
}

function loadOverHttp(url: string): Promise<Figures & { non2xx: number; errors: number }> {
  return new Promise((resolve, reject) => {
    const samples: number[] = [];
    const instance = autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { accept: "application/json" } }, (error, result) => {
      if (error) return reject(error);
      resolve({ ...figures(samples, SECONDS), non2xx: result.non2xx, errors: result.errors });
    });
    instance.on("response", (_client, _status, _bytes, responseTime) => samples.push(responseTime));
  });
}

async function loadOverSql(pool: pg.Pool, statement: { sql: string; params: unknown[] }): Promise<Figures> {
  const samples: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < until) {
          const start = performance.now();
          await client.query(statement.sql, statement.params);
          samples.push(performance.now() - start);
        }
      } finally {
        client.release();
      }
    }),
  );
  return figures(samples, SECONDS);
}

/**
 * One request at a time: the app's own time, as it reports it in Server-Timing,
 * and the bare SQL alone, taken in turns so that both see the same machine.
 */
async function appTimeAgainstSql(url: string, pool: pg.Pool, statement: { sql: string; params: unknown[] }) {
  const app: number[] = [];
  const bare: number[] = [];
  const client = await pool.connect();
  try {
    const until = performance.now() + SEQUENTIAL_SECONDS * 1000;
    while (performance.now() < until) {
      const response = await fetch(url, { headers: { accept: "application/json" } });
      await response.arrayBuffer();
      const reported = /app;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
      if (!reported) throw new Error(`${url}: no Server-Timing in the answer`);
      app.push(Number(reported[1]));
      const start = performance.now();
      await client.query(statement.sql, statement.params);
      bare.push(performance.now() - start);
    }
  } finally {
    client.release();
  }
  return { app: figures(app, SEQUENTIAL_SECONDS), bare: figures(bare, SEQUENTIAL_SECONDS) };
}

/** The floor server (floor-server.ts) in a process of its own. */
async function startFloorServer(databaseUrl: string) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("bench", "order-grid", "floor-server.ts")], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`floor server exited with ${code}`)));
  });
  return {
    url,
    async use(statement: { sql: string; params: unknown[] }) {
      const response = await fetch(`${url}/statement`, { method: "PUT", body: JSON.stringify(statement) });
      if (response.status !== 204) throw new Error(`floor server: ${response.status}`);
      const check = await fetch(url);
      if (!check.ok) throw new Error(`floor server: ${await check.text()}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function seedAndPrepare() {
  let start = performance.now();
  await seedBulkOrders(database.url, ROWS, () => {});
  console.log(`seed --orders ${ROWS}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  start = performance.now();
  // The bulk seed leaves the ChannelAdvisor ids empty; one marketplace order in four gets some.
  await pool.query(
    `UPDATE order_grid SET ca_site_order_id = (300000 + id % 600000)::text, ca_order_id = (50000000 + id)::text
      WHERE marketplace_source IS NOT NULL AND id % 20 = 3`,
  );
  await pool.query("VACUUM ANALYZE order_grid");
  console.log(`ChannelAdvisor ids for a share of marketplace orders, VACUUM ANALYZE: ${((performance.now() - start) / 1000).toFixed(1)} s`);
}

const existing = process.env.BENCH_DATABASE_URL;
const database = existing
  ? { url: existing, name: new URL(existing).pathname.slice(1), dispose: async () => {} }
  : await createTestDatabase("bench-order-grid");
process.env.DATABASE_URL = database.url;
let app: Awaited<ReturnType<typeof startAppServer>> | null = null;
let floor: Awaited<ReturnType<typeof startFloorServer>> | null = null;
const pool = new pg.Pool({ connectionString: database.url, max: CONNECTIONS });
try {
  console.log(`Bench database ${database.name}: ${ROWS.toLocaleString("en-US")} orders; ${SECONDS} s × ${CONNECTIONS} connections per case`);
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB, load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}\n`,
  );

  if (!existing) await seedAndPrepare();
  else await pool.query("SELECT 1");

  if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync("build/server/index.js")) {
    const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build failed");
  }
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
  floor = await startFloorServer(database.url);

  // Values from the data: one order in the middle, and common words.
  const {
    rows: [sample],
  } = await pool.query(
    `SELECT * FROM order_grid WHERE ca_site_order_id IS NOT NULL ORDER BY id OFFSET (SELECT count(*) / 2 FROM order_grid
      WHERE ca_site_order_id IS NOT NULL) LIMIT 1`,
  );
  const cases: Array<[string, string]> = [];
  for (const key of ["created_at", "order_id", "shopify_order_id", "customer_email", "updated_at", "shopify_updated_at"]) {
    for (const dir of ["desc", "asc"]) cases.push([`sort ${key} ${dir}`, `sort=${key}&sort_dir=${dir}`]);
  }
  cases.push(["page 5000 (offset 100k), default sort", "page=5000"]);
  const filters: Array<[string, string]> = [
    ["shopifyOrderId", sample.shopify_order_id],
    ["orderId", sample.order_id],
    ["customerEmail", sample.customer_email],
    ["billToName", sample.concat_bill_to_name.split(" ")[1]],
    ["shipToName", sample.concat_ship_to_name.split(" ")[0]],
    ["skus", sample.select_skus.split(",")[0]],
    ["grandTotalFrom", "500"],
    ["grandTotalTo", "20"],
    ["magentoOrderStatus", "fraud"],
    ["magentoOrderStatus", "processing,complete"],
    ["billToAddress", sample.concat_billing_address.split(",")[0]],
    ["shipToAddress", sample.concat_shipping_address.split(",")[0]],
    ["marketplaceSource", "AMAZON_US"],
    ["marketplaceSource", ""],
    ["marketplaceOrderId", sample.marketplace_order_id],
    ["caSiteOrderId", sample.ca_site_order_id],
    ["caOrderId", sample.ca_order_id],
    ["referSourceName", "Direct Revenue"],
    ["giftCardUsed", "1"],
  ];
  for (const [key, value] of filters) cases.push([`${key}=${value === "" ? "(Houser)" : value}`, new URLSearchParams({ [key]: value }).toString()]);
  cases.push([`queryValue=${sample.customer_email} (global search, one order)`, new URLSearchParams({ queryValue: sample.customer_email }).toString()]);
  cases.push([
    `queryValue=${sample.concat_bill_to_name.split(" ")[1]} (global search, a name)`,
    new URLSearchParams({ queryValue: sample.concat_bill_to_name.split(" ")[1] }).toString(),
  ]);
  cases.push([
    `globalFilter=${sample.order_id.slice(-6)} (global search, part of an id)`,
    new URLSearchParams({ globalFilter: sample.order_id.slice(-6) }).toString(),
  ]);
  cases.push(["queryValue=zzqx (global search, no match)", "queryValue=zzqx"]);

  const { parseOrderGridQuery, buildOrderGridSql, readFor, COUNT_CAP } = await import("../../app/orders/order-grid.server");

  const results: Array<Record<string, unknown>> = [];
  for (const [what, query] of cases) {
    if (ONLY && !ONLY.test(what)) continue;
    const url = `${app.url}/api/advancedordergrid?${query}`;
    // The first answer: a filter not asked for before (its count not cached).
    let begun = performance.now();
    let answer = (await (await fetch(url)).json()) as { total: number; total_exact: boolean; data: unknown[] };
    const firstMs = performance.now() - begun;
    // Then, as it is while staff page through: the exact count cached.
    for (let i = 0; i < 100 && answer.total_exact === false; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = (await (await fetch(url)).json()) as typeof answer;
    }
    begun = performance.now();
    await fetch(url).then((response) => response.json());
    const warmMs = performance.now() - begun;

    const http = await loadOverHttp(url);

    // The SQL the app runs for this request now: the page alone when the total
    // is above the cap (cached), else the bounded count with its page.
    const parsed = parseOrderGridQuery(new URLSearchParams(query));
    const sql = buildOrderGridSql(parsed);
    const {
      rows: [size],
    } = await pool.query("SELECT greatest(reltuples, 0)::float8 AS rows FROM pg_class WHERE oid = 'order_grid'::regclass");
    const read = readFor(parsed, answer.total > COUNT_CAP ? answer.total : null, Number(size.rows));
    const statement = sql[read];
    await pool.query(statement.sql, statement.params);
    const bare = await loadOverSql(pool, statement);
    await floor!.use(statement);
    const floorHttp = await loadOverHttp(floor!.url);
    // The app's own time against the SQL's, one request at a time.
    const { app: appTime, bare: bareAlone } = await appTimeAgainstSql(url, pool, statement);
    // For comparison: what an exact count(*) of the same filter costs (median of 3, alone).
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const begin = performance.now();
      await pool.query(sql.count.sql, sql.count.params);
      counts.push(performance.now() - begin);
    }
    const countMs = round(counts.sort((a, b) => a - b)[1]);
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;

    const entry = {
      case: what,
      query,
      total: answer.total,
      rows: answer.data.length,
      statement: read,
      first_ms: round(firstMs),
      warm_ms: round(warmMs),
      http,
      floor_http: floorHttp,
      sql: bare,
      app_time: appTime,
      sql_alone: bareAlone,
      app_over_sql_p50: ratio(appTime.p50, bareAlone.p50),
      app_over_sql_p95: ratio(appTime.p95, bareAlone.p95),
      http_over_sql_p50: ratio(http.p50, bare.p50),
      http_over_floor_p50: ratio(http.p50, floorHttp.p50),
      exact_count_ms: countMs,
    };
    results.push(entry);
    console.log(
      `${what.slice(0, 60).padEnd(60)} total ${String(answer.total).padStart(7)} first ` +
        `${String(entry.first_ms).padStart(5)} | http p50 ${http.p50} p95 ${http.p95} ` +
        `${http.perSecond}/s${http.non2xx || http.errors ? ` (${http.non2xx} non-2xx, ${http.errors} errors)` : ""} ` +
        `| floor ${floorHttp.p50} ${floorHttp.p95} | sql ${bare.p50} ${bare.p95} | app ${appTime.p50} ` +
        `${appTime.p95} vs sql ${bareAlone.p50} ${bareAlone.p95}: ×${entry.app_over_sql_p50} ×${entry.app_over_sql_p95}`,
    );
  }

  console.log(`\nUnder load (${CONNECTIONS} connections, ${SECONDS} s each), and one request at a time (${SEQUENTIAL_SECONDS} s each). Milliseconds.\n`);
  console.log(
    "| case | total | read | first answer | HTTP p50 | HTTP p95 | HTTP p99 | req/s | floor " +
      "p50 | floor p95 | SQL p50 | SQL p95 | app time p50 | app time p95 | SQL alone p50 | " +
      "SQL alone p95 | app ÷ SQL p50 | app ÷ SQL p95 | HTTP ÷ floor p50 | exact count(*) |",
  );
  console.log("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const entry of results) {
    const [http, floorHttp, sql, appTime, alone] = [entry.http, entry.floor_http, entry.sql, entry.app_time, entry.sql_alone] as Figures[];
    console.log(
      `| ${entry.case} | ${(entry.total as number).toLocaleString("en-US")} | ${entry.statement} | ${entry.first_ms} ` +
        `| ${http.p50} | ${http.p95} | ${http.p99} | ${http.perSecond} | ${floorHttp.p50} | ${floorHttp.p95} | ` +
        `${sql.p50} | ${sql.p95} | ${appTime.p50} | ${appTime.p95} | ${alone.p50} | ${alone.p95} | ` +
        `${entry.app_over_sql_p50} | ${entry.app_over_sql_p95} | ${entry.http_over_floor_p50} | ` +
        `${entry.exact_count_ms} |`,
    );
  }
  const out = path.join("bench", "order-grid", "results.json");
  writeFileSync(
    out,
    JSON.stringify(
      { at: new Date().toISOString(), rows: ROWS, seconds: SECONDS, connections: CONNECTIONS, cores: cpus().length, load: loadavg(), results },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nwritten ${out}`);
} finally {
  await pool.end().catch(() => {});
  await floor?.stop();
  await app?.stop();
  const { default: prisma } = await import("../../app/db.server").catch(() => ({ default: null }));
  await prisma?.$disconnect();
  await database.dispose();
}
