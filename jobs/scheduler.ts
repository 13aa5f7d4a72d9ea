// The one scheduler: every job is a feed row (name, cron, enabled) run through
// runFeed on its cron. Rows are read at start, again at once when a change is
// announced on the feeds_changed NOTIFY channel (a save on any instance), and
// polled as a fallback, so the feed screens can change a cron without a
// restart; only what changed is rescheduled. Overlap is not prevented here: a tick that
// finds its feed running anywhere is logged as skipped by runFeed's lock (or left quietly,
// the job's whenBusy); a job's `then` runs after a scheduled run, e.g. the next step (D250).
import type { Prisma } from "../app/db/generated/client";
import { message } from "../app/i18n/messages";
import cron, { type Logger, type ScheduledTask } from "node-cron";
import pg from "pg";
import prisma from "../app/db.server";
import { env } from "../app/env.server";
import { FEEDS_CHANGED_CHANNEL } from "../app/feeds/changes";
import { validateCron } from "../app/feeds/cron";
import { abandonFeedRuns, closeFeedPool, parseFeedName, runFeed, type FeedRegistry, type FeedRunResult } from "../app/feeds/runner.server";
import { logger } from "../app/observability/logger.server";

export interface SchedulerOptions {
  jobs: FeedRegistry;
  /** How often feed rows are checked for changes besides the NOTIFY (default 30 s). */
  reloadEveryMs?: number;
  /** The database whose feeds_changed channel is listened to (default DATABASE_URL; null: poll only). */
  listenUrl?: string | null;
  /** How long stop() waits for running jobs after aborting them (default 30 s). */
  shutdownGraceMs?: number;
}

export interface Scheduler {
  /** Stops scheduling, aborts running jobs, waits up to the grace (this call's, else the scheduler's), closes the lock pool. */
  stop(graceMs?: number): Promise<void>;
  /** Runs a feed now (trigger manual), whatever its cron or enabled flag. */
  runNow(name: string): Promise<FeedRunResult>;
  /** Re-reads the feed rows now, e.g. after a feed form's save. */
  reload(): Promise<void>;
}

export const SHUTDOWN_REASON = "stopped by shutdown before it finished";

const jobsLog = logger("jobs");
const log = (message: string) => jobsLog.info(message);

// node-cron's default logger prints coloured banners; keep its warnings, in ours.
const cronLogger: Logger = {
  info: () => {},
  debug: () => {},
  warn: (message) => jobsLog.warn(`node-cron: ${message}`),
  error: (message, error) =>
    jobsLog.error({ err: error ?? (message instanceof Error ? message : undefined) }, `node-cron: ${message instanceof Error ? message.message : message}`),
};

interface ScheduledFeed {
  cron: string;
  enabled: boolean;
  task: ScheduledTask | null;
}

export async function startScheduler(options: SchedulerOptions): Promise<Scheduler> {
  const { jobs } = options;
  const reloadEveryMs = options.reloadEveryMs ?? 30_000;
  const shutdownGraceMs = options.shutdownGraceMs ?? 30_000;

  // The registry is code: a bad name or default cron is a programming error.
  const problems = Object.entries(jobs).flatMap(([name, job]) => {
    const found: string[] = [];
    try {
      parseFeedName(name);
    } catch (error) {
      found.push((error as Error).message);
    }
    const cronProblem = validateCron(job.defaultCron);
    if (cronProblem) found.push(`${name}: ${cronProblem}`);
    return found;
  });
  if (problems.length) throw new Error(`The job registry is not usable:\n  - ${problems.join("\n  - ")}`);

  const timezone = env().APP_TIMEZONE;
  const shutdown = new AbortController(); // the signal of every run started here
  const running = new Set<Promise<FeedRunResult>>();
  const scheduled = new Map<string, ScheduledFeed>();
  const warnedWithoutJob = new Set<string>();
  let stopping = false;

  // Insert missing rows only: an existing row's cron was chosen by staff.
  await prisma.feed.createMany({
    data: Object.entries(jobs).map(([name, job]) => ({ name, cron_expression: job.defaultCron.trim() })),
    skipDuplicates: true,
  });

  const track = (name: string, trigger: "schedule" | "manual") => {
    const job = jobs[name]!;
    const whenBusy = trigger === "schedule" ? job.whenBusy : undefined;
    const ran = runFeed(name, job.run, { trigger, signal: shutdown.signal, defaultCron: job.defaultCron.trim(), whenBusy });
    // A scheduled run's follow-up (the next feed of a chain, D250) runs after its lock is released, tracked with it for shutdown.
    const then = trigger === "schedule" ? job.then : undefined;
    const run = !then
      ? ran
      : ran.then(async (result) => {
          if (!shutdown.signal.aborted) {
            await then(result, { signal: shutdown.signal }).catch((error) =>
              jobsLog.error({ err: error, feed: name }, `${name}: what follows it could not run: ${(error as Error).message}`),
            );
          }
          return result;
        });
    running.add(run);
    run.then(
      () => running.delete(run),
      () => running.delete(run),
    );
    return run;
  };

  const tick = async (name: string) => {
    if (stopping) return;
    try {
      // The runner logs the run's end, failed or not.
      await track(name, "schedule");
    } catch (error) {
      // No log could be written (database down?): say so here at least.
      jobsLog.error({ err: error, feed: name }, `${name} could not run: ${(error as Error).message}`);
    }
  };

  const schedule = (name: string, cronExpression: string) => {
    const task = cron.createTask(cronExpression, () => tick(name), { name: `feed:${name}`, timezone, logger: cronLogger });
    void task.start();
    return task;
  };

  const recordInvalidCron = async (name: string, cronExpression: string, problem: string) => {
    jobsLog.error({ feed: name }, `${name} is not scheduled: ${problem}`);
    await prisma.feedLog.create({
      data: {
        feed_name: name,
        type: "failed",
        meta: {
          error: `not scheduled: ${problem}`,
          error_code: message("logs.feeds.not_scheduled", { problem }) as Prisma.InputJsonValue,
          cron_expression: cronExpression,
        },
      },
    });
    await prisma.feed.update({ where: { name }, data: { last_failed_at: new Date() } });
  };

  const applyFeedRows = async () => {
    const rows = await prisma.feed.findMany({ select: { name: true, cron_expression: true, enabled: true } });
    if (stopping) return;
    const present = new Set<string>();
    for (const row of rows) {
      present.add(row.name);
      if (!jobs[row.name]) {
        if (!warnedWithoutJob.has(row.name)) {
          warnedWithoutJob.add(row.name);
          jobsLog.warn(`feed ${row.name} has no job in this build's registry: not scheduled`);
        }
        continue;
      }
      const cronExpression = row.cron_expression.trim();
      const enabled = row.enabled !== 0;
      const current = scheduled.get(row.name);
      if (current && current.cron === cronExpression && current.enabled === enabled) continue;
      try {
        await current?.task?.destroy();
        scheduled.delete(row.name);
        let task: ScheduledTask | null = null;
        if (enabled) {
          const problem = validateCron(cronExpression);
          if (problem) await recordInvalidCron(row.name, cronExpression, problem);
          else task = schedule(row.name, cronExpression);
        }
        scheduled.set(row.name, { cron: cronExpression, enabled, task });
        if (current) log(`${row.name}: ${task ? `rescheduled (${cronExpression})` : "no longer scheduled"}`);
      } catch (error) {
        // Left out of `scheduled`, so the next reload tries again.
        jobsLog.error(`${row.name} could not be scheduled: ${(error as Error).message}`);
      }
    }
    for (const [name, entry] of scheduled) {
      if (present.has(name)) continue;
      await entry.task?.destroy();
      scheduled.delete(name);
      log(`${name}: feed row removed, no longer scheduled`);
    }
  };

  // One reload at a time, in order; a failed one does not stop later ones.
  let reloads: Promise<void> = Promise.resolve();
  const reload = () => {
    const next = reloads.then(applyFeedRows);
    reloads = next.catch(() => {});
    return next;
  };

  await reload();
  const reloadLogged = () => reload().catch((error) => jobsLog.error(`reading the feeds failed: ${(error as Error).message}`));
  const poll = setInterval(reloadLogged, reloadEveryMs);
  const listener = await listenForChanges(options.listenUrl === undefined ? process.env.DATABASE_URL : options.listenUrl, reloadLogged);

  let stopped: Promise<void> | undefined;
  const stop = (graceMs = shutdownGraceMs) =>
    (stopped ??= (async () => {
      stopping = true;
      clearInterval(poll);
      await listener.stop();
      await reloads;
      for (const entry of scheduled.values()) await entry.task?.destroy();
      scheduled.clear();

      shutdown.abort(new Error("the scheduler is stopping"));
      const inFlight = [...running];
      let timer: NodeJS.Timeout | undefined;
      const endedInTime = await Promise.race([
        Promise.allSettled(inFlight).then(() => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (!endedInTime) {
        const abandoned = await abandonFeedRuns(shutdown.signal, SHUTDOWN_REASON).catch((error) => {
          jobsLog.error(`could not record the runs cut short: ${(error as Error).message}`);
          return 0;
        });
        if (abandoned) log(`${abandoned} run(s) did not stop within ${graceMs} ms: ${SHUTDOWN_REASON}`);
      }
      // Abandoned runs are settled now; others were writing their end log.
      await Promise.allSettled(inFlight);
      await closeFeedPool();
    })());

  const runNow = async (name: string) => {
    if (stopping) throw new Error(`The scheduler is stopping: ${name} was not started.`);
    if (!jobs[name]) throw new Error(`There is no job for the feed "${name}".`);
    return track(name, "manual");
  };

  return { stop, runNow, reload };
}

/**
 * LISTENs on feeds_changed with a connection of its own and calls `onChange`
 * for every notification (and after a reconnect, since notifications sent
 * while disconnected are lost). A lost connection is retried every 5 s; the
 * poll covers the gap.
 */
async function listenForChanges(url: string | null | undefined, onChange: () => unknown): Promise<{ stop(): Promise<void> }> {
  if (!url) return { stop: async () => {} };
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;

  const connect = async (reconnecting: boolean) => {
    const next = new pg.Client({ connectionString: url, application_name: "feeds-listener" });
    const lost = (reason: string) => {
      if (stopped || client !== next) return;
      client = undefined;
      jobsLog.error(`feed change listener lost (${reason}); retrying in 5 s, polling meanwhile`);
      void next.end().catch(() => {});
      retry = setTimeout(() => void connect(true), 5000);
    };
    next.on("error", (error) => lost(error.message));
    next.on("end", () => lost("connection ended"));
    next.on("notification", (message) => {
      if (message.channel === FEEDS_CHANGED_CHANNEL) onChange();
    });
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${FEEDS_CHANGED_CHANNEL}`);
      if (stopped) await next.end();
      else if (reconnecting) onChange();
    } catch (error) {
      lost((error as Error).message);
    }
  };
  await connect(false);

  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => {});
    },
  };
}
