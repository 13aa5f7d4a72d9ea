// `npm run bench:vitals` (issue 31 item 4): what staff feel in the browser.
// Starts the built app in local mode with the demo data, as the e2e suite's
// "local" project does (or measures the app at BENCH_URL), and drives Debian's
// Chromium through every page of both specs and the interactions of item 3,
// at 1× and 4× CPU throttling, BENCH_RUNS (≥ 3) times. A benchmark, not a
// test: it asserts nothing and is not part of `npm test`.
//
//   npm run build && npm run bench:vitals -- [--label=before] [--only=logs] [--runs=5]
//   BENCH_URL=http://127.0.0.1:3000 [BENCH_DATABASE_URL=postgres://…] npm run bench:vitals
//
// Prints progress on stderr and one line `VITALS {json}` on stdout; rewrites the
// --label's table in docs/performance.md (not with --only, a partial run).
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import playwrightConfig from "../../playwright.config";
import { startAppServer, type RunningApp } from "../../tests/support/app-server";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { forgetShopifyAndAs400 } from "../support/bench-env";
import { arm, installObservers, type Armed, type PageRecord } from "./in-page";
import { INTERACTIONS, type Interaction } from "./interactions";
import { cumulativeLayoutShift, summarize, totalBlockingTime, worstInteraction } from "./metrics";
import { benchPages, type BenchPage } from "./pages";
import { GOALS, markdownBlock, missesOf, rewriteSection, type InteractionResult, type PageResult, type VitalsResult } from "./report";

const THROTTLES = [1, 4] as const;
const VIEWPORT = { width: 1440, height: 900 };
const DOCS = "docs/performance.md";

const argument = (name: string) => process.argv.find((each) => each.startsWith(`--${name}=`))?.slice(name.length + 3);
const label = argument("label") ?? "latest";
const only = argument("only");
const runs = Number(argument("runs") ?? process.env.BENCH_RUNS ?? 3);
if (!Number.isInteger(runs) || runs < 1 || (runs < 3 && !only)) {
  console.error("bench:vitals: --runs (BENCH_RUNS) must be 3 or more: the figures are medians and p75s (fewer only with --only, while developing)");
  process.exit(2);
}
const log = (message: string) => console.error(`[vitals] ${message}`);

// --- the app ---------------------------------------------------------------------

interface Target {
  url: string;
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

async function startTarget(): Promise<Target> {
  if (process.env.BENCH_URL) {
    log(`measuring the app already running at ${process.env.BENCH_URL}`);
    return { url: process.env.BENCH_URL.replace(/\/$/, ""), databaseUrl: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  }
  // startAppServer runs server/main.ts on the Remix build: without one there is nothing to measure.
  if (!existsSync("build/server/index.js") || !existsSync("build/client")) {
    console.error("bench:vitals measures the built app, and build/ is missing: run `npm run build` first (or set BENCH_URL to a running app).");
    process.exit(2);
  }
  forgetShopifyAndAs400(); // local mode
  log("starting the built app in local mode with the demo data (a database of its own)…");
  const database: TestDatabase = await createTestDatabase("vitals");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "vitals-data-"));
  let app: RunningApp;
  try {
    app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1", DEMO_VENDOR: "1", DATA_DIR: dataDir, SCHEDULER: "0" });
  } catch (error) {
    await database.dispose();
    throw error;
  }
  log(`app at ${app.url}`);
  return {
    url: app.url,
    databaseUrl: database.url,
    async stop() {
      await app.stop();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// --- one page load -------------------------------------------------------------------

/** A fresh context (cold cache), throttled, with the observers in place before the app's first script. */
async function openContext(browser: Browser, throttle: number): Promise<{ context: BrowserContext; page: Page; bytes: () => number }> {
  const context = await browser.newContext({ viewport: VIEWPORT, userAgent: playwrightConfig.use?.userAgent });
  // tsx compiles this file with esbuild's keepNames, which wraps named functions in __name(…):
  // the functions sent to the page need that helper there too.
  await context.addInitScript({ content: "globalThis.__name = globalThis.__name || ((target) => target);" });
  await context.addInitScript(installObservers);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: throttle });
  await cdp.send("Network.enable");
  let bytes = 0;
  cdp.on("Network.loadingFinished", (event) => (bytes += event.encodedDataLength));
  return { context, page, bytes: () => bytes };
}

/** Quiet: no request for 500 ms, hydrated (root.tsx sets the marker), then 1 s more for late work. */
async function untilQuiet(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.locator("html[data-hydrated=true]").waitFor({ state: "attached" });
  await page.waitForTimeout(1000);
}

interface LoadRun {
  lcp: number | null;
  cls: number;
  tbt: number;
  bytes: number;
}

async function measureLoad(browser: Browser, url: string, throttle: number): Promise<LoadRun> {
  const { context, page, bytes } = await openContext(browser, throttle);
  try {
    const response = await page.goto(url);
    if (!response?.ok()) throw new Error(`${url} answered ${response?.status()}`);
    await untilQuiet(page);
    const { record, now } = await page.evaluate(() => ({ record: window.__vitals, now: performance.now() }));
    return { lcp: record.lcp, cls: cumulativeLayoutShift(record.shifts), tbt: totalBlockingTime(record.longTasks, record.fcp, now), bytes: bytes() };
  } finally {
    await context.close();
  }
}

// --- one interaction -------------------------------------------------------------------

interface InteractionRun {
  inp: number;
  toResult: number;
}

async function measureInteraction(browser: Browser, baseUrl: string, interaction: Interaction, throttle: number): Promise<InteractionRun> {
  const { context, page } = await openContext(browser, throttle);
  try {
    await page.goto(baseUrl + interaction.path);
    await untilQuiet(page);
    if (interaction.prepare) {
      await interaction.prepare(page);
      await page.waitForTimeout(500);
    }
    const since = await page.evaluate(() => performance.now());
    await page.evaluate(arm, interaction.watch);
    await interaction.act(page);
    // The page's own clock from input to result; a full reload would lose __armed (then it throws).
    await page.waitForFunction(
      () => {
        if (!window.__armed) throw new Error("the page was reloaded: the interaction left the document");
        return window.__armed.doneAt !== null;
      },
      undefined,
      { timeout: 10_000 + 5_000 * throttle, polling: 50 },
    );
    // Event Timing entries arrive after the frame that follows the handlers: let a few frames pass.
    await page.waitForTimeout(300 * throttle);
    const { armed, record } = await page.evaluate(() => ({ armed: window.__armed as Armed, record: window.__vitals as PageRecord }));
    if (armed.inputAt === null || armed.doneAt === null) throw new Error("no input event seen");
    // No entry over the 16 ms threshold: the interaction took at most 16 ms.
    return { inp: worstInteraction(record.events, since) ?? 16, toResult: armed.doneAt - armed.inputAt };
  } finally {
    await context.close();
  }
}

// --- the runs -----------------------------------------------------------------------------

function gitCommit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

async function main() {
  const loadAtStart = os.loadavg();
  const target = await startTarget();
  let browser: Browser | undefined;
  try {
    const { pages: allPages, skipped } = await benchPages(target.databaseUrl);
    if (skipped.length) log(`no database to look ids up in (BENCH_DATABASE_URL): left out ${skipped.join(", ")}`);
    const pages: BenchPage[] = allPages.filter((page) => !only || page.label.includes(only));
    const interactions = INTERACTIONS.filter((each) => !only || each.name.includes(only) || each.path.includes(only));
    browser = await chromium.launch({ ...playwrightConfig.use?.launchOptions, executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });

    const loads = new Map<string, LoadRun[]>(); // `${label} ${throttle}`
    const clicks = new Map<string, InteractionRun[]>();
    const errors: string[] = [];
    const push = <T>(map: Map<string, T[]>, key: string, value: T) => map.set(key, [...(map.get(key) ?? []), value]);
    const started = Date.now();
    // Run by run over everything, so that a busy moment of the machine spreads over all figures.
    for (let run = 1; run <= runs; run++) {
      for (const page of pages) {
        for (const throttle of THROTTLES) {
          try {
            const result = await measureLoad(browser, target.url + page.path, throttle);
            push(loads, `${page.label} ${throttle}`, result);
            log(
              `run ${run}/${runs} ${page.label} ${throttle}×: ` +
                `LCP ${Math.round(result.lcp ?? NaN)} ms, CLS ${result.cls.toFixed(3)}, TBT ${Math.round(result.tbt)} ms`,
            );
          } catch (error) {
            errors.push(`run ${run}, ${page.label} at ${throttle}×: ${(error as Error).message.split("\n")[0]}`);
            log(`run ${run}/${runs} ${page.label} ${throttle}×: FAILED ${(error as Error).message.split("\n")[0]}`);
          }
        }
      }
      for (const interaction of interactions) {
        for (const throttle of THROTTLES) {
          try {
            const result = await measureInteraction(browser, target.url, interaction, throttle);
            push(clicks, `${interaction.name} ${throttle}`, result);
            log(
              `run ${run}/${runs} ${interaction.name} ${throttle}×: ` +
                `INP ${Math.round(result.inp)} ms, to ${interaction.result} ${Math.round(result.toResult)} ms`,
            );
          } catch (error) {
            errors.push(`run ${run}, ${interaction.name} at ${throttle}×: ${(error as Error).message.split("\n")[0]}`);
            log(`run ${run}/${runs} ${interaction.name} ${throttle}×: FAILED ${(error as Error).message.split("\n")[0]}`);
          }
        }
      }
    }
    log(`measured in ${Math.round((Date.now() - started) / 1000)} s`);

    const pageResults: PageResult[] = pages.flatMap((page) =>
      THROTTLES.map((throttle) => {
        const each = loads.get(`${page.label} ${throttle}`) ?? [];
        return {
          path: page.label,
          throttle,
          lcp: summarize(each.map((run) => run.lcp)),
          cls: summarize(each.map((run) => run.cls)),
          tbt: summarize(each.map((run) => run.tbt)),
          bytes: summarize(each.map((run) => run.bytes)),
        };
      }),
    );
    const interactionResults = interactions.flatMap((interaction) =>
      THROTTLES.map((throttle) => {
        const each = clicks.get(`${interaction.name} ${throttle}`) ?? [];
        return {
          name: interaction.name,
          throttle,
          result: interaction.result,
          inp: summarize(each.map((run) => run.inp)),
          clickToRows: summarize(each.map((run) => run.toResult)),
          rowsGoal: interaction.rowsGoal,
          inpGoal: interaction.inpGoal,
        };
      }),
    );
    const misses = missesOf(pageResults, interactionResults);
    const cpus = os.cpus();
    const result: VitalsResult = {
      label,
      date: new Date().toISOString().slice(0, 16).replace("T", " ") + " UTC",
      commit: gitCommit(),
      url: target.url,
      machine: { cpu: cpus[0]?.model.trim() ?? "unknown", cpus: cpus.length, memoryGiB: Math.round(os.totalmem() / 2 ** 30) },
      load: { start: loadAtStart, end: os.loadavg() },
      runs,
      pages: pageResults,
      interactions: interactionResults.map(({ rowsGoal: _rows, inpGoal: _inp, ...rest }): InteractionResult => rest),
      goals: GOALS,
      withinGoals: misses.length === 0 && errors.length === 0,
      misses,
      errors,
    };
    process.stdout.write(`VITALS ${JSON.stringify(result)}\n`);
    if (only) log(`--only: ${DOCS} left as it is (a partial run)`);
    else {
      rewriteSection(DOCS, label, markdownBlock(result));
      log(`${DOCS}: the "${label}" table rewritten`);
    }
  } finally {
    await browser?.close();
    await target.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
