// The scheduler in this process: feed rows for the registry, every-second
// ticks through runFeed, invalid crons and changed rows, stop() with its grace.
// Feed names start with t_sched_ (the database is shared with other files).
import cron from "node-cron";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../app/db.server";
import { feedForm, updateFeed } from "../app/feeds/feeds.server";
import { closeFeedPool, runFeed, type FeedJob, type FeedRegistry, type FeedRunResult } from "../app/feeds/runner.server";
import { i18nServer } from "../app/i18n/i18n.server";
import { parseInput, renderFieldErrors, ValidationError } from "../app/lib/validation.server";
import { captureLogs } from "../tests/support/log-capture";
import { SHUTDOWN_REASON, startScheduler, type Scheduler } from "./scheduler";
import { until } from "../tests/support/until";

const PREFIX = "t_sched_";
const running: Scheduler[] = [];

async function cleanUp() {
  await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
  await prisma.feed.deleteMany({ where: { name: { startsWith: PREFIX } } });
}

async function start(jobs: FeedRegistry, options: { shutdownGraceMs?: number } = {}) {
  // Polling is left to reload() in these tests.
  const scheduler = await startScheduler({ jobs, reloadEveryMs: 600_000, ...options });
  running.push(scheduler);
  return scheduler;
}

const scheduledFeeds = () => [...cron.getTasks().values()].map((task) => task.name).filter((name) => name?.startsWith(`feed:${PREFIX}`));
const logsOf = (feedName: string) => prisma.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });

const quickJob: FeedJob = async () => ({ message: "ok" });

// What the scheduler logs (other files' feed rows have no job here: their warnings would be noise).
let logs: ReturnType<typeof captureLogs>;
beforeEach(() => {
  logs = captureLogs();
});

beforeAll(cleanUp);
afterEach(async () => {
  await Promise.all(running.splice(0).map((scheduler) => scheduler.stop()));
  logs.restore();
});
afterAll(async () => {
  await cleanUp();
  await closeFeedPool();
});

describe("startScheduler", () => {
  it("after a scheduled run, runs the job's then with its result (the next step of a chain, D250); a busy tick left quietly writes no log", async () => {
    const name = `${PREFIX}chained`;
    const followed: FeedRunResult[] = [];
    await start({
      [name]: {
        defaultCron: "* * * * * *",
        run: async () => ({ message: "did work", meta: { created: 1 } }),
        then: async (result) => void followed.push(result),
      },
    });
    await until(
      () => followed.length,
      (count) => count > 0,
      "a scheduled run and its follow-up",
    );
    expect(followed[0]).toMatchObject({ status: "finished", meta: { created: 1 } });

    const busy = `${PREFIX}busy_quiet`;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    await start({
      [busy]: {
        defaultCron: "* * * * * *",
        whenBusy: "skip_quietly",
        run: async () => {
          runs++;
          await held;
          return { message: "long" };
        },
      },
    });
    // Two more ticks come while the first run holds the lock.
    await until(
      async () => (await logsOf(busy)).length,
      (count) => count > 0,
      "the long run to start",
    );
    await new Promise((resolve) => setTimeout(resolve, 2200));
    release();
    expect(runs).toBe(1);
    await until(
      async () => (await logsOf(busy)).map((log) => log.type),
      (types) => types.includes("finished"),
      "the long run to finish",
    );
    expect((await logsOf(busy)).filter((log) => log.type === "skipped")).toEqual([]);
    // The next tests count this file's feed rows.
    await Promise.all(running.splice(0).map((scheduler) => scheduler.stop()));
    await cleanUp();
  });

  it("creates missing feed rows with the default cron, keeps an existing row's cron, and runs an every-second feed", async () => {
    await prisma.feed.create({ data: { name: `${PREFIX}kept`, cron_expression: "0 5 * * *" } });
    let runs = 0;
    await start({
      [`${PREFIX}tick`]: { defaultCron: "* * * * * *", run: async () => ({ message: `run ${++runs}` }) },
      [`${PREFIX}kept`]: { defaultCron: "0 0 * * *", run: quickJob },
    });

    const rows = await prisma.feed.findMany({ where: { name: { startsWith: PREFIX } }, orderBy: { name: "asc" } });
    expect(rows.map((row) => [row.name, row.cron_expression])).toEqual([
      [`${PREFIX}kept`, "0 5 * * *"],
      [`${PREFIX}tick`, "* * * * * *"],
    ]);
    expect(scheduledFeeds().sort()).toEqual([`feed:${PREFIX}kept`, `feed:${PREFIX}tick`]);

    const logs = await until(
      () => logsOf(`${PREFIX}tick`),
      (logs) => logs.some((log) => log.type === "finished"),
      "a scheduled run",
    );
    expect(logs[0]).toMatchObject({ type: "starting", meta: expect.objectContaining({ trigger: "schedule" }) });
    expect(runs).toBeGreaterThanOrEqual(1);
  });

  it("does not schedule a feed with an invalid cron, logs why once, and schedules it when the row is fixed", async () => {
    const name = `${PREFIX}badcron`;
    await prisma.feed.create({ data: { name, cron_expression: "61 * * * *" } });
    let runs = 0;
    const scheduler = await start({ [name]: { defaultCron: "0 0 * * *", run: async () => ({ message: `run ${++runs}` }) } });

    expect(scheduledFeeds()).not.toContain(`feed:${name}`);
    await scheduler.reload(); // unchanged row: no second log
    const failed = await logsOf(name);
    expect(failed.map((log) => log.type)).toEqual(["failed"]);
    expect((failed[0]!.meta as Record<string, string>).error).toContain("minute must be 0-59");
    expect((await prisma.feed.findUniqueOrThrow({ where: { name } })).last_failed_at).not.toBeNull();

    await prisma.feed.update({ where: { name }, data: { cron_expression: "* * * * * *" } });
    await scheduler.reload();
    expect(scheduledFeeds()).toContain(`feed:${name}`);
    await until(
      () => logsOf(name),
      (logs) => logs.some((log) => log.type === "finished"),
      "a run after the fix",
    );
    expect(runs).toBeGreaterThanOrEqual(1);
  });

  it("reschedules what changed on reload: a disabled feed stops, a new cron replaces the old one", async () => {
    const name = `${PREFIX}toggle`;
    const scheduler = await start({ [name]: { defaultCron: "0 0 * * *", run: quickJob } });
    const taskOf = () => [...cron.getTasks().values()].find((task) => task.name === `feed:${name}`);
    expect(taskOf()?.getPattern()).toBe("0 0 * * *");

    await prisma.feed.update({ where: { name }, data: { cron_expression: "30 2 * * *" } });
    await scheduler.reload();
    expect(taskOf()?.getPattern()).toBe("30 2 * * *");

    await prisma.feed.update({ where: { name }, data: { enabled: 0 } });
    await scheduler.reload();
    expect(taskOf()).toBeUndefined();

    await prisma.feed.update({ where: { name }, data: { enabled: 1 } });
    await scheduler.reload();
    expect(taskOf()?.getPattern()).toBe("30 2 * * *");
  });

  it("hears a cron saved through the app at once (NOTIFY on the database, so every instance does), without a poll", async () => {
    const name = `${PREFIX}notified`;
    // Two schedulers stand for two instances; neither polls within the test.
    await start({ [name]: { defaultCron: "0 0 * * *", run: quickJob } });
    await start({ [name]: { defaultCron: "0 0 * * *", run: quickJob } });
    const patterns = () => [...cron.getTasks().values()].filter((task) => task.name === `feed:${name}`).map((task) => task.getPattern());
    expect(patterns()).toEqual(["0 0 * * *", "0 0 * * *"]);

    const feed = await prisma.feed.findUniqueOrThrow({ where: { name } });
    await updateFeed(feed, parseInput(feedForm, { cron_expression: "45 4 * * *" }));
    await until(
      async () => patterns(),
      (found) => found.length === 2 && found.every((pattern) => pattern === "45 4 * * *"),
      "both schedulers to reschedule",
    );
  });

  it("refuses to save an invalid cron, saying what is wrong, and the schedule stays as it was", async () => {
    const name = `${PREFIX}refused`;
    const t = await i18nServer.getFixedT("en", "common");
    await start({ [name]: { defaultCron: "0 0 * * *", run: quickJob } });
    const feed = await prisma.feed.findUniqueOrThrow({ where: { name } });
    const error = await (async () => updateFeed(feed, parseInput(feedForm, { cron_expression: "0 25 * * *" })))().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect(renderFieldErrors(t, (error as ValidationError).errors).cron_expression).toEqual([
      'The cron expression is not valid: "0 25 * * *" is not a valid cron expression: hour must be 0-23 (got "25").',
    ]);
    expect((await prisma.feed.findUniqueOrThrow({ where: { name } })).cron_expression).toBe("0 0 * * *");
    expect([...cron.getTasks().values()].find((task) => task.name === `feed:${name}`)?.getPattern()).toBe("0 0 * * *");
  });

  it("warns once about a feed row that has no job, and does not schedule it", async () => {
    await prisma.feed.create({ data: { name: `${PREFIX}orphan`, cron_expression: "* * * * * *" } });
    const scheduler = await start({ [`${PREFIX}other`]: { defaultCron: "0 0 * * *", run: quickJob } });
    await scheduler.reload();
    const aboutOrphan = logs.lines.filter((line) => line.level === "warn" && line.component === "jobs" && String(line.msg).includes(`${PREFIX}orphan`));
    expect(aboutOrphan).toHaveLength(1);
    expect(scheduledFeeds()).not.toContain(`feed:${PREFIX}orphan`);
  });

  it("runs a feed now with trigger manual, and refuses a feed it has no job for", async () => {
    const name = `${PREFIX}manual`;
    const scheduler = await start({ [name]: { defaultCron: "0 0 * * *", run: async ({ trigger }) => ({ message: `by ${trigger}` }) } });
    expect(await scheduler.runNow(name)).toMatchObject({ status: "finished", message: "by manual", error: false });
    await expect(scheduler.runNow(`${PREFIX}unknown`)).rejects.toThrow(/no job/);
  });

  it("stop() waits for a running job to finish", async () => {
    const name = `${PREFIX}graceful`;
    let started!: () => void;
    const jobStarted = new Promise<void>((resolve) => (started = resolve));
    const scheduler = await start(
      {
        [name]: {
          defaultCron: "0 0 * * *",
          // Ignores the abort signal: stop() has to wait for it.
          run: async () => {
            started();
            await new Promise((resolve) => setTimeout(resolve, 500));
            return { message: "finished its work" };
          },
        },
      },
      { shutdownGraceMs: 20_000 },
    );
    const run = scheduler.runNow(name);
    await jobStarted;
    await scheduler.stop();

    // It was told to stop before it ended, so it counts as interrupted; what it said is kept (D67).
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(logs[1]!.meta).toMatchObject({ error: "interrupted: the scheduler is stopping", message: "finished its work" });
    expect(await run).toMatchObject({ status: "failed", message: "interrupted: the scheduler is stopping" });
  });

  it("stop() aborts running jobs, and marks one that outlives the grace as failed and frees its lock", async () => {
    const stuck = `${PREFIX}stuck`;
    const polite = `${PREFIX}polite`;
    let startedCount = 0;
    let bothStarted!: () => void;
    const started = new Promise<void>((resolve) => (bothStarted = resolve));
    const onStart = () => ++startedCount === 2 && bothStarted();
    const scheduler = await start(
      {
        [stuck]: { defaultCron: "0 0 * * *", run: () => (onStart(), new Promise(() => {})) },
        [polite]: {
          defaultCron: "0 0 * * *",
          run: ({ signal }) => {
            onStart();
            return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
          },
        },
      },
      { shutdownGraceMs: 300 },
    );
    const stuckRun = scheduler.runNow(stuck);
    const politeRun = scheduler.runNow(polite);
    await started;
    await scheduler.stop();

    expect(await stuckRun).toMatchObject({ status: "failed", message: SHUTDOWN_REASON, error: true });
    const stuckLogs = await logsOf(stuck);
    expect(stuckLogs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(stuckLogs[1]!.meta).toMatchObject({ error: SHUTDOWN_REASON, started_log_id: stuckLogs[0]!.id });

    expect(await politeRun).toMatchObject({ status: "failed", message: "interrupted: the scheduler is stopping" });
    expect((await logsOf(polite)).map((log) => log.type)).toEqual(["starting", "failed"]);

    // Its connection was dropped, so the lock is free, and nothing is left open.
    expect(await runFeed(stuck, quickJob)).toMatchObject({ status: "finished" });
    expect((await logsOf(stuck)).map((log) => log.type)).toEqual(["starting", "failed", "starting", "finished"]);
  });
});
