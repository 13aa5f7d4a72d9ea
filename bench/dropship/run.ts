// `npm run bench:dropship [-- --requests N --vendors M --profile-sql]`: the
// drop-ship flow at volume. Not part of `npm test`.
// N requests (default 10,000) spread evenly over M X12 vendors (default 20) go
// through the five steps, called directly (no feed runner), against a loopback
// SFTP server (one user and folder tree per vendor) and the Shopify stand-in,
// both in a process of their own as in production (--outside in-process runs
// them in this one, as the figures before 2026-11-26 late were measured), on a
// database of its own (created and dropped).
// Per step: wall-clock time, what it handled, and the app's database round
// trips (every pg Client.query of the app's pool; the stand-in's catalog has a
// pool of its own, not counted), with the time spent waiting on the database,
// on SFTP operations and on Shopify calls. The vendors' answers (997, 855, one
// 856 per PO) are written straight into their incoming folders between steps
// 2 and 3, timed apart: not app time. --profile-sql lists each step's
// statements by count; --shopify-latency-ms N holds each of the stand-in's answers N ms, as
// Shopify's round trip would. Figures go to the console and to bench/dropship/results.json.
// Experiments: --log-trigram none|one replaces the log's seven trigram indexes (D139); --heap-snapshots DIR
// writes a heap snapshot before and after each step (after a collection).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { writeHeapSnapshot } from "node:v8";
import pg from "pg";
import { createTestDatabase } from "../../tests/support/test-database";
import type { OutsideConfig } from "./outside-servers";
import { forgetShopifyAndAs400 } from "../support/bench-env";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const PASSWORD = "Bench-Pa55word";
const ORDER_BASE = 700_000_000; // order_id = ORDER_BASE + n: nine digits, so PO numbers fit BEG03's 22 characters
const SHOPIFY_ORDER_BASE = 5_500_000_000;

const { values: args } = parseArgs({
  options: {
    requests: { type: "string", default: "10000" },
    vendors: { type: "string", default: "20" },
    "profile-sql": { type: "boolean", default: false },
    "shopify-latency-ms": { type: "string", default: "0" },
    "heap-snapshots": { type: "string" },
    // An experiment (issue 20, D139): the drop-ship log's trigram indexes as migrated (seven, one a column), none, or one GIN over the seven columns.
    "log-trigram": { type: "string", default: "as-migrated" },
    // Where the vendors' SFTP server and the Shopify stand-in run: "child" (a process of their own) or "in-process".
    outside: { type: "string", default: "child" },
  },
});
function positive(value: string | undefined, name: string) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of 1 or more, not ${value}`);
  return number;
}
const REQUESTS = positive(args.requests, "--requests");
const VENDORS = positive(args.vendors, "--vendors");
if (VENDORS > REQUESTS) throw new Error("--vendors must not exceed --requests");
if (VENDORS > 99) throw new Error("--vendors is at most 99");
const PROFILE_SQL = args["profile-sql"] === true;
const OUTSIDE = args.outside;
if (OUTSIDE !== "child" && OUTSIDE !== "in-process") throw new Error(`--outside is child or in-process, not ${OUTSIDE}`);
// The stand-in answers at once; Shopify takes a while (--shopify-latency-ms holds each answer that long, as Shopify's round trip would).
const SHOPIFY_LATENCY_MS = Number(args["shopify-latency-ms"]);
if (!Number.isInteger(SHOPIFY_LATENCY_MS) || SHOPIFY_LATENCY_MS < 0 || SHOPIFY_LATENCY_MS > 10_000)
  throw new Error(`--shopify-latency-ms must be a whole number of 0 to 10000, not ${args["shopify-latency-ms"]}`);

const LOG_TEXT_COLUMNS = ["vendor_name", "po_number", "order_increment_id", "item_sku", "tracking_number", "file_name", "message"];
const fixed = (value: number, digits = 1) => +value.toFixed(digits);
const seconds = (ms: number) => fixed(ms / 1000, 2);

// --- what the app waits for, measured -------------------------------------------

type Kind = "db" | "sftp" | "http";
const KINDS: Kind[] = ["db", "sftp", "http"];

/** One step's measurements: every database round trip, SFTP operation and Shopify call, as [start, ms] pairs. */
class Meter {
  readonly began = performance.now();
  readonly spans: Record<Kind, number[]> = { db: [], sftp: [], http: [] };
  /** When processStoredFile last claimed a file (the end of step 4's file phase). */
  lastFileClaimAt: number | null = null;
  firstHttpAt: number | null = null;
  readonly statements = new Map<string, { count: number; ms: number }>();

  record(kind: Kind, start: number, ms: number) {
    this.spans[kind].push(start, ms);
  }

  /** Count and summed time of each kind, for spans that began in [from, to). */
  summary(from = -Infinity, to = Infinity) {
    const out = {} as Record<Kind, { count: number; ms: number }>;
    for (const kind of KINDS) {
      let count = 0;
      let ms = 0;
      const spans = this.spans[kind];
      for (let i = 0; i < spans.length; i += 2) {
        if (spans[i] < from || spans[i] >= to) continue;
        count++;
        ms += spans[i + 1];
      }
      out[kind] = { count, ms };
    }
    return out;
  }
}
let meter: Meter | null = null;

/** Clients that are not the app's: the bench's own and the stand-in catalog's. */
const notTheApp = new WeakSet<object>();
const FILE_CLAIM = /FROM transmission WHERE id = ANY\(\$\d+::int\[\]\) AND status = 'received' FOR UPDATE SKIP LOCKED/;
const statementKey = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .replace(/\$\d+/g, "$")
    .replace(/(\(\$(?:,\$)*\))(?:,\1)+/g, "$1,…")
    .slice(0, 150);

// @prisma/adapter-pg (6.19) sends every statement through a client of its pg.Pool:
// in a transaction it awaits client.query (BEGIN, each statement, COMMIT), outside
// one it calls pool.query, which ends in client.query with a callback. So
// Client.prototype.query sees each round trip exactly once.
const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const originalQuery = clientProto.query;
clientProto.query = function (this: object, ...callArgs: unknown[]) {
  const current = meter;
  if (!current || notTheApp.has(this)) return originalQuery.apply(this, callArgs);
  const first = callArgs[0];
  const text = typeof first === "string" ? first : ((first as { text?: string } | null)?.text ?? "");
  const start = performance.now();
  if (FILE_CLAIM.test(text)) current.lastFileClaimAt = start;
  const done = () => {
    const ms = performance.now() - start;
    current.record("db", start, ms);
    if (!PROFILE_SQL) return;
    const key = statementKey(text);
    const entry = current.statements.get(key) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += ms;
    current.statements.set(key, entry);
  };
  const last = callArgs.length - 1;
  const callback = callArgs[last];
  if (typeof callback === "function") {
    callArgs[last] = (...answer: unknown[]) => {
      done();
      return callback(...answer);
    };
  }
  const result = originalQuery.apply(this, callArgs);
  if (typeof callback !== "function" && result && typeof (result as Promise<unknown>).then === "function") (result as Promise<unknown>).then(done, done);
  return result;
};

/** Times a method of a prototype as `kind` while a step runs. */
function timeMethods(proto: Record<string, unknown>, names: string[], kind: Kind) {
  for (const name of names) {
    const original = proto[name] as (...args: unknown[]) => Promise<unknown>;
    if (typeof original !== "function") continue;
    proto[name] = async function (this: unknown, ...callArgs: unknown[]) {
      const current = meter;
      if (!current) return original.apply(this, callArgs);
      const start = performance.now();
      try {
        return await original.apply(this, callArgs);
      } finally {
        current.record(kind, start, performance.now() - start);
      }
    };
  }
}

let adminApiPrefix = "\0";
const originalFetch = globalThis.fetch;
globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const current = meter;
  if (!current || !url.startsWith(adminApiPrefix)) return originalFetch(input, init);
  const start = performance.now();
  current.firstHttpAt ??= start;
  try {
    return await originalFetch(input, init);
  } finally {
    current.record("http", start, performance.now() - start);
  }
};

// --- set-up -------------------------------------------------------------------

const machine = {
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model ?? "unknown",
  memory_gb: fixed(os.totalmem() / 2 ** 30),
  node: process.version,
  // The machine may be shared: a high load average means noisy timings.
  load_average_at_start: os.loadavg().map((load) => fixed(load, 2)),
  load_average_at_end: [] as number[],
  // Where the vendors' SFTP server and the Shopify stand-in ran (--outside).
  outside_servers: OUTSIDE,
};
console.log(
  `Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB RAM, Node ${machine.node}, load average ${machine.load_average_at_start.join(" ")}`,
);

const database = await createTestDatabase("bench_dropship");
// Local mode (the stand-in answers Shopify calls); no AS400 (810 and 846 are off for these vendors).
forgetShopifyAndAs400();
if (process.env.NODE_ENV === "production") process.env.ALLOW_LOCAL_MODE_IN_PRODUCTION = "1";
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET_KEY = Buffer.alloc(32, 23).toString("base64");

const root = mkdtempSync(path.join(os.tmpdir(), "dropship-bench-"));
const own = new pg.Client({ connectionString: database.url });
notTheApp.add(own);
const standInPool = new pg.Pool({ connectionString: database.url, max: 2 });
standInPool.on("connect", (client) => notTheApp.add(client));

const closers: Array<() => Promise<unknown>> = [];
let failed = false;

try {
  await own.connect();
  const { connectTransport } = await import("@edi/transport");

  // One SFTP user per vendor, each seeing its own folder as "/".
  const users: Record<string, string> = {};
  const userRoots: Record<string, string> = {};
  const userOf = (i: number) => `v${String(i + 1).padStart(2, "0")}`;
  for (let i = 0; i < VENDORS; i++) {
    users[userOf(i)] = PASSWORD;
    userRoots[userOf(i)] = `users/${userOf(i)}`;
    for (const folder of ["inbound", "outbound"]) mkdirSync(path.join(root, "users", userOf(i), folder), { recursive: true });
  }
  const outsideConfig: OutsideConfig = { databaseUrl: database.url, root, users, userRoots, shopifyLatencyMs: SHOPIFY_LATENCY_MS };
  const outside = OUTSIDE === "child" ? await startOutsideChild(outsideConfig) : await startOutsideHere(outsideConfig);
  const sftp = { port: outside.sftpPort, hostKey: outside.hostKey };
  process.env.SHOPIFY_STAND_IN_URL = outside.standInUrl;
  adminApiPrefix = `${outside.standInUrl}/admin/`;
  // The SFTP transport's class is not exported: its prototype, from one connection.
  const probe = await connectTransport({
    mechanism: 1,
    host: "127.0.0.1",
    port: sftp.port,
    user: userOf(0),
    password: PASSWORD,
    hostKey: sftp.hostKey,
    label: "bench",
  });
  timeMethods(
    Object.getPrototypeOf(probe) as Record<string, unknown>,
    ["list", "exists", "download", "upload", "rename", "archive", "delete", "makeFolder", "close"],
    "sftp",
  );
  await probe.close();

  // The app's modules read DATABASE_URL and the environment at import.
  const { default: prisma } = await import("../../app/db.server");
  closers.push(() => prisma.$disconnect());
  const { encryptSecret, vendorPasswordBinding } = await import("../../app/lib/secrets.server");
  const { ourIdentity } = await import("../../app/dropship/flow/context.server");
  const { populateShipRequests } = await import("../../app/dropship/flow/populate-requests.server");
  const { sendShipRequests } = await import("../../app/dropship/flow/send-requests.server");
  const { populateShipResponses } = await import("../../app/dropship/flow/populate-responses.server");
  const { processShipResponses } = await import("../../app/dropship/flow/process-responses.server");
  const { clearCompletedShipRequests } = await import("../../app/dropship/flow/clear-completed.server");
  const { answerPurchaseOrderFile } = await import("../../app/dropship/tools/vendor-answers");

  // --- data, in bulk ----------------------------------------------------------
  let start = performance.now();
  const vendors = await prisma.vendor.createManyAndReturn({
    data: Array.from({ length: VENDORS }, (_, i) => {
      const n = String(i + 1).padStart(2, "0");
      return {
        name: `Bench Vendor ${n}`,
        store_id: `DSB${n}`,
        enabled: 1,
        transfer_mechanism_id: 1,
        sftp_host: "127.0.0.1",
        sftp_port: sftp.port,
        sftp_user: userOf(i),
        sftp_host_key: sftp.hostKey,
        sftp_incoming_folder: "/outbound",
        sftp_outcoming_folder: "/inbound",
        edi_format: 1,
        edi_identifier: `BENCHV${n}`,
        edi_qualifier: "ZZ",
        regex_format: "\\.edi$",
        is_archiving_files: 1,
        edi997_enabled: 1,
        edi810_enabled: 0,
        edi846_enabled: 0,
      };
    }),
  });
  // Each password is bound to its row (D208): encrypted once the ids are known.
  for (const vendor of vendors) {
    Object.assign(
      vendor,
      await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_pass: encryptSecret(PASSWORD, vendorPasswordBinding(vendor.id)) } }),
    );
  }
  vendors.sort((a, b) => a.store_id.localeCompare(b.store_id));
  await prisma.inventorySource.createMany({ data: vendors.map((vendor) => ({ source_code: vendor.store_id, name: vendor.name, type: "dropshipper" })) });
  await own.query(
    `INSERT INTO order_grid (order_id, shopify_order_id, concat_ship_to_name, ship_first_name, ship_last_name, ship_street,
      ship_city, ship_region, ship_postcode, ship_country_id, magento_status, created_at, updated_at)
     SELECT ($2::bigint + g)::text, ($3::bigint + g)::text, 'Ada Lovelace' || g, 'Ada', 'Lovelace' || g,
            (1 + g % 900) || ' Analytical Way' || CASE WHEN g % 4 = 0 THEN E'\\nSuite ' || (g % 40) ELSE '' END,
            (ARRAY['Chicago','Denver','Portland','Austin','Columbus'])[1 + g % 5], (ARRAY['IL','CO','OR','TX','OH'])[1 + g % 5],
            lpad((10000 + g % 89999)::text, 5, '0'), 'US', 'processing', now(), now()
       FROM generate_series(1, $1::int) AS g`,
    [REQUESTS, ORDER_BASE, SHOPIFY_ORDER_BASE],
  );
  await own.query(
    `INSERT INTO order_item (order_id, sku, name, qty_ordered, price, update_time)
     SELECT o.id, 'BENCH-' || lpad(((o.order_id::bigint - $1::bigint) % 2000)::text, 4, '0'), 'Bench item',
            1 + (o.order_id::bigint - $1::bigint)::int % 2, 24.95, now()
       FROM order_grid o`,
    [ORDER_BASE],
  );
  // Evenly: order n goes to vendor (n - 1) mod M.
  await own.query(
    `INSERT INTO assignment (order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned, store_id, dropshipper_name, assign_status, update_time)
     SELECT o.order_id, o.shopify_order_id, i.item_id, i.sku, i.qty_ordered, v.store_id, v.name, 1, now()
       FROM order_item i
       JOIN order_grid o ON o.id = i.order_id
       JOIN unnest($1::text[], $2::text[]) WITH ORDINALITY AS v(store_id, name, k) ON v.k = (o.order_id::bigint - $3::bigint - 1) % $4 + 1
      ORDER BY o.id`,
    [vendors.map((vendor) => vendor.store_id), vendors.map((vendor) => vendor.name), ORDER_BASE, VENDORS],
  );
  if (args["log-trigram"] !== "as-migrated") {
    const { rows: trigram } = await own.query<{ name: string }>(
      "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'dropship_log' AND indexdef LIKE '%gin_trgm_ops%'",
    );
    for (const { name } of trigram) await own.query(`DROP INDEX "${name}"`);
    if (args["log-trigram"] === "one")
      await own.query(`CREATE INDEX bench_log_trgm ON dropship_log USING GIN (${LOG_TEXT_COLUMNS.map((column) => `${column} gin_trgm_ops`).join(", ")})`);
    else if (args["log-trigram"] !== "none") throw new Error(`--log-trigram is as-migrated, none or one, not ${args["log-trigram"]}`);
    console.log(`The drop-ship log's trigram indexes: ${args["log-trigram"]} (experiment)`);
  }
  await own.query("ANALYZE");
  const setupSeconds = seconds(performance.now() - start);
  console.log(
    `Database ${database.name}: ${VENDORS} vendors, ${REQUESTS.toLocaleString("en-US")} ` +
      `orders with one item and a Pending assignment each, in ${setupSeconds} s\n`,
  );

  // --- the steps ----------------------------------------------------------------
  interface Row {
    step: string;
    seconds: number;
    handled: number;
    unit: string;
    note: string;
    appTime: boolean;
    trips: number;
    db_s: number;
    sftp_ops: number;
    sftp_s: number;
    shopify_calls: number;
    shopify_s: number;
  }
  const rows: Row[] = [];
  const problems: string[] = [];

  function row(step: string, ms: number, handled: number, unit: string, note: string, sum: ReturnType<Meter["summary"]>, appTime = true): Row {
    return {
      step,
      seconds: seconds(ms),
      handled,
      unit,
      note,
      appTime,
      trips: sum.db.count,
      db_s: seconds(sum.db.ms),
      sftp_ops: sum.sftp.count,
      sftp_s: seconds(sum.sftp.ms),
      shopify_calls: sum.http.count,
      shopify_s: seconds(sum.http.ms),
    };
  }

  // The JavaScript heap while a step runs, sampled every 50 ms: its peak above the step's start
  // (after a collection, with --expose-gc), and what it still holds after the step once collected,
  // say whether a step's memory grows with the requests (the peak also counts garbage not yet collected).
  const heapPeaks: Array<{ step: string; mb: number; retained_mb: number }> = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  // --heap-snapshots DIR writes a heap snapshot (after a collection) before and after each step, to see what a step holds.
  const snapshot = (label: string) => {
    if (!args["heap-snapshots"]) return;
    mkdirSync(args["heap-snapshots"], { recursive: true });
    writeHeapSnapshot(path.join(args["heap-snapshots"], `${label.replace(/\W+/g, "-")}.heapsnapshot`));
  };
  async function step<T extends { message: string; error: boolean; meta: Record<string, unknown> }>(name: string, run: () => Promise<T>) {
    gc?.();
    snapshot(`${name} before`);
    const heapAtStart = process.memoryUsage().heapUsed;
    let heapPeak = heapAtStart;
    const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 50);
    const m = new Meter();
    meter = m;
    let result: T;
    try {
      result = await run();
    } finally {
      meter = null;
      clearInterval(sampler);
    }
    const peakMb = fixed((Math.max(heapPeak, process.memoryUsage().heapUsed) - heapAtStart) / 2 ** 20);
    gc?.();
    snapshot(`${name} after`);
    heapPeaks.push({ step: name, mb: peakMb, retained_mb: fixed((process.memoryUsage().heapUsed - heapAtStart) / 2 ** 20) });
    const ms = performance.now() - m.began;
    if (result.error) problems.push(`${name}: ${result.message}`);
    console.log(`  ${name}: ${seconds(ms)} s — ${result.message}`);
    if (PROFILE_SQL) {
      for (const [sql, { count, ms: spent }] of [...m.statements.entries()].sort((a, b) => b[1].count - a[1].count).slice(0, 40)) {
        console.log(`      ${String(count).padStart(7)} × ${(spent / count).toFixed(2).padStart(6)} ms  ${sql}`);
      }
    }
    return { result, ms, m };
  }
  const meta = (result: { meta: Record<string, unknown> }, key: string) => Number(result.meta[key] ?? 0);

  console.log("Steps:");
  // 1
  const s1 = await step("1 populateShipRequests", populateShipRequests);
  rows.push(row("1 populateShipRequests", s1.ms, meta(s1.result, "created"), "requests", "", s1.m.summary()));

  // 2: a file holds at most 5,000 requests; further runs (as the schedule would make) send the rest.
  const sends: Array<Awaited<ReturnType<typeof step>>> = [];
  for (;;) {
    const run = await step(`2 sendShipRequests (run ${sends.length + 1})`, () => sendShipRequests());
    sends.push(run);
    const left = Number(
      (await own.query<{ n: string }>("SELECT count(*) AS n FROM dropship_request WHERE status = 'pending' AND needs_processing AND archived_at IS NULL"))
        .rows[0].n,
    );
    if (left === 0 || meta(run.result, "requests_in_files") === 0) break;
  }
  const s2sum = sends
    .map((run) => run.m.summary())
    .reduce((a, b) => {
      for (const kind of KINDS) {
        a[kind].count += b[kind].count;
        a[kind].ms += b[kind].ms;
      }
      return a;
    });
  const sentFiles = sends.reduce((sum, run) => sum + meta(run.result, "files_sent"), 0);
  rows.push(
    row(
      "2 sendShipRequests",
      sends.reduce((sum, run) => sum + run.ms, 0),
      sends.reduce((sum, run) => sum + meta(run.result, "requests_in_files"), 0),
      "requests",
      `${sentFiles} 850 files${sends.length > 1 ? `, ${sends.length} runs` : ""}`,
      s2sum,
    ),
  );

  // The vendors answer: not app time.
  start = performance.now();
  let answerFiles = 0;
  let answered = 0;
  for (const [i, vendor] of vendors.entries()) {
    const home = path.join(root, "users", userOf(i));
    let controlNumber = 100_000;
    for (const name of readdirSync(path.join(home, "inbound"))
      .filter((file) => /^850_.*\.edi$/.test(file))
      .sort()) {
      const answer = answerPurchaseOrderFile(vendor as never, name, readFileSync(path.join(home, "inbound", name)), {
        now: new Date(),
        controlNumberStart: controlNumber,
        random: seeded(1000 + i),
        ours: ourIdentity(),
      });
      if ("error" in answer) throw new Error(`${vendor.name} could not answer ${name}: ${answer.error}`);
      controlNumber = answer.nextControlNumber;
      for (const file of [...answer.immediate, ...answer.later]) {
        writeFileSync(path.join(home, "outbound", file.name), file.content);
        answerFiles++;
      }
      answered++;
    }
  }
  const answerMs = performance.now() - start;
  console.log(`  (the vendors answer ${answered} 850 files: ${answerFiles} files written in ${seconds(answerMs)} s, not app time)`);
  rows.push(row("(vendors answer: not app time)", answerMs, answerFiles, "files", `997 + 855 per 850, an 856 per PO`, new Meter().summary(), false));

  // 3
  const s3 = await step("3 populateShipResponses", () => populateShipResponses());
  rows.push(
    row(
      "3 populateShipResponses",
      s3.ms,
      meta(s3.result, "files_stored"),
      "files",
      meta(s3.result, "duplicates") ? `${meta(s3.result, "duplicates")} duplicates` : "",
      s3.m.summary(),
    ),
  );

  // 4
  const s4 = await step("4 processShipResponses", () => processShipResponses());
  const fulfilments = meta(s4.result, "fulfilments");
  const acks = Number(
    (await own.query<{ n: string }>("SELECT count(*) AS n FROM transmission WHERE direction = 'out' AND transaction_set = '997' AND status = 'sent'")).rows[0]
      .n,
  );
  rows.push(
    row("4 processShipResponses", s4.ms, meta(s4.result, "files_processed"), "files", `${acks} 997s uploaded, ${fulfilments} fulfilments`, s4.m.summary()),
  );

  // 5
  const s5 = await step("5 clearCompletedShipRequests", clearCompletedShipRequests);
  rows.push(row("5 clearCompletedShipRequests", s5.ms, meta(s5.result, "archived"), "requests", "", s5.m.summary()));

  // Step 4 in its three phases, told apart by what the meters saw: the files (to the
  // last per-file claim), the upload of the queued 997s (to the first Shopify call),
  // the fulfilments (from it).
  const end4 = s4.m.began + s4.ms;
  const claim = s4.m.lastFileClaimAt ?? s4.m.began;
  const firstHttp = s4.m.firstHttpAt ?? end4;
  const files4 = meta(s4.result, "files_processed");
  const phases = [
    row("4a files: parse, apply, record groups", claim - s4.m.began, files4, "files", "a transaction per 100 files (D102)", s4.m.summary(-Infinity, claim)),
    row("4b one 997 per vendor, uploaded", firstHttp - claim, acks, "files", "write, lease, upload, mark sent (D100)", s4.m.summary(claim, firstHttp)),
    row(
      "4c Shopify fulfilments",
      end4 - firstHttp,
      fulfilments,
      "fulfilments",
      "orders read in nodes queries, a create each, a transaction per 200 (D101, D130)",
      s4.m.summary(firstHttp),
    ),
  ];

  // --- correctness ------------------------------------------------------------------
  const count = async (sql: string) => Number((await own.query<{ n: string }>(sql)).rows[0].n);
  const calls = (await (await originalFetch(`${outside.standInUrl}/__calls`)).json()) as Array<{
    operation: string;
    variables: { fulfillment?: { trackingInfo?: { number?: string } } };
  }>;
  const fulfilmentCalls = calls.filter((call) => call.operation === "FulfillmentCreate");
  const trackingNumbers = new Set(fulfilmentCalls.map((call) => call.variables.fulfillment?.trackingInfo?.number)).size;
  const notComplete = await count("SELECT count(*) AS n FROM assignment WHERE assign_status <> 4");
  const assignments = await count("SELECT count(*) AS n FROM assignment");
  const archived = await count("SELECT count(*) AS n FROM dropship_request WHERE status = 'archived' AND archived_at IS NOT NULL");
  const requests = await count("SELECT count(*) AS n FROM dropship_request");
  const waiting = await count("SELECT count(*) AS n FROM transmission WHERE status IN ('received', 'prepared')");
  const failedFiles = await count("SELECT count(*) AS n FROM transmission WHERE status = 'failed'");
  const checks: Array<[string, boolean, string]> = [
    ["every assignment is Complete (assign_status 4)", notComplete === 0 && assignments === REQUESTS, `${notComplete} of ${assignments} not Complete`],
    ["every request archived", archived === REQUESTS && requests === REQUESTS, `${archived} of ${requests} archived`],
    [
      "exactly one FulfillmentCreate per request",
      fulfilmentCalls.length === REQUESTS && trackingNumbers === REQUESTS,
      `${fulfilmentCalls.length} FulfillmentCreate calls, ${trackingNumbers} tracking numbers`,
    ],
    ["no transmission left received or prepared", waiting === 0, `${waiting} left`],
    ["no transmission failed", failedFiles === 0, `${failedFiles} failed`],
    ["no step reported a problem", problems.length === 0, problems.join(" | ") || "none"],
  ];
  console.log("\nChecks:");
  for (const [what, ok, detail] of checks) console.log(`  ${ok ? "ok  " : "FAIL"} ${what} (${detail})`);
  failed = checks.some(([, ok]) => !ok);

  // --- figures --------------------------------------------------------------------------
  const app = rows.filter((each) => each.appTime);
  const total = (key: "seconds" | "trips" | "db_s" | "sftp_ops" | "sftp_s" | "shopify_calls" | "shopify_s") => app.reduce((sum, each) => sum + each[key], 0);
  const appSeconds = total("seconds");
  const appTrips = total("trips");
  const totals: Row = {
    step: "steps 1–5 (app time)",
    seconds: fixed(appSeconds, 2),
    handled: REQUESTS,
    unit: "requests",
    note: "",
    appTime: true,
    trips: appTrips,
    db_s: fixed(total("db_s"), 2),
    sftp_ops: total("sftp_ops"),
    sftp_s: fixed(total("sftp_s"), 2),
    shopify_calls: total("shopify_calls"),
    shopify_s: fixed(total("shopify_s"), 2),
  };
  const peakRssMb = fixed((process.resourceUsage().maxRSS * 1024) / 2 ** 20);
  const n = (value: number) => value.toLocaleString("en-US");

  function print(title: string, lines: Row[]) {
    const header = [
      "step",
      "seconds",
      "handled",
      "per second",
      "round trips",
      "trips/request",
      "db wait s",
      "sftp ops",
      "sftp s",
      "shopify calls",
      "shopify s",
      "other s",
      "note",
    ];
    const cells = lines.map((each) => {
      const other = each.seconds - each.db_s - each.sftp_s - each.shopify_s;
      return [
        each.step,
        each.seconds.toFixed(2),
        `${n(each.handled)} ${each.unit}`,
        each.seconds ? n(Math.round(each.handled / each.seconds)) : "",
        each.appTime ? n(each.trips) : "",
        each.appTime ? (each.trips / REQUESTS).toFixed(1) : "",
        each.appTime ? each.db_s.toFixed(2) : "",
        each.appTime ? n(each.sftp_ops) : "",
        each.appTime ? each.sftp_s.toFixed(2) : "",
        each.appTime ? n(each.shopify_calls) : "",
        each.appTime ? each.shopify_s.toFixed(2) : "",
        each.appTime ? other.toFixed(2) : "",
        each.note,
      ];
    });
    const widths = header.map((heading, i) => Math.max(heading.length, ...cells.map((line) => line[i].length)));
    const format = (line: string[]) =>
      line
        .map((cell, i) => (i === 0 || i === line.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join("  ")
        .trimEnd();
    console.log(`\n${title}\n${format(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
    for (const line of cells) console.log(format(line));
  }
  print(`${n(REQUESTS)} requests over ${VENDORS} vendors ("other": in-process work — Prisma's query compiler, X12, the in-process servers' share of the CPU)`, [
    ...rows,
    totals,
  ]);
  print("Step 4 in phases", phases);
  console.log(
    `\nEnd to end (steps 1–5): ${appSeconds.toFixed(1)} s, ${fixed(REQUESTS / appSeconds)} ` +
      `requests/s, ${(appTrips / REQUESTS).toFixed(1)} database round trips per request`,
  );
  console.log(
    `Per file: step 3 ${(s3.ms / Math.max(1, meta(s3.result, "files_stored"))).toFixed(1)} ms; step 4 files ` +
      `${((claim - s4.m.began) / Math.max(1, files4)).toFixed(1)} ms, 997 uploads ` +
      `${((firstHttp - claim) / Math.max(1, acks)).toFixed(1)} ms, fulfilments ` +
      `${((end4 - firstHttp) / Math.max(1, fulfilments)).toFixed(1)} ms each`,
  );
  const inThisProcess = OUTSIDE === "child" ? "app and vendors' answers; SFTP server and stand-in apart" : "app, SFTP server, stand-in and vendors together";
  console.log(`Peak RSS of this process (${inThisProcess}; PostgreSQL apart): ${peakRssMb} MB`);
  console.log(
    `Heap peak above each step's start${gc ? " (after a collection)" : " (run with --expose-gc to collect first)"}, MB: ` +
      heapPeaks.map(({ step: name, mb }) => `${name} ${mb}`).join("; "),
  );
  const held = heapPeaks.map(({ step: name, retained_mb }) => `${name} ${retained_mb}`).join("; ");
  if (gc) console.log(`Heap still held after each step (after a collection, above its start), MB: ${held}`);

  machine.load_average_at_end = os.loadavg().map((load) => fixed(load, 2));
  console.log(`Load average at the end: ${machine.load_average_at_end.join(" ")}`);
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        requests: REQUESTS,
        vendors: VENDORS,
        shopify_latency_ms: SHOPIFY_LATENCY_MS,
        setup_seconds: setupSeconds,
        steps: rows,
        step4_phases: phases,
        totals: { ...totals, requests_per_second: fixed(REQUESTS / appSeconds), round_trips_per_request: fixed(appTrips / REQUESTS, 2) },
        peak_rss_mb: peakRssMb,
        heap_peak_above_step_start_mb: heapPeaks,
        checks: checks.map(([what, ok, detail]) => ({ what, ok, detail })),
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`Written to ${RESULTS}`);
  if (failed) console.error("\nCHECKS FAILED: the figures above are not valid.");
  // The last line, for scripts: end-to-end throughput and round trips.
  console.log(
    JSON.stringify({
      requests: REQUESTS,
      vendors: VENDORS,
      app_seconds: fixed(appSeconds, 2),
      requests_per_second: fixed(REQUESTS / appSeconds, 2),
      round_trips_per_request: fixed(appTrips / REQUESTS, 2),
      checks_passed: !failed,
      load_average: machine.load_average_at_end,
      outside_servers: OUTSIDE,
    }),
  );
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  meter = null;
  for (const close of closers.reverse()) await close().catch((error) => console.error("closing:", error));
  await own.end().catch(() => undefined);
  await standInPool.end().catch(() => undefined);
  await database.dispose();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

interface Outside {
  sftpPort: number;
  hostKey: string;
  standInUrl: string;
}

/** The vendors' SFTP server and the Shopify stand-in in a process of their own (outside-servers.ts). */
async function startOutsideChild(config: OutsideConfig): Promise<Outside> {
  const script = fileURLToPath(new URL("./outside-servers.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(config)], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  closers.push(async () => {
    child.stdin.end();
    await exited;
  });
  const line = await new Promise<string>((resolve, reject) => {
    let buffered = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const end = buffered.indexOf("\n");
      if (end >= 0) resolve(buffered.slice(0, end));
    });
    child.once("exit", (code) => reject(new Error(`the outside servers' process ended (${code}) before answering`)));
  });
  return JSON.parse(line) as Outside;
}

/** The same two servers in this process; the stand-in's pool is not counted as the app's. */
async function startOutsideHere(config: OutsideConfig): Promise<Outside> {
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const { PrismaClient } = await import("../../app/db/generated/client");
  const { startShopifyStandIn } = await import("../../app/shopify/stand-in.server");
  const { databaseCatalog } = await import("../../app/shopify/stand-in-catalog.server");
  const { startSftpServer } = await import("@edi/transport/loopback");
  // Shopify's side reads the same database, through a pool of its own.
  const catalogPrisma = new PrismaClient({ adapter: new PrismaPg(standInPool) });
  // The adapter does not end a pool it was handed; an idle client left open is cut when the database is dropped.
  closers.push(() => standInPool.end());
  closers.push(() => catalogPrisma.$disconnect());
  const standIn = await startShopifyStandIn({ catalog: databaseCatalog(catalogPrisma) });
  closers.push(() => standIn.stop());
  if (config.shopifyLatencyMs) standIn.throttle({ latencyMs: config.shopifyLatencyMs });
  const sftp = await startSftpServer({ root: config.root, users: config.users, userRoots: config.userRoots });
  closers.push(() => sftp.stop());
  return { sftpPort: sftp.port, hostKey: sftp.hostKey, standInUrl: standIn.url };
}

/** A fixed chance source, so the vendors' answers are the same every run. */
function seeded(seed: number) {
  return () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
}
