// `node --import tsx bench/grid-csv/run.ts` (not part of npm test; D265): the
// CSV of a million order-grid rows through GET /api/advancedordergrid?format=csv,
// and of the same orders sorted by another key, against the built app in local
// mode. Reports the time to the last byte, the rows and bytes, and the app
// process's resident memory before and at most during the download (sampled
// from /proc every 100 ms), to show the download streams in bounded memory.
// BENCH_ROWS (1,000,000), BENCH_DATABASE_URL to reuse a seeded database,
// BENCH_SKIP_BUILD=1 to use the current build.
import { execSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { seedBulkOrders } from "../../prisma/seed/bulk-orders";
import { startAppServer } from "../../tests/support/app-server";
import { createTestDatabase } from "../../tests/support/test-database";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const existing = process.env.BENCH_DATABASE_URL;
const database = existing ? { url: existing, dispose: async () => {} } : await createTestDatabase("bench-grid-csv");

/** The pid listening on the app's port (the app server's own process). */
function pidOf(url: string): number {
  const port = new URL(url).port;
  const line = execSync(`ss -ltnpH "sport = :${port}"`).toString();
  const pid = /pid=(\d+)/.exec(line)?.[1];
  if (!pid) throw new Error(`no process listens on ${port}: ${line}`);
  return Number(pid);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

async function download(url: string, pid: number) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const start = performance.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  let firstByte = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!firstByte) firstByte = performance.now() - start;
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  clearInterval(sampler);
  return { seconds: (performance.now() - start) / 1000, firstByteMs: firstByte, rows: lines - 1, mb: bytes / 2 ** 20, before, peak };
}

let app: Awaited<ReturnType<typeof startAppServer>> | null = null;
try {
  console.log(
    `Machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), load ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}`,
  );
  if (!existing) {
    const start = performance.now();
    await seedBulkOrders(database.url, ROWS, () => {});
    const pool = new pg.Pool({ connectionString: database.url });
    await pool.query("VACUUM ANALYZE order_grid");
    await pool.end();
    console.log(`seeded ${ROWS} orders: ${((performance.now() - start) / 1000).toFixed(0)} s`);
  }
  if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync("build/server/index.js")) {
    if (spawnSync("npm", ["run", "build"], { stdio: "inherit" }).status !== 0) throw new Error("npm run build failed");
  }
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
  const pid = pidOf(app.url);
  for (const [label, query] of [
    ["created_at desc (default), every column", "format=csv"],
    ["customer_email asc, 3 columns", "format=csv&sort=customer_email&sort_dir=asc&columns=order_id,customer_email,fulfillment_status"],
  ] as const) {
    const result = await download(`${app.url}/api/advancedordergrid?${query}`, pid);
    console.log(
      `${label}: ${result.rows.toLocaleString("en-US")} rows, ${result.mb.toFixed(0)} MiB in ${result.seconds.toFixed(1)} s ` +
        `(first byte ${result.firstByteMs.toFixed(0)} ms, ${Math.round(result.rows / result.seconds).toLocaleString("en-US")} rows/s); ` +
        `app RSS ${result.before.toFixed(0)} MiB before, ${result.peak.toFixed(0)} MiB at most during`,
    );
  }
} finally {
  await app?.stop();
  await database.dispose();
}
