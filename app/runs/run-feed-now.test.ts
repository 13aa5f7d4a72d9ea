// Run Feed in this process (what POST /api/feed_run calls), with jobs of the
// test's own, as a background run (D93): the answer at once, the progress and
// the end read back as a page reads them, a second start refused while the
// first runs, and shutdown ending a run that does not stop. Feed names start
// with t_runnow_ (the database is shared with the other test files).
import { beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { readRun, type RunView } from "./runs.server";
import { MANUAL_RUN_SHUTDOWN_REASON, manualRuns, stopManualFeedRuns } from "~/feeds/manual-runs.server";
import { runFeedNow } from "./run-feed-now.server";
import { startRunAnswer } from "./start-answer.server";
import type { FeedJob } from "~/feeds/runner.server";
import { cleanUpTestFeeds } from "../../tests/support/test-feeds";
import { until } from "../../tests/support/until";

const PREFIX = "t_runnow_";
let t: Translate;
let de: Translate;

cleanUpTestFeeds(PREFIX);

beforeAll(async () => {
  t = await i18nServer.getFixedT("en", "common");
  de = await i18nServer.getFixedT("de", "common");
});

const logsOf = (feedName: string) => prisma.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });
const feedRow = (name: string) => prisma.feed.create({ data: { name, cron_expression: "0 0 * * *" } });

/** The run ended in error with the spec's text and this detail, and the feed's log says starting, then failed: its rows. */
async function expectFailed(run: unknown, name: string, status: string, detail: string) {
  expect(run).toMatchObject({ status, error: true, message: `Something went wrong running the ${name} feed`, detail });
  const logs = await logsOf(name);
  expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
  return logs;
}

interface StartBody {
  error: boolean;
  status: string;
  run_id: number | null;
  message: string;
  run: RunView | null;
}

async function runNow(name: string, run: FeedJob, locale = "en") {
  // As POST /api/feed_run does: the run asked for, started for the request.
  const request = new Request(`http://app.test/api/feed_run?feed_name=${name}&locale=${locale}`, { method: "POST" });
  const next = await runFeedNow(request, { [name]: { defaultCron: "0 0 * * *", run } });
  if (!("run" in next)) throw new Error(`${name} is not runnable`);
  const response = await startRunAnswer(next.run, request, locale === "de" ? de : t);
  return { status: response.status, body: (await response.json()) as StartBody };
}

/** The run as GET /api/run/{id} reads it, once it has ended. */
const ended = (id: number, translate = t, language = "en") =>
  until(
    () => readRun(id, translate, language),
    (run) => run !== null && run.status !== "running",
    `the end of run ${id}`,
  ) as Promise<RunView>;

describe("Run Feed as a background run", () => {
  it("answers at once with the run, which shows its progress and ends with the spec's text", async () => {
    const name = `${PREFIX}progress`;
    await feedRow(name);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { status, body } = await runNow(name, async ({ progress }) => {
      await progress({ done: 3, total: 10, unit: "files", files_stored: 3 });
      await held;
      return { message: "10 files stored." };
    });
    expect(status).toBe(202);
    expect(body).toMatchObject({ error: false, status: "running", run: { status: "running", kind: "feed", action: name } });
    const id = body.run_id!;

    // The progress the job reports reaches the row any instance reads.
    const running = await until(
      () => readRun(id, t, "en"),
      (run) => run?.progress.done === 3,
      "the progress on the run",
    );
    expect(running).toMatchObject({ status: "running", error: null, message: null, progress: { done: 3, total: 10, unit: "files", files_stored: 3 } });

    release();
    expect(await ended(id)).toMatchObject({ status: "finished", error: false, message: "Feed ran successfully", detail: "10 files stored." });
    // The same run in German: the result text is stored as a code, rendered for the reader.
    expect(await readRun(id, de, "de")).toMatchObject({ message: "Feed erfolgreich ausgeführt" });
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "finished"]);
    expect((await readRun(id, t, "en"))!.data).toMatchObject({ feed_status: "finished", log_id: logs[1]!.id });
  });

  it("ends with the spec's error text and the job's error when the job throws", async () => {
    const name = `${PREFIX}throws`;
    await feedRow(name);
    const { body } = await runNow(name, async () => {
      throw new Error("AS400 answered 421 Service not available");
    });
    const logs = await expectFailed(await ended(body.run_id!), name, "finished", "AS400 answered 421 Service not available");
    expect((logs[1]!.meta as Record<string, string>).stack).toMatch(/^Error: AS400 answered 421 Service not available\n\s+at /);
  });

  it("refuses a second Run Feed while the first runs, naming the first, and starts nothing", async () => {
    const name = `${PREFIX}overlap`;
    await feedRow(name);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = await runNow(name, async () => {
      await held;
      return { message: "first done" };
    });
    let secondRan = false;
    const second = await runNow(
      name,
      async () => {
        secondRan = true;
        return { message: "must not run" };
      },
      "de",
    );
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      error: true,
      status: "already_running",
      run_id: first.body.run_id,
      message: `Der Feed ${name} läuft bereits: er wurde nicht noch einmal gestartet.`,
    });
    release();
    expect(await ended(first.body.run_id!)).toMatchObject({ error: false, detail: "first done" });
    expect(secondRan).toBe(false);
    expect(await prisma.backgroundRun.count({ where: { lock_key: `feed:${name}` } })).toBe(1);
    expect((await logsOf(name)).map((log) => log.type)).toEqual(["starting", "finished"]);
  });

  it("ends a run that ignores shutdown as interrupted after the grace, with a failed feed log", async () => {
    const name = `${PREFIX}long`;
    await feedRow(name);
    const { body } = await runNow(name, async ({ progress }) => {
      await progress({ step: "download", done: 3, total: 10 });
      return new Promise(() => {}); // never ends, ignores the abort
    });
    await until(
      () => readRun(body.run_id!, t, "en"),
      (run) => run?.progress.done === 3,
      "the progress",
    );
    expect(manualRuns.size).toBeGreaterThan(0);

    await stopManualFeedRuns(300);
    expect(manualRuns.size).toBe(0);
    const logs = await expectFailed(await readRun(body.run_id!, t, "en"), name, "interrupted", "Stopped by the app shutting down before it finished.");
    expect(logs[1]!.meta).toMatchObject({ error: MANUAL_RUN_SHUTDOWN_REASON, started_log_id: logs[0]!.id });
  });

  it("lets a run that stops when asked end on its own at shutdown, as interrupted", async () => {
    const name = `${PREFIX}polite`;
    await feedRow(name);
    const { body } = await runNow(
      name,
      ({ signal }) =>
        new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    await until(
      () => prisma.feedLog.count({ where: { feed_name: name, type: "starting" } }),
      (count) => count === 1,
      "the feed run's start",
    );
    await stopManualFeedRuns(10_000);
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(logs[1]!.meta).toMatchObject({ error: "interrupted: the app is stopping" });
    expect(await readRun(body.run_id!, t, "en")).toMatchObject({
      status: "interrupted",
      error: true,
      detail: "Interrupted before it finished: the app is stopping.",
    });
  });
});
