// `npm run bench:hostile`: issue 28's hostile vendor files. Not part of `npm test`.
// A CSV vendor puts a 100 MB acknowledgement CSV whose every row is bad
// (`PO1,SKU1,x,bogus,notadate,m`, three errors a row) in its folder, an X12
// vendor a 855 of 100,000 PO1 lines; then Receive Files (Populate Ship
// Responses) and Process Ship Responses run in this process, as the web's
// scheduler runs them by default, while another process asks this one's
// /healthz (the app's own handler, app/db/health.server.ts, on a bare HTTP
// server) every 50 ms. Reported: the answers' p50/p99/max per step, and this
// process's peak RSS (VmHWM, worker threads included) per step. The vendors'
// SFTP server runs in a process of its own (bench/dropship/outside-servers.ts).
// --csv-mb N and --lines N change the sizes. Figures to the console and
// bench/hostile-files/results.json.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createTestDatabase } from "../../tests/support/test-database";
import { big855, hostileCsvChunks } from "../../tests/support/hostile-files";
import { forgetShopifyAndAs400 } from "../support/bench-env";
import type { OutsideConfig } from "../dropship/outside-servers";

const { values: args } = parseArgs({
  options: { "csv-mb": { type: "string", default: "100" }, lines: { type: "string", default: "100000" }, "receive-child": { type: "boolean", default: false } },
});
const CSV_BYTES = Math.round(Number(args["csv-mb"]) * 1_000_000);
const LINES = Number(args.lines);
const PASSWORD = "Hostile-Bench-1";
const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);
/** Peak RSS since the last reset (Linux), in MB. */
const peakRss = () => megabytes(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) * 1024);
/** Resets VmHWM to the current RSS (Linux 4.0+), so each step's peak is its own. */
const resetPeak = () => writeFileSync("/proc/self/clear_refs", "5");

function percentile(sorted: number[], p: number) {
  return sorted.length ? +sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * p) - 1)].toFixed(1) : null;
}

async function startOutside(config: OutsideConfig) {
  const script = fileURLToPath(new URL("../dropship/outside-servers.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(config)], { stdio: ["pipe", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  return { ...(JSON.parse(line.toString()) as { sftpPort: number; hostKey: string; standInUrl: string }), stop: () => child.stdin!.end() };
}

function startPoller(url: string) {
  const script = fileURLToPath(new URL("./poll.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, url], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  return async () => {
    child.stdin!.end();
    await once(child, "exit");
    return JSON.parse(out) as { times: number[]; failures: number };
  };
}

/** A /healthz over the app's own handler, on a bare HTTP server in this process. */
async function startHealthz() {
  const { healthAnswer } = await import("../../app/db/health.server");
  const server = http.createServer((request, response) => {
    void healthAnswer().then(async (answer) => {
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" });
      response.end(await answer.text());
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/healthz`;
  await fetch(url); // the database pool's first connection, outside the figures
  return { url, close: () => server.close() };
}

/** One step with the clock running, /healthz polled from another process, this process's peak RSS. */
async function measure(step: string, run: () => Promise<{ message: string }>, url: string) {
  global.gc?.();
  const rssAtStart = megabytes(process.memoryUsage().rss);
  resetPeak();
  const stopPolling = startPoller(url);
  await new Promise((resolve) => setTimeout(resolve, 300)); // the poller's first answers before the work
  const start = performance.now();
  const result = await run();
  const seconds = +((performance.now() - start) / 1000).toFixed(1);
  const { times, failures } = await stopPolling();
  const sorted = [...times].sort((a, b) => a - b);
  return {
    step,
    seconds,
    healthz_answers: times.length,
    healthz_failures: failures,
    healthz_p50_ms: percentile(sorted, 0.5),
    healthz_p99_ms: percentile(sorted, 0.99),
    healthz_max_ms: sorted.length ? +sorted[sorted.length - 1].toFixed(1) : null,
    rss_at_start_mb: rssAtStart,
    rss_peak_mb: peakRss(),
    message: result.message,
  };
}

// Receive runs in a process of its own (with the parent's environment: database, stand-in), so that Process
// starts in a fresh one: what Receive leaves in the heap (the downloads) is not counted as Process's.
if (args["receive-child"]) {
  const healthz = await startHealthz();
  const { populateShipResponses } = await import("../../app/dropship/flow/populate-responses.server");
  const entry = await measure("Receive Files (both vendors)", () => populateShipResponses(), healthz.url);
  process.stdout.write(`RESULT ${JSON.stringify(entry)}\n`);
  process.exit(0);
}

async function receiveInChild() {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url), "--receive-child"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  await once(child, "exit");
  const line = out.split("\n").find((each) => each.startsWith("RESULT "));
  if (!line) throw new Error(`the Receive process gave no result:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice("RESULT ".length)) as Awaited<ReturnType<typeof measure>>;
}

const database = await createTestDatabase("bench_hostile");
forgetShopifyAndAs400();
if (process.env.NODE_ENV === "production") process.env.ALLOW_LOCAL_MODE_IN_PRODUCTION = "1";
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET_KEY = Buffer.alloc(32, 23).toString("base64");
const root = mkdtempSync(path.join(os.tmpdir(), "hostile-bench-"));
const results: Array<Record<string, unknown>> = [];

try {
  const users = { csv: PASSWORD, x12: PASSWORD };
  const userRoots = { csv: "users/csv", x12: "users/x12" };
  for (const user of Object.keys(users)) for (const folder of ["inbound", "outbound"]) mkdirSync(path.join(root, "users", user, folder), { recursive: true });
  const outside = await startOutside({ databaseUrl: database.url, root, users, userRoots, shopifyLatencyMs: 0 });
  process.env.SHOPIFY_STAND_IN_URL = outside.standInUrl;

  const { default: prisma } = await import("../../app/db.server");
  const { encryptSecret, vendorPasswordBinding } = await import("../../app/lib/secrets.server");
  const { processShipResponses } = await import("../../app/dropship/flow/process-responses.server");

  const vendorRow = (user: string, overrides: Record<string, unknown>) => ({
    name: `Hostile ${user}`,
    store_id: `HOST${user.toUpperCase()}`,
    enabled: 1,
    transfer_mechanism_id: 1,
    sftp_host: "127.0.0.1",
    sftp_port: outside.sftpPort,
    sftp_user: user,
    sftp_host_key: outside.hostKey,
    sftp_incoming_folder: "/outbound",
    sftp_outcoming_folder: "/inbound",
    regex_format: "\\.(csv|edi)$",
    is_archiving_files: 1,
    ...overrides,
  });
  const csvVendor = await prisma.vendor.create({ data: vendorRow("csv", { edi_format: 0 }) });
  const x12Vendor = await prisma.vendor.create({ data: vendorRow("x12", { edi_format: 1, edi_identifier: "VENDOR", edi_qualifier: "ZZ", edi997_enabled: 1 }) });
  // The password is bound to its vendor row (D208): written once the row has its id.
  for (const vendor of [csvVendor, x12Vendor])
    await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_pass: encryptSecret(PASSWORD, vendorPasswordBinding(vendor.id)) } });
  for (const vendor of [csvVendor, x12Vendor])
    await prisma.inventorySource.create({ data: { source_code: vendor.store_id, name: vendor.name, type: "dropshipper" } });

  // The files, written in pieces: the bench's own memory is not the app's.
  const csvPath = path.join(root, "users/csv/outbound/855_hostile.csv");
  const csvOut = createWriteStream(csvPath);
  for (const chunk of hostileCsvChunks(CSV_BYTES)) if (!csvOut.write(chunk)) await once(csvOut, "drain");
  csvOut.end();
  await once(csvOut, "close");
  writeFileSync(path.join(root, "users/x12/outbound/855_big.edi"), big855(LINES));

  const healthz = await startHealthz();
  global.gc?.();
  const startRss = megabytes(process.memoryUsage().rss);
  console.log(`CSV ${(CSV_BYTES / 1e6).toFixed(0)} MB of bad rows, 855 of ${LINES.toLocaleString("en-US")} lines; RSS at start ${startRss} MB`);
  const report = (entry: Awaited<ReturnType<typeof measure>>) => {
    results.push(entry);
    console.log(
      `${entry.step.padEnd(30)} ${String(entry.seconds).padStart(6)} s  /healthz p50 ${entry.healthz_p50_ms} ms, p99 ${entry.healthz_p99_ms} ms, ` +
        `max ${entry.healthz_max_ms} ms (${entry.healthz_answers} answers)  ` +
        `RSS ${entry.rss_at_start_mb} MB at start, peak ${entry.rss_peak_mb} MB\n  ${entry.message}`,
    );
  };
  report(await receiveInChild());
  report(await measure("Process Ship Responses", () => processShipResponses(), healthz.url));
  const files = await prisma.transmission.findMany({ where: { direction: "in" }, select: { file_name: true, status: true, error: true } });
  for (const file of files) console.log(`  ${file.file_name}: ${file.status}${file.error ? `: ${file.error.slice(0, 160)}` : ""}`);
  const summary = { at: new Date().toISOString(), csv_bytes: CSV_BYTES, lines: LINES, cpus: os.cpus().length, start_rss_mb: startRss, results };
  writeFileSync(RESULTS, `${JSON.stringify({ ...summary, load_average: os.loadavg().map((n) => +n.toFixed(2)) }, null, 2)}\n`);
  healthz.close();
  outside.stop();
  await prisma.$disconnect();
} finally {
  rmSync(root, { recursive: true, force: true });
  await database.dispose();
}
process.exit(0);
