// `npm run bench:log-indexes`: the drop-ship log's trigram indexes, layout by
// layout (issue 20). On a database of its own: a million log rows (the grid
// bench's generator), then for each layout of the trigram indexes: build it,
// insert 40,000 rows in multi-row INSERTs of 235 (as step 4a of a
// 10,000-request run writes them), time the Drop Shipping Logs grid's filters
// (the code behind GET /api/dropship_log) and print each filter's plan.
// BENCH_ROWS (default 1000000), BENCH_RUNS (default 7), BENCH_LAYOUTS (names, comma-separated).
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/test-database";
import { insertDropshipLogs } from "../support/dropship-logs";

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 7);
const INSERTED = 40_000;
const BATCH = 235;
const TEXT_COLUMNS = ["vendor_name", "po_number", "order_increment_id", "item_sku", "tracking_number", "file_name", "message"];
const trgm = (columns: string[]) => columns.map((column) => `"${column}" gin_trgm_ops`).join(", ");

interface Layout {
  name: string;
  create: string[];
}
const layouts: Layout[] = [
  { name: "a: 7 single-column GIN", create: TEXT_COLUMNS.map((column) => `CREATE INDEX "bench_trgm_${column}" ON dropship_log USING GIN (${trgm([column])})`) },
  { name: "b: 1 multicolumn GIN", create: [`CREATE INDEX "bench_trgm_all" ON dropship_log USING GIN (${trgm(TEXT_COLUMNS)})`] },
  {
    name: "d: 1 multicolumn GIN, pending list 16 MB",
    create: [`CREATE INDEX "bench_trgm_all" ON dropship_log USING GIN (${trgm(TEXT_COLUMNS)}) WITH (gin_pending_list_limit = 16384)`],
  },
  { name: "e: no trigram index", create: [] },
];
const chosen = process.env.BENCH_LAYOUTS?.split(",").map((name) => name.trim());

// The filters bench/run.ts times, one "contains" filter per text column, and the
// global search; the SQL beside each is what Prisma sends for it (for EXPLAIN).
const filters: Array<{ what: string; query: string; sql: string }> = [
  { what: "vendor_name contains 'acme'", query: "vendor_name=acme", sql: `vendor_name ILIKE '%acme%'` },
  { what: "po_number contains 'PO100054321'", query: "po_number=PO100054321", sql: `po_number ILIKE '%PO100054321%'` },
  { what: "order_increment_id contains '100054321'", query: "order_increment_id=100054321", sql: `order_increment_id ILIKE '%100054321%'` },
  { what: "item_sku contains 'SKU-10042'", query: "item_sku=SKU-10042", sql: `item_sku ILIKE '%SKU-10042%'` },
  { what: "tracking_number contains '900000054323'", query: "tracking_number=900000054323", sql: `tracking_number ILIKE '%900000054323%'` },
  { what: "file_name contains '856_DS03_54321'", query: "file_name=856_DS03_54321", sql: `file_name ILIKE '%856_DS03_54321%'` },
  { what: "message contains 'PO100054321'", query: "message=PO100054321", sql: `message ILIKE '%PO100054321%'` },
  {
    what: "queryValue=PO100054321 (global search)",
    query: "queryValue=PO100054321",
    sql: TEXT_COLUMNS.map((column) => `${column} ILIKE '%PO100054321%'`).join(" OR "),
  },
  { what: "queryValue=zzz (search, no match)", query: "queryValue=zzz", sql: TEXT_COLUMNS.map((column) => `${column} ILIKE '%zzz%'`).join(" OR ") },
];

const database = await createTestDatabase("logidx");
process.env.DATABASE_URL = database.url;
const results: Array<Record<string, unknown>> = [];

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median_ms: +sorted[Math.floor(sorted.length / 2)].toFixed(1),
    mean_ms: +(sorted.reduce((sum, value) => sum + value, 0) / sorted.length).toFixed(1),
    p95_ms: +sorted[Math.ceil(sorted.length * 0.95) - 1].toFixed(1),
    max_ms: +sorted[sorted.length - 1].toFixed(1),
  };
}

/** One step-4a-like batch: the columns the flow writes, `count` rows in one INSERT. */
function insertBatch(client: pg.Client, first: number, count: number) {
  const values: unknown[] = [];
  const tuples: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const po = `DS${String(n % 20).padStart(2, "0")}-${200000 + n}`;
    const row = [
      `Bench Vendor ${String(n % 20).padStart(2, "0")}`,
      ["receive_file", "process_responses", "fulfil", "populate_requests"][n % 4],
      n % 97 === 0 ? "warning" : "success",
      po,
      String(300000000 + n),
      `SKU-${20001 + (n % 500)}`,
      1,
      n % 4 === 2 ? `1Z${800000000000 + n}` : null,
      n % 4 === 1 ? `856_${po}_${n}.edi` : null,
      `Shipment for PO ${po} recorded, tracking 1Z${800000000000 + n}`,
      JSON.stringify({ code: "dropship.log.shipped", params: { po } }),
    ];
    tuples.push(`(${row.map((_, k) => `$${values.length + k + 1}`).join(", ")})`);
    values.push(...row);
  }
  return client.query(
    `INSERT INTO dropship_log (vendor_name, action, status, po_number, order_increment_id, item_sku, qty, tracking_number, file_name, message, message_code)
     VALUES ${tuples.join(", ")}`,
    values,
  );
}

async function dropBenchIndexes(client: pg.Client) {
  const { rows: indexes } = await client.query<{ name: string }>(
    `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'dropship_log' AND (indexname LIKE '%trgm%')`,
  );
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
}

try {
  console.log(`Bench database ${database.name}, ${rows.toLocaleString("en-US")} rows, ${runs} runs per filter\n`);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query("SET maintenance_work_mem = '256MB'");
  await dropBenchIndexes(client);
  let start = performance.now();
  await insertDropshipLogs(client, rows);
  await client.query("VACUUM ANALYZE dropship_log");
  console.log(`${rows} log rows inserted: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  const {
    rows: [{ max }],
  } = await client.query<{ max: number }>("SELECT max(id) AS max FROM dropship_log");

  const { listDropshipLogs } = await import("../../app/dropship/logs.server");
  const { i18nServer } = await import("../../app/i18n/i18n.server");
  const { renderForReader } = await import("../../app/i18n/messages");
  const t = await i18nServer.getFixedT("en", "common");

  for (const layout of layouts.filter((candidate) => !chosen || chosen.some((name) => candidate.name.startsWith(name)))) {
    console.log(`\n== ${layout.name}`);
    await dropBenchIndexes(client);
    await client.query(`DELETE FROM dropship_log WHERE id > $1`, [max]);
    await client.query("VACUUM ANALYZE dropship_log");
    start = performance.now();
    for (const statement of layout.create) await client.query(statement);
    await client.query("ANALYZE dropship_log");
    const buildSeconds = (performance.now() - start) / 1000;
    const {
      rows: [{ size }],
    } = await client.query<{ size: string }>(
      `SELECT coalesce(sum(pg_relation_size(indexrelid)), 0) AS size FROM pg_stat_user_indexes WHERE relname = 'dropship_log' AND indexrelname LIKE '%trgm%'`,
    );
    console.log(`built in ${buildSeconds.toFixed(1)} s, ${(Number(size) / 1024 / 1024).toFixed(0)} MB`);

    const batchMs: number[] = [];
    start = performance.now();
    for (let first = 0; first < INSERTED; first += BATCH) {
      const batchStart = performance.now();
      await insertBatch(client, first, Math.min(BATCH, INSERTED - first));
      batchMs.push(performance.now() - batchStart);
    }
    const insertSeconds = (performance.now() - start) / 1000;
    const insert = stats(batchMs);
    console.log(
      `insert ${INSERTED} rows in ${batchMs.length} INSERTs of ${BATCH}: ${insertSeconds.toFixed(1)} s; per INSERT ` +
        `median ${insert.median_ms} ms, mean ${insert.mean_ms} ms, p95 ${insert.p95_ms} ms, max ${insert.max_ms} ms`,
    );
    // What a later insert (or autovacuum) would still have to merge: cleaned now, timed apart.
    start = performance.now();
    await client.query("VACUUM dropship_log");
    const vacuumSeconds = (performance.now() - start) / 1000;
    console.log(`VACUUM afterwards (merges what is left pending): ${vacuumSeconds.toFixed(1)} s`);
    await client.query("ANALYZE dropship_log");

    const grid: Array<Record<string, unknown>> = [];
    for (const filter of filters) {
      const run = () => listDropshipLogs(new URLSearchParams(filter.query)).then((answer) => renderForReader(t, answer));
      await run();
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const at = performance.now();
        await run();
        samples.push(performance.now() - at);
      }
      const { rows: plan } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT id FROM dropship_log WHERE ${filter.sql} ORDER BY id DESC LIMIT 20`);
      const usesIndex = plan.map((line) => line["QUERY PLAN"]).find((line) => /Bitmap Index Scan|Index Scan/.test(line) && /trgm/.test(line));
      const answer = await listDropshipLogs(new URLSearchParams(filter.query));
      const firstIds = answer.data.data.map((row) => row.id).join(",");
      const entry = {
        what: filter.what,
        ...stats(samples),
        total: answer.data.total,
        first_page: createHash("sha1").update(firstIds).digest("hex").slice(0, 8),
        index: usesIndex?.trim().replace(/\s+\(cost.*$/, "") ?? "none",
      };
      grid.push(entry);
      console.log(
        `  ${filter.what.padEnd(44)} median ${String(entry.median_ms).padStart(7)} ms  p95 ${String(entry.p95_ms).padStart(7)} ms  ` +
          `total ${String(entry.total).padStart(7)} page ${entry.first_page}  ${entry.index}`,
      );
    }
    results.push({
      layout: layout.name,
      build_s: +buildSeconds.toFixed(1),
      index_mb: Math.round(Number(size) / 1024 / 1024),
      insert_s: +insertSeconds.toFixed(1),
      insert,
      vacuum_s: +vacuumSeconds.toFixed(1),
      grid,
    });
  }
  await client.end();
  const { loadavg } = await import("node:os");
  console.log(JSON.stringify({ rows, load_average: loadavg().map((value) => +value.toFixed(2)), results }));
} finally {
  const { default: prisma } = await import("../../app/db.server").catch(() => ({ default: null }));
  await prisma?.$disconnect();
  await database.dispose();
}
