// Runs one feed: the scheduler, the Run Feed button and the tests all come
// through runFeed. Each run writes feed logs (starting, then finished or
// failed; skipped when the feed is already running anywhere) and stamps the
// feed row. "Anywhere" is enforced by a PostgreSQL session-level advisory lock
// held on a dedicated connection for the whole run: it works across processes
// and app instances, and PostgreSQL frees it when a dying process's connection
// closes. Prisma's pool cannot pin a connection, hence the small pg pool.
import os from "node:os";
import pg from "pg";
import { z } from "zod";
import prisma, { runAsJob } from "~/db.server";
import { databaseSettings } from "~/env.server";
import type { Prisma } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";
import { addToLogContext, withLogContext } from "~/observability/context.server";
import { logger } from "~/observability/logger.server";
import { countFeedRun, type FeedOutcome as RunOutcome } from "~/observability/metrics.server";
import { registerPool } from "~/observability/pools.server";
import { ThrottledProgress } from "~/lib/throttled-progress";
import { message, type RunMessage } from "~/i18n/messages";
import { errorMessage } from "~/lib/error-message";

const feedsLog = logger("feeds");

/**
 * What started a run: its cron, a person (Run Feed, the Test page), or another feed: the step before it in a
 * chain, or the minute watch (D250). Kept in the run's logs' meta.
 */
export type FeedTrigger = "schedule" | "manual" | "chain";

/**
 * When the feed is running already (anywhere): `skip` writes a skipped log (the default); `skip_quietly`
 * gives up without one (the minute watch and what it starts: the next minute looks again); `wait` takes
 * the lock once that run ends, quietly, and then runs: a chained wake-up is not lost (D251).
 */
export type WhenBusy = "skip" | "skip_quietly" | "wait";

export interface FeedRunContext {
  /** Merged into the starting log's meta; written at most once a second, the last one always. */
  progress(meta: Record<string, unknown>): Promise<void>;
  /** Aborted on shutdown (and if the connection holding the lock is lost): stop soon. */
  signal: AbortSignal;
  trigger: FeedTrigger;
}
export interface FeedOutcome {
  /** In English, as the feed log keeps it. */
  message: string;
  /** The same message as a code, shown in the reader's language (kept as meta.message_code, D114). */
  messageCode?: RunMessage;
  /** The job ran to its end but reports a problem (e.g. some records failed). */
  error?: boolean;
  meta?: Record<string, unknown>;
}
export type FeedJob = (context: FeedRunContext) => Promise<FeedOutcome>;
export interface FeedJobDefinition {
  /** Cron of the feed row when the scheduler creates it; the row's own cron wins after that. */
  defaultCron: string;
  run: FeedJob;
  /** What a scheduled tick does when the feed is running already (default `skip`, with its log). */
  whenBusy?: WhenBusy;
  /** After a scheduled run, its lock released: the next feed of a chain (D250). Not after a manual run. */
  then?: (result: FeedRunResult, context: { signal: AbortSignal }) => Promise<unknown>;
}
/** Every runnable feed by name: jobs/registry.ts builds it, the composition roots hand it in (D97). */
export type FeedRegistry = Record<string, FeedJobDefinition>;
export interface FeedRunResult {
  status: "finished" | "failed" | "skipped";
  message: string;
  /** The message as a code, when the job gave one and the run finished. */
  messageCode?: RunMessage;
  error: boolean;
  /** The log that ended the run (finished, failed or skipped); 0 when a busy feed was left quietly (WhenBusy). */
  logId: number;
  /** The job's meta (its counts), when the run finished. */
  meta?: Record<string, unknown>;
}
export interface RunFeedOptions {
  trigger?: FeedTrigger;
  /** When the feed is running already: see WhenBusy (default skip). */
  whenBusy?: WhenBusy;
  /** With `wait`: how long to wait for the lock at most (default 15 min; then left quietly: the crons are the backstop). */
  waitAtMostMs?: number;
  /** With `wait`: how often the lock is tried (default 1 s). */
  waitPollMs?: number;
  signal?: AbortSignal;
  /** Cron for the feed row if it has to be created (the scheduler passes the registry's). */
  defaultCron?: string;
  /** How often the connection holding the lock is checked while the job runs (default 5 s; tests shorten it). */
  lockCheckEveryMs?: number;
}

export const DEFAULT_FEED_CRON = "0 0 * * *";
// First key of the two-int advisory lock, so feed locks never meet other
// advisory locks (the migrator uses a single bigint key).
const FEED_LOCK_NAMESPACE = LOCK_KEYS.feedRun;
const PROGRESS_INTERVAL_MS = 1000;
// The lock's connection is checked with a SELECT 1 this often; one that does
// not answer within two periods counts as lost (a dropped network sends no
// error event: only a query finds out).
const LOCK_CHECK_EVERY_MS = 5000;
const LOCK_CHECK_TIMEOUT_FACTOR = 2;
const STACK_LINES = 5;

export const feedNameSchema = z
  .string()
  .min(1, "a feed name is required")
  .max(100, "a feed name has at most 100 characters")
  .regex(/^[a-z0-9_]+$/, "a feed name has only lower-case letters, digits and _");

export function parseFeedName(name: string): string {
  const parsed = feedNameSchema.safeParse(name);
  if (!parsed.success) throw new Error(`Invalid feed name "${name}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

let pool: pg.Pool | undefined;

function feedPool(): pg.Pool {
  if (!pool) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set: feeds need the database to take their lock.");
    // One connection per running feed (plus a moment for each skip): FEED_LOCK_POOL_SIZE.
    pool = new pg.Pool({
      connectionString,
      max: databaseSettings().FEED_LOCK_POOL_SIZE,
      idleTimeoutMillis: 10_000,
      connectionTimeoutMillis: 15_000,
      application_name: "feeds",
      keepAlive: true,
    });
    // An idle connection dropped by the server must not crash the process.
    pool.on("error", (error) => feedsLog.error(`idle database connection lost: ${error.message}`));
    registerPool("feeds", pool);
  }
  return pool;
}

/** Ends the lock pool (waits for running feeds to release their connection). */
export async function closeFeedPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.end();
}

const processInfo = () => ({ pid: process.pid, host: os.hostname() });

// Runs in this process by the signal their caller gave, so shutdown can close
// those that outlive its grace period.
interface ActiveRun {
  abandon(reason: string): Promise<boolean>;
}
const activeRuns = new Map<AbortSignal, Set<ActiveRun>>();

/**
 * For shutdown: ends the runs started with `signal` that did not stop in time.
 * Each gets a failed log with `reason`, loses its lock connection (PostgreSQL
 * frees the lock) and its runFeed resolves as failed; whatever the job does
 * later is ignored. Returns how many it ended.
 */
export async function abandonFeedRuns(signal: AbortSignal, reason: string): Promise<number> {
  const runs = [...(activeRuns.get(signal) ?? [])];
  const ended = await Promise.all(runs.map((run) => run.abandon(reason)));
  return ended.filter(Boolean).length;
}

const WAIT_AT_MOST_MS = 15 * 60_000;
const WAIT_POLL_MS = 1000;

/**
 * The runs of this process waiting for a feed's lock (WhenBusy `wait`), by feed, until they take it: a
 * second wake-up while one waits joins it, since the run it waits for will see the work of both (D251).
 */
const waitingForLock = new Map<string, Promise<FeedRunResult>>();

export async function runFeed(name: string, job: FeedJob, options: RunFeedOptions = {}): Promise<FeedRunResult> {
  const feedName = parseFeedName(name);
  if (options.whenBusy === "wait") {
    const waiting = waitingForLock.get(feedName);
    if (waiting) return waiting;
  }
  const lockTaken = () => {
    if (waitingForLock.get(feedName) === run) waitingForLock.delete(feedName);
  };
  // A feed is a job wherever it was started (a Run Feed request included): the
  // jobs' database pool, without the web requests' statement timeout (D67).
  // Its log lines carry the feed and, once its log exists, the run id (D86).
  const run = runAsJob(() => withLogContext({ feed: feedName }, () => observedRun(feedName, job, options, lockTaken)));
  if (options.whenBusy === "wait") {
    waitingForLock.set(feedName, run);
    void run.then(lockTaken, lockTaken);
  }
  return run;
}

/** What the run's end line and metrics report besides its result: the job's counts. */
interface RunReport {
  counts?: Record<string, number>;
}

/** One line and the feed metrics at the end of each run, whatever its outcome (D86, D88). */
async function observedRun(feedName: string, job: FeedJob, options: RunFeedOptions, lockTaken: () => void): Promise<FeedRunResult> {
  const began = performance.now();
  const report: RunReport = {};
  const ended = (outcome: RunOutcome, message: string, error?: unknown) => {
    const seconds = (performance.now() - began) / 1000;
    countFeedRun(feedName, outcome, seconds);
    const level = outcome === "failed" ? "error" : outcome === "finished" ? "info" : "warn";
    feedsLog[level](
      { outcome, counts: report.counts ?? {}, duration_ms: Math.round(seconds * 1000), ...(error ? { err: error } : {}) },
      `${feedName} ${outcome.replace(/_/g, " ")} in ${seconds.toFixed(1)} s: ${message.slice(0, 500)}`,
    );
  };
  try {
    const result = await runFeedAsJob(feedName, job, options, report, lockTaken);
    // Left quietly while running elsewhere: nothing ran, no log, no metric (D251).
    if (result.status === "skipped" && result.logId === 0) {
      feedsLog.debug(`${feedName}: ${result.message}`);
      return result;
    }
    ended(result.status === "finished" ? (result.error ? "finished_with_errors" : "finished") : result.status, result.message);
    return result;
  } catch (error) {
    ended("failed", errorMessage(error), error);
    throw error;
  }
}

/** The numbers a job reported (files, records, rows...), for the run's end line. */
const countsIn = (meta: Record<string, unknown> | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(meta ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === "number"));

async function runFeedAsJob(feedName: string, job: FeedJob, options: RunFeedOptions, report: RunReport, lockTaken: () => void): Promise<FeedRunResult> {
  const trigger = options.trigger ?? "manual";
  const createCron = options.defaultCron ?? DEFAULT_FEED_CRON;

  const client = await feedPool().connect();
  const lockLost = new AbortController();
  // A checked-out pg client with no error listener would crash the process.
  const onClientError = (error: Error) => {
    feedsLog.error(`${feedName}: lost the connection holding its lock: ${error.message}`);
    lockLost.abort(new Error(`lost the database connection holding the lock of ${feedName} (${error.message})`));
  };
  client.on("error", onClientError);
  let released = false;
  const release = (destroy: boolean) => {
    if (released) return;
    released = true;
    client.off("error", onClientError);
    client.release(destroy || lockLost.signal.aborted ? true : undefined);
  };

  const tryLock = async () => {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [
      FEED_LOCK_NAMESPACE,
      `feed:${feedName}`,
    ]);
    return rows[0]!.locked;
  };
  const whenBusy = options.whenBusy ?? "skip";
  let locked: boolean;
  try {
    locked = await tryLock();
    // Waiting: the lock tried again every second or so, with no log, until the run holding it ends (D251).
    const giveUpAt = Date.now() + (options.waitAtMostMs ?? WAIT_AT_MOST_MS);
    while (!locked && whenBusy === "wait" && !options.signal?.aborted && Date.now() < giveUpAt) {
      await pause(options.waitPollMs ?? WAIT_POLL_MS, options.signal);
      if (!options.signal?.aborted) locked = await tryLock();
    }
  } catch (error) {
    release(true);
    throw error;
  }
  if (locked) lockTaken();

  if (!locked && whenBusy !== "skip") {
    release(false);
    if (whenBusy === "wait") feedsLog.warn(`${feedName}: still running elsewhere after the wait; its next run does the work`);
    return { status: "skipped", message: `${feedName} is already running; not started.`, error: false, logId: 0 };
  }

  if (!locked) {
    release(false);
    const now = new Date();
    const log = await writeLog(feedName, "skipped", { reason: "still running", reason_code: message("logs.feeds.still_running"), trigger, ...processInfo() });
    addToLogContext({ run_id: log.id });
    await stampFeed(feedName, createCron, { last_skipped_at: now });
    return { status: "skipped", message: `${feedName} is already running; it was skipped.`, error: true, logId: log.id };
  }

  let destroy = false;
  try {
    return await runLocked({
      feedName,
      job,
      trigger,
      createCron,
      client,
      release,
      report,
      lockLost: lockLost.signal,
      callerSignal: options.signal,
      watchLock: () => watchLockConnection(client, feedName, options.lockCheckEveryMs ?? LOCK_CHECK_EVERY_MS, onClientError),
    });
  } catch (error) {
    destroy = true; // a database failure mid-run: do not return a connection of unknown state
    throw error;
  } finally {
    if (!released && lockLost.signal.aborted) {
      // The lock went with its connection; a query on it might never be answered.
      release(true);
    } else if (!released) {
      // A session lock outlives the run unless unlocked: if unlocking fails,
      // close the connection rather than hand a locked session to the pool.
      const unlocked = await client
        .query<{ unlocked: boolean }>("SELECT pg_advisory_unlock($1, hashtext($2)) AS unlocked", [FEED_LOCK_NAMESPACE, `feed:${feedName}`])
        .then((result) => result.rows[0]!.unlocked)
        .catch(() => false);
      release(destroy || !unlocked);
    }
  }
}

interface LockedRun {
  feedName: string;
  job: FeedJob;
  trigger: FeedTrigger;
  createCron: string;
  client: pg.PoolClient;
  release(destroy: boolean): void;
  report: RunReport;
  lockLost: AbortSignal;
  callerSignal?: AbortSignal;
  /** Starts checking the lock's connection; returns the function that stops it. */
  watchLock(): () => void;
}

/**
 * Checks the connection holding a feed's lock while its job runs. A backend
 * that is killed sends an error, but a connection lost on the way (a network
 * cut, a proxy restarted) stays silent until something is sent: a SELECT 1
 * every few seconds, bounded by a timeout, finds it, and the run is told its
 * lock is lost. Background runs (app/runs) watch theirs the same way.
 */
export function watchLockConnection(client: pg.ClientBase, holder: string, everyMs: number, lost: (error: Error) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const check = async () => {
    try {
      // query_timeout is read by pg's client for each query, but missing from its types.
      await client.query({ text: "SELECT 1", query_timeout: Math.max(1000, everyMs * LOCK_CHECK_TIMEOUT_FACTOR) } as pg.QueryConfig);
    } catch (error) {
      if (stopped) return;
      stopped = true;
      lost(new Error(`the check of the lock's connection of ${holder} failed: ${(error as Error).message}`));
      return;
    }
    if (!stopped) timer = setTimeout(() => void check(), everyMs);
  };
  timer = setTimeout(() => void check(), everyMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

async function runLocked(run: LockedRun): Promise<FeedRunResult> {
  const { feedName, trigger } = run;
  await closeInterruptedRuns(run.client, feedName);

  const startedAt = new Date();
  const starting = await writeLog(feedName, "starting", { trigger, ...processInfo() });
  await stampFeed(feedName, run.createCron, { last_started_at: startedAt });
  const startedLogId = starting.id;
  // The run's id in logs: its starting log's id, as in Feed Logs.
  addToLogContext({ run_id: startedLogId });
  const duration = () => Date.now() - startedAt.getTime();

  const internalAbort = new AbortController();
  const signal = AbortSignal.any([internalAbort.signal, run.lockLost, ...(run.callerSignal ? [run.callerSignal] : [])]);
  // Progress lands on the starting log: at most one write a second, the last one before the run's end log.
  const progress = new ThrottledProgress<Record<string, unknown>>(
    { trigger, ...processInfo() },
    (meta) => prisma.feedLog.update({ where: { id: startedLogId }, data: { meta: toJson(meta) } }),
    (error) => feedsLog.error(`progress of log ${startedLogId} not saved: ${error.message}`),
    PROGRESS_INTERVAL_MS,
  );
  // Set once the run's end is decided, so a late job and a shutdown never both write one.
  let ended = false;

  let abandoned!: (result: FeedRunResult) => void;
  const whenAbandoned = new Promise<FeedRunResult>((resolve) => (abandoned = resolve));
  const registryKey = run.callerSignal ?? internalAbort.signal;
  const active: ActiveRun = {
    async abandon(reason) {
      if (ended) return false;
      ended = true;
      internalAbort.abort(new Error(reason));
      let logId = 0;
      try {
        await progress.finish();
        // Written before the lock goes, like every end log.
        logId = (await writeLog(feedName, "failed", { error: reason, duration_ms: duration(), started_log_id: startedLogId })).id;
        await stampFeed(feedName, run.createCron, { last_failed_at: new Date() });
      } finally {
        run.release(true);
        abandoned({ status: "failed", message: reason, error: true, logId });
      }
      return true;
    },
  };
  const registered = activeRuns.get(registryKey) ?? new Set<ActiveRun>();
  activeRuns.set(registryKey, registered.add(active));

  // A run told to stop (shutdown, or its lock lost) before its job ended is
  // interrupted, whether the job then threw or returned early at a safe point:
  // it may not have done all its work, and the next run does the rest (D67).
  const interruption = () => (signal.aborted ? `interrupted: ${reasonText(signal.reason)}` : null);
  const finish = async (): Promise<FeedRunResult> => {
    let outcome: FeedOutcome;
    const stopWatching = run.watchLock();
    try {
      outcome = await run.job({ progress: (meta) => progress.update(meta), signal, trigger });
    } catch (error) {
      stopWatching();
      if (ended) return whenAbandoned;
      ended = true;
      await progress.finish();
      const thrown = errorMessage(error);
      const interrupted = interruption();
      const message = interrupted ?? thrown;
      const stack = error instanceof Error && error.stack ? error.stack.split("\n").slice(0, STACK_LINES).join("\n") : undefined;
      const meta = {
        error: message,
        ...(interrupted ? { error_code: interruptedCode(signal), interrupted: true, job_error: thrown } : {}),
        stack,
        duration_ms: duration(),
        started_log_id: startedLogId,
      };
      if (interrupted) feedsLog.error(`${feedName}: ${interrupted}`);
      const log = await writeLog(feedName, "failed", meta);
      await stampFeed(feedName, run.createCron, { last_failed_at: new Date() });
      return { status: "failed", message, error: true, logId: log.id };
    }
    stopWatching();
    if (ended) return whenAbandoned;
    ended = true;
    run.report.counts = countsIn(outcome.meta);
    await progress.finish();
    const interrupted = interruption();
    const meta = {
      message: outcome.message,
      ...(outcome.messageCode ? { message_code: outcome.messageCode } : {}),
      duration_ms: duration(),
      ...outcome.meta,
      ...(outcome.error ? { error: true } : {}),
      ...(interrupted ? { error: interrupted, error_code: interruptedCode(signal), interrupted: true } : {}),
      started_log_id: startedLogId, // last: the interrupted-run check relies on it
    };
    if (interrupted) {
      feedsLog.error(`${feedName}: ${interrupted} (the job said: ${outcome.message})`);
      const log = await writeLog(feedName, "failed", meta);
      await stampFeed(feedName, run.createCron, { last_failed_at: new Date() });
      return { status: "failed", message: interrupted, error: true, logId: log.id };
    }
    const log = await writeLog(feedName, "finished", meta);
    await stampFeed(feedName, run.createCron, { last_finished_at: new Date() });
    return {
      status: "finished",
      message: outcome.message,
      ...(outcome.messageCode ? { messageCode: outcome.messageCode } : {}),
      error: Boolean(outcome.error),
      logId: log.id,
      ...(outcome.meta ? { meta: outcome.meta } : {}),
    };
  };

  const finished = finish();
  finished.catch(() => {}); // when abandoned, a late failure here has no one to tell
  try {
    return await Promise.race([finished, whenAbandoned]);
  } finally {
    registered.delete(active);
    if (!registered.size) activeRuns.delete(registryKey);
  }
}

// A starting log with no end belongs to a run whose process stopped (we hold
// the lock, so it is not running). Every end log names its starting log, and
// ends are written under the lock in order, so only starting logs after the
// last one named can be open.
async function closeInterruptedRuns(client: pg.PoolClient, feedName: string) {
  const { rows } = await client.query<{ id: number }>(
    `SELECT s.id FROM feed_log s
      WHERE s.feed_name = $1 AND s.type = 'starting'
        AND s.id > COALESCE((SELECT (e.meta->>'started_log_id')::int FROM feed_log e
                              WHERE e.feed_name = $1 AND e.type IN ('finished', 'failed') AND e.meta ? 'started_log_id'
                              ORDER BY e.id DESC LIMIT 1), 0)
      ORDER BY s.id`,
    [feedName],
  );
  for (const { id } of rows) {
    await writeLog(feedName, "failed", {
      error: "interrupted: the process running it stopped",
      error_code: message("logs.feeds.interrupted_stopped"),
      started_log_id: id,
    });
  }
  if (rows.length) await prisma.feed.updateMany({ where: { name: feedName }, data: { last_failed_at: new Date() } });
}

function writeLog(feedName: string, type: "starting" | "finished" | "failed" | "skipped", meta: Record<string, unknown>) {
  return prisma.feedLog.create({ data: { feed_name: feedName, type, meta: toJson(meta) }, select: { id: true } });
}

function stampFeed(
  feedName: string,
  createCron: string,
  stamp: Partial<Record<"last_started_at" | "last_finished_at" | "last_failed_at" | "last_skipped_at", Date>>,
) {
  return prisma.feed.upsert({
    where: { name: feedName },
    update: stamp,
    create: { name: feedName, cron_expression: createCron, ...stamp },
    select: { id: true },
  });
}

/** Sleeps `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

const reasonText = (reason: unknown) => (reason instanceof Error ? reason.message : String(reason ?? "stopped"));
/** The interruption as a code for the feed log (D114); the reason is the stopping code's own words. */
const interruptedCode = (signal: AbortSignal) => message("logs.feeds.interrupted", { reason: reasonText(signal.reason) });

// Meta is whatever jobs report: make it plain JSON (dates as ISO text, bigints as text, no undefined).
function toJson(meta: Record<string, unknown>): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(meta, (_key, value) => (typeof value === "bigint" ? value.toString() : value)));
}
