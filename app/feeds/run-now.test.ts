// Run Feed in this process (what POST /api/feed_run calls), with jobs of the
// test's own: the answers and logs of a failure, an overlap and a long run,
// and shutdown marking a run that does not stop as failed. Feed names start
// with t_runnow_ (the database is shared with the other test files).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { MANUAL_RUN_SHUTDOWN_REASON, manualRuns, stopManualFeedRuns } from "./manual-runs.server";
import { runFeedNow } from "./run-now.server";
import { closeFeedPool, type FeedJob } from "./runner.server";

const PREFIX = "t_runnow_";
let t: Translate;

async function cleanUp() {
  await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
  await prisma.feed.deleteMany({ where: { name: { startsWith: PREFIX } } });
}

beforeAll(async () => {
  t = await i18nServer.getFixedT("en", "common");
  await cleanUp();
});
afterAll(async () => {
  await cleanUp();
  await closeFeedPool();
});

async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const logsOf = (feedName: string) => prisma.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });
const feedRow = (name: string) => prisma.feed.create({ data: { name, cron_expression: "0 0 * * *" } });
const runNow = (name: string, run: FeedJob, waitMs?: number) =>
  runFeedNow(new URLSearchParams({ feed_name: name }), t, { jobs: { [name]: { defaultCron: "0 0 * * *", run } }, waitMs });

describe("runFeedNow", () => {
  it("answers the spec's error text when the job throws, and its failed log carries the error and a stack summary", async () => {
    const name = `${PREFIX}throws`;
    await feedRow(name);
    const answer = await runNow(name, async () => {
      throw new Error("AS400 answered 421 Service not available");
    });
    expect(answer).toMatchObject({
      error: true,
      message: `Something went wrong running the ${name} feed`,
      status: "failed",
      detail: "AS400 answered 421 Service not available",
    });
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    const meta = logs[1]!.meta as Record<string, string>;
    expect(meta.error).toBe("AS400 answered 421 Service not available");
    expect(meta.stack).toMatch(/^Error: AS400 answered 421 Service not available\n\s+at /);
    expect(answer.log_id).toBe(logs[1]!.id);
  });

  it("skips a second Run Feed while the first still runs, and the first finishes", async () => {
    const name = `${PREFIX}overlap`;
    await feedRow(name);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = runNow(name, async () => {
      started();
      await held;
      return { message: "first done" };
    });
    await running;
    const second = await runNow(name, async () => ({ message: "must not run" }));
    expect(second).toMatchObject({ error: true, status: "skipped", message: `Something went wrong running the ${name} feed` });
    release();
    expect(await first).toMatchObject({ error: false, status: "finished", message: "Feed ran successfully", detail: "first done" });
    expect((await logsOf(name)).map((log) => log.type)).toEqual(["starting", "skipped", "finished"]);
  });

  it("answers that a long run is still running, records its progress, and shutdown ends it as failed after the grace", async () => {
    const name = `${PREFIX}long`;
    await feedRow(name);
    const answer = await runNow(
      name,
      async ({ progress }) => {
        await progress({ step: "download", done: 3, total: 10 });
        return new Promise(() => {}); // never ends, ignores the abort
      },
      200,
    );
    expect(answer).toEqual({ error: false, message: `The ${name} feed is still running: its logs will show how it ends.`, status: "running" });
    expect(manualRuns.size).toBe(1);
    // The progress lands on the starting log while the run goes on.
    await until(
      () => prisma.feedLog.findFirst({ where: { feed_name: name, type: "starting" } }),
      (log) => (log?.meta as Record<string, unknown> | undefined)?.step === "download",
      "the progress on the starting log",
    );
    const starting = await prisma.feedLog.findFirstOrThrow({ where: { feed_name: name, type: "starting" } });
    expect(starting.meta).toMatchObject({ trigger: "manual", step: "download", done: 3, total: 10 });

    await stopManualFeedRuns(300);
    expect(manualRuns.size).toBe(0);
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(logs[1]!.meta).toMatchObject({ error: MANUAL_RUN_SHUTDOWN_REASON, started_log_id: logs[0]!.id });
    expect((await prisma.feed.findUniqueOrThrow({ where: { name } })).last_failed_at).not.toBeNull();
  });

  it("lets a run that stops when asked end on its own at shutdown", async () => {
    const name = `${PREFIX}polite`;
    await feedRow(name);
    await runNow(
      name,
      ({ signal }) =>
        new Promise((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason);
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
      50,
    );
    await stopManualFeedRuns(10_000);
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(logs[1]!.meta).toMatchObject({ error: "interrupted: the app is stopping" });
  });
});
