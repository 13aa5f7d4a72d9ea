// `npm run bench:freshness [-- --minutes=12 --label=after --mode=watch|crons --vendors=3]`:
// how fresh the drop-ship flow is (issue 31 item 5, D254). Not part of `npm test`.
// A database of its own, loopback SFTP vendors, the Shopify stand-in and the real
// scheduler (jobs/scheduler.ts with the registry's drop-ship feeds: the five steps and
// the minute watch) on their default crons and the real clock, for N minutes. During
// the first two thirds, new drop-ship assignments arrive at random moments; the bench,
// playing the vendors, notes when each 850 appears on a vendor's server, reads it, and
// at a random moment later drops its answers (997, 855, 856) onto the vendor's server;
// the POs sent before the scheduler starts (--sent-pos per vendor, setup) have their
// answers dropped at random moments of the same window.
// It reports, for both, p50/p95/max and counts: new assignment → its 850 on the
// vendor's server, and 856 landed → its fulfilment created at the stand-in (the
// response marked fulfilled once Shopify answered). What has not arrived by the end
// is counted as "not arrived" with the shortest time one of them had, never dropped;
// a p95 that falls on one is shown as "> that time".
// --mode=crons: the watch disabled and no chaining, the steps on their crons alone
// (the "before"). Prints one line `FRESHNESS {json}`; keeps each label's figures in
// bench/freshness/results.json and writes them as a table into docs/performance.md
// between <!-- freshness:start --> and <!-- freshness:end -->.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Vendor } from "../../app/db/generated/client";
import { createTestDatabase } from "../../tests/support/test-database";
import { forgetShopifyAndAs400 } from "../support/bench-env";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const PERFORMANCE = fileURLToPath(new URL("../../docs/performance.md", import.meta.url));
const PASSWORD = "Fresh-Pa55word";
const START = "<!-- freshness:start -->";
const END = "<!-- freshness:end -->";
const SECTION = "## Freshness: vendor answers in Shopify (`npm run bench:freshness`)";

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "12" },
    label: { type: "string", default: "after" },
    mode: { type: "string", default: "watch" },
    vendors: { type: "string", default: "3" },
    "mean-gap": { type: "string", default: "30" },
    "sent-pos": { type: "string", default: "8" },
    "table-only": { type: "boolean", default: false },
  },
});
const MINUTES = Number(args.minutes);
const VENDORS = Number(args.vendors);
const MEAN_GAP_S = Number(args["mean-gap"]);
const SENT_POS = Number(args["sent-pos"]);
const MODE = args.mode as "watch" | "crons";
const LABEL = args.label!;
if (!(MINUTES >= 2) || !Number.isInteger(VENDORS) || VENDORS < 1 || VENDORS > 60 || !(MEAN_GAP_S > 0) || !["watch", "crons"].includes(MODE))
  throw new Error("--minutes ≥ 2, 1 ≤ --vendors ≤ 60, --mean-gap > 0 (seconds), --mode watch|crons");
if (!/^[\w-]{1,40}$/.test(LABEL)) throw new Error("--label: letters, digits, - and _");

// --table-only: the table in docs/performance.md written again from results.json, nothing measured.
if (args["table-only"]) {
  writeTable(Object.values(JSON.parse(readFileSync(RESULTS, "utf8"))));
  process.exit(0);
}

const database = await createTestDatabase("bench_freshness");
forgetShopifyAndAs400();
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET_KEY = Buffer.alloc(32, 31).toString("base64");
process.env.OUTBOUND_ALLOW = "loopback";
process.env.LOG_LEVEL ??= "warn";
const root = mkdtempSync(path.join(os.tmpdir(), "bench-freshness-"));

/** Exponential gaps: arrivals at random moments, `mean` seconds apart on average. */
const gapMs = (mean: number) => -Math.log(1 - Math.random()) * mean * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Timing {
  /** When the thing started waiting (ms since epoch). */
  from: number;
  /** When it arrived, or null. */
  at: number | null;
}

function summary(timings: Timing[], end: number) {
  const waits = timings.filter((t) => t.at !== null).map((t) => (t.at! - t.from) / 1000);
  const missing = timings.filter((t) => t.at === null).map((t) => (end - t.from) / 1000);
  // Not arrived counts as longer than anything arrived: a percentile that falls on one is "> its shortest wait".
  const sorted = [...waits].sort((a, b) => a - b);
  const all = [...sorted, ...missing.map(() => Number.POSITIVE_INFINITY)];
  const shortestMissing = missing.length ? Math.min(...missing) : null;
  const at = (p: number): number | string | null => {
    if (all.length === 0) return null;
    const value = all[Math.min(all.length - 1, Math.ceil((p / 100) * all.length) - 1)]!;
    return Number.isFinite(value) ? Math.round(value * 10) / 10 : `> ${Math.round(shortestMissing!)}`;
  };
  return {
    count: timings.length,
    arrived: waits.length,
    not_arrived: missing.length,
    not_arrived_shortest_wait_s: shortestMissing === null ? null : Math.round(shortestMissing),
    p50_s: at(50),
    p95_s: at(95),
    max_s: missing.length ? `> ${Math.round(Math.max(...missing))}` : sorted.length ? Math.round(sorted[sorted.length - 1]! * 10) / 10 : null,
  };
}

try {
  const { default: prisma } = await import("../../app/db.server");
  const { startSftpServer } = await import("@edi/transport/loopback");
  const { startShopifyStandIn } = await import("../../app/shopify/stand-in.server");
  const { databaseCatalog } = await import("../../app/shopify/stand-in-catalog.server");
  const { encryptSecret, vendorPasswordBinding } = await import("../../app/lib/secrets.server");
  const { populateShipRequests, purchaseOrderNumber } = await import("../../app/dropship/flow/populate-requests.server");
  const { sendShipRequests } = await import("../../app/dropship/flow/send-requests.server");
  const { DROPSHIP_STEPS } = await import("../../app/dropship/flow/steps.server");
  const { DROPSHIP_WATCH_FEED } = await import("../../app/dropship/flow/watch.server");
  const { FEED_JOBS } = await import("../../jobs/registry");
  const { startScheduler } = await import("../../jobs/scheduler");
  const { createPendingAssignment } = await import("../../tests/support/pending-assignment");
  const { answerPurchaseOrders, dropAnswers, serverFolder } = await import("../../tests/support/vendor-answers");

  const sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  const standIn = await startShopifyStandIn({ catalog: databaseCatalog(prisma) });
  process.env.SHOPIFY_STAND_IN_URL = standIn.url;

  const vendors: Vendor[] = [];
  for (let i = 1; i <= VENDORS; i++) {
    const storeId = `FRESH${String(i).padStart(2, "0")}`;
    const folder = storeId.toLowerCase();
    for (const sub of ["inbound", "outbound"]) mkdirSync(path.join(root, folder, sub), { recursive: true });
    await prisma.inventorySource.create({ data: { source_code: storeId, name: `Fresh Vendor ${i}`, type: "dropshipper" } });
    const vendor = await prisma.vendor.create({
      data: {
        name: `Fresh Vendor ${i}`,
        store_id: storeId,
        enabled: 1,
        transfer_mechanism_id: 1,
        sftp_host: "127.0.0.1",
        sftp_port: sftp.port,
        sftp_user: "vendor",
        sftp_host_key: sftp.hostKey,
        sftp_incoming_folder: `/${folder}/outbound`,
        sftp_outcoming_folder: `/${folder}/inbound`,
        is_archiving_files: 1,
        edi_format: 1,
        edi_identifier: `${storeId}EDI`,
        edi_qualifier: "ZZ",
        regex_format: "\\.edi$",
        edi997_enabled: 1,
      },
    });
    vendors.push(await prisma.vendor.update({ where: { id: vendor.id }, data: { sftp_pass: encryptSecret(PASSWORD, vendorPasswordBinding(vendor.id)) } }));
  }

  // Setup, not measured: POs already sent to each vendor (--sent-pos each), whose answers land at random moments.
  let nextOrder = 0;
  const newAssignment = async (vendor: Vendor) => {
    nextOrder++;
    return createPendingAssignment(prisma, {
      orderId: `8800${String(nextOrder).padStart(5, "0")}`,
      shopifyOrderId: String(8800000 + nextOrder),
      sku: `FRESH-${nextOrder}`,
      qty: 1,
      storeId: vendor.store_id,
      vendorName: vendor.name,
    });
  };
  // One 850 per vendor and round, so that each PO's answers land at a moment of their own.
  for (let i = 0; i < SENT_POS; i++) {
    for (const vendor of vendors) await newAssignment(vendor);
    await populateShipRequests();
    await sendShipRequests();
  }

  // The registry's drop-ship feeds, on their default crons. Before (crons): the watch's row disabled, no chaining.
  const feeds = [...Object.values(DROPSHIP_STEPS).map((step) => step.feed), DROPSHIP_WATCH_FEED.name];
  const jobs = Object.fromEntries(
    feeds.map((name) => {
      const job = FEED_JOBS[name]!;
      return [name, MODE === "crons" ? { defaultCron: job.defaultCron, run: job.run, whenBusy: job.whenBusy } : job];
    }),
  );
  if (MODE === "crons") await prisma.feed.create({ data: { name: DROPSHIP_WATCH_FEED.name, cron_expression: DROPSHIP_WATCH_FEED.defaultCron, enabled: 0 } });
  const scheduler = await startScheduler({ jobs, listenUrl: null });

  const began = Date.now();
  const generateUntil = began + (MINUTES * 60_000 * 2) / 3;
  const endAt = began + MINUTES * 60_000;
  const requests = new Map<string, Timing>(); // PO → assignment created … 850 on the server
  const answers = new Map<string, Timing>(); // PO → 856 landed … fulfilled
  const timers = new Set<NodeJS.Timeout>();
  let controlNumber = 1000;
  /** The vendor reads its new POs now, and their answers land on its server at `dropAt` (none after the events' window). */
  const answerLater = (vendor: Vendor, files: string[], dropAt: (now: number) => number) => {
    const now = Date.now();
    const read = answerPurchaseOrders(root, vendor, { controlNumberStart: controlNumber, files });
    for (const answer of read) {
      controlNumber += 50;
      const at = dropAt(now);
      if (at >= generateUntil) continue;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          dropAnswers(root, vendor, answer);
          for (const po of answer.purchaseOrders) answers.set(po, { from: Date.now(), at: null });
        },
        Math.max(0, at - now),
      );
      timers.add(timer);
    }
    return read;
  };
  for (const vendor of vendors) {
    const folder = serverFolder(root, vendor.sftp_outcoming_folder!);
    answerLater(
      vendor,
      readdirSync(folder).filter((name) => /^850_.*\.edi$/.test(name)),
      () => began + Math.random() * (generateUntil - began),
    );
  }
  console.log(`bench:freshness ${LABEL}: mode ${MODE}, ${VENDORS} vendor(s), ${MINUTES} min (events in the first ${Math.round((MINUTES * 2) / 3)} min)`);

  // New assignments at random moments.
  const arrivals = (async () => {
    for (;;) {
      await sleep(gapMs(MEAN_GAP_S));
      if (Date.now() >= generateUntil) return;
      const vendor = vendors[Math.floor(Math.random() * vendors.length)]!;
      const assignment = await newAssignment(vendor);
      requests.set(purchaseOrderNumber({ id: assignment.id, order_increment_id: assignment.order_increment_id, purchase_order: null }), {
        from: Date.now(),
        at: null,
      });
    }
  })();

  // The vendors: an 850 is noted when it appears, read at once, and answered at a random moment later.
  const watchServers = (async () => {
    while (Date.now() < endAt) {
      for (const vendor of vendors) {
        const folder = serverFolder(root, vendor.sftp_outcoming_folder!);
        const files = existsSync(folder) ? readdirSync(folder).filter((name) => /^850_.*\.edi$/.test(name)) : [];
        if (files.length === 0) continue;
        const seenAt = Date.now();
        for (const answer of answerLater(vendor, files, (now) => now + Math.random() * 120_000)) {
          for (const po of answer.purchaseOrders) {
            const timing = requests.get(po);
            if (timing && timing.at === null) timing.at = seenAt;
          }
        }
      }
      await sleep(250);
    }
  })();

  // Fulfilments: the response marked fulfilled once Shopify created it (its processed_at, the database's clock).
  const watchFulfilments = (async () => {
    while (Date.now() < endAt) {
      const waiting = [...answers.entries()].filter(([, timing]) => timing.at === null).map(([po]) => po);
      if (waiting.length) {
        const rows = await prisma.$queryRaw<Array<{ po_number: string; at: Date }>>`
          SELECT po_number, min(processed_at) AS at FROM dropship_response
           WHERE status = 'fulfilled' AND po_number = ANY(${waiting}::text[]) AND processed_at IS NOT NULL GROUP BY po_number`;
        for (const row of rows) answers.get(row.po_number)!.at = row.at.getTime();
      }
      await sleep(500);
    }
  })();

  await Promise.all([arrivals, watchServers, watchFulfilments]);
  for (const timer of timers) clearTimeout(timer);
  const end = Date.now();
  const load = os.loadavg().map((value) => Math.round(value * 100) / 100);
  const fulfilments = ((await (await fetch(`${standIn.url}/__calls`)).json()) as Array<{ operation: string }>).filter(
    (call) => call.operation === "FulfillmentCreate",
  ).length;
  await scheduler.stop(10_000);
  const feedRuns = await prisma.$queryRaw<Array<{ feed_name: string; trigger: string | null; runs: bigint }>>`
    SELECT feed_name, meta->>'trigger' AS trigger, count(*) AS runs FROM feed_log WHERE type = 'starting' GROUP BY 1, 2 ORDER BY 1, 2`;
  const skipped = await prisma.feedLog.count({ where: { type: "skipped" } });
  await standIn.stop();
  await sftp.stop();
  await prisma.$disconnect();

  const result = {
    label: LABEL,
    mode: MODE,
    minutes: MINUTES,
    vendors: VENDORS,
    assignment_to_850: summary([...requests.values()], end),
    landed_856_to_fulfilment: summary([...answers.values()], end),
    fulfilments_at_stand_in: fulfilments,
    feed_runs: Object.fromEntries(feedRuns.map((row) => [`${row.feed_name}/${row.trigger ?? "?"}`, Number(row.runs)])),
    skipped_logs: skipped,
    loadavg: load,
    cpus: os.cpus().length,
    node: process.version,
    measured_at: new Date().toISOString().slice(0, 16).replace("T", " "),
  };
  console.log(`FRESHNESS ${JSON.stringify(result)}`);

  const all = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, typeof result>) : {};
  all[LABEL] = result;
  writeFileSync(RESULTS, `${JSON.stringify(all, null, 2)}\n`);
  writeTable(Object.values(all));
} finally {
  rmSync(root, { recursive: true, force: true });
  await database.dispose();
}

function writeTable(
  results: Array<Record<string, unknown> & { assignment_to_850: ReturnType<typeof summary>; landed_856_to_fulfilment: ReturnType<typeof summary> }>,
) {
  const missing = (s: ReturnType<typeof summary>) => (s.not_arrived ? `${s.not_arrived}, not arrived within ${s.not_arrived_shortest_wait_s} s` : "0");
  const cell = (s: ReturnType<typeof summary>) => [s.count, s.p50_s ?? "–", s.p95_s ?? "–", s.max_s ?? "–", missing(s)];
  const columns = ["label", "mode", "minutes", "vendors"];
  const measures = ["n", "p50 s", "p95 s", "max s", "not arrived"];
  const header = [...columns, ...measures.map((m) => `assignment → 850: ${m}`), ...measures.map((m) => `856 → fulfilment: ${m}`), "load 1/5/15", "measured"];
  const row = (cells: unknown[]) => `| ${cells.join(" | ")} |`;
  const lines = [
    START,
    "Each row is one run of `npm run bench:freshness` (its `--label`), real scheduler and clock, default crons and settings; `crons` is the behaviour",
    "before the minute watch and the chains (D254). n: events; *not arrived*: still waiting when the run ended, counted with the shortest time",
    "one of them had waited; a percentile that falls on one shows as `> s`. Load: `os.loadavg()` at the end of the run, 2 cores.",
    "",
    row(header),
    row(header.map(() => "---")),
    ...results.map((r) =>
      row([
        r.label,
        r.mode,
        r.minutes,
        r.vendors,
        ...cell(r.assignment_to_850),
        ...cell(r.landed_856_to_fulfilment),
        (r.loadavg as number[]).join(" / "),
        r.measured_at,
      ]),
    ),
    END,
  ].join("\n");
  let text = readFileSync(PERFORMANCE, "utf8");
  if (!text.includes(START)) text = `${text.trimEnd()}\n\n${SECTION}\n\n${START}\n${END}\n`;
  const from = text.indexOf(START);
  const to = text.indexOf(END) + END.length;
  writeFileSync(PERFORMANCE, text.slice(0, from) + lines + text.slice(to));
}
