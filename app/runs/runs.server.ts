// Background runs (D93–D95): a long action started from a page runs on the
// instance that got the click, in the background, and the request answers at
// once with the run's id. The run's state is a background_run row that any
// instance reads (the page loader, GET /api/run/{id}).
//
// One run per lock key anywhere: a PostgreSQL session advisory lock, taken on
// a connection of the run's own and held until its end row is written, as the
// feed runner does (D16). A process that dies frees the lock with its
// connection, so a row still "running" whose lock nobody holds is read as
// interrupted, on any instance, at once; the next start of that key closes it.
// The partial unique index background_run_running_key backs the lock: two
// running rows of one key cannot exist.
import os from "node:os";
import pg from "pg";
import prisma, { runAsJob } from "~/db.server";
import type { BackgroundRun, Prisma } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";
import { localeFromUrl } from "~/i18n/config";
import { trackManualRun } from "~/feeds/manual-runs.server";
import { abandonFeedRuns, watchLockConnection } from "~/feeds/runner.server";
import { message, plainText, renderMessage, type MessageTranslate, type RunMessage } from "./messages";
import type { RunProgress, RunStatus, RunView } from "./types";
import { ThrottledProgress } from "~/lib/throttled-progress";
import { logger } from "~/observability/logger.server";
import { errorMessage } from "~/lib/error-message";

const log = logger("runs");

export type { RunProgress, RunStatus, RunView };

export type RunKind = "dropship_test" | "dropship_tools" | "dropship_vendor_test" | "feed" | "special_order_pull" | "eod" | "auto_assignment";

export interface RunContext {
  runId: number;
  /** Merged into the row's progress; written at most once a second, the last one always. */
  progress(patch: RunProgress): void;
  /** Aborted when the process stops or the lock's connection is lost: stop at a safe point. */
  signal: AbortSignal;
}

export interface RunOutcome {
  /** The run did its work but reports a problem, or refused (nothing to export, already running elsewhere). */
  error: boolean;
  /** The result text (the spec's banner title). */
  message: RunMessage;
  /** What happened, under the title. */
  detail?: RunMessage;
  /** Figures the API adds to its answer (a batch, a result). */
  data?: Record<string, unknown>;
}

export interface RunDefinition {
  kind: RunKind;
  /** Which action of the kind (a step, a tool, a feed name, run/export/retry). */
  action: string;
  /** One run of a key at a time anywhere. */
  lockKey: string;
  /** What the action was started with (shown nowhere but kept with the run). */
  params?: Record<string, unknown>;
  /** The result text when the work throws. */
  failure: RunMessage;
  work(context: RunContext): Promise<RunOutcome>;
}

export type StartAnswer = { started: true; run: RunView } | { started: false; run: RunView | null };

const PROGRESS_INTERVAL_MS = 1000;
// The lock's connection is checked this often (a lost network sends no error: only a query finds out).
const LOCK_CHECK_EVERY_MS = 5000;
export const INTERRUPTED = message("runs.interrupted");
export const STOPPED_BY_SHUTDOWN = message("runs.stopped_by_shutdown");

const SETTLE_ATTEMPTS = 40;
const SETTLE_MS = 50;

const instanceName = () => `${os.hostname()}:${process.pid}`;

function lockConnection(): pg.Client {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set: background runs need the database to take their lock.");
  return new pg.Client({ connectionString, application_name: "background-run", keepAlive: true });
}

/**
 * Starts `definition` unless a run of its lock key is going anywhere; answers
 * at once, the work goes on in this process. Test hook: `lockCheckEveryMs`.
 */
export async function startRun(
  definition: RunDefinition,
  t: MessageTranslate,
  language: string,
  options: { lockCheckEveryMs?: number } = {},
): Promise<StartAnswer> {
  const client = lockConnection();
  const lockLost = new AbortController();
  // An error event on the lock's connection must not crash the process: the run is told instead.
  client.on("error", (error) => lockLost.abort(new Error(`lost the database connection holding the run's lock (${error.message})`)));
  await client.connect();
  try {
    // Not locked and no running row: its holder is writing its row, or has
    // written its end and is letting go of the lock. Either settles in moments.
    for (let attempt = 0; ; attempt++) {
      const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [
        LOCK_KEYS.backgroundRun,
        definition.lockKey,
      ]);
      if (rows[0]!.locked) break;
      const running = await prisma.backgroundRun.findFirst({ where: { lock_key: definition.lockKey, status: "running" }, orderBy: { id: "desc" } });
      if (running || attempt >= SETTLE_ATTEMPTS) {
        await client.end().catch(() => undefined);
        return { started: false, run: running ? viewOf(running, t, language) : null };
      }
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    }
    // We hold the lock: a row still running under this key belongs to a process that died.
    await closeInterrupted(definition.lockKey);
    const row = await prisma.backgroundRun.create({
      data: {
        kind: definition.kind,
        action: definition.action,
        lock_key: definition.lockKey,
        params: toJson(definition.params ?? {}),
        instance: instanceName(),
      },
    });
    execute(row, definition, client, lockLost, options.lockCheckEveryMs ?? LOCK_CHECK_EVERY_MS);
    return { started: true, run: await viewOf(row, t, language) };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

function execute(row: BackgroundRun, definition: RunDefinition, client: pg.Client, lockLost: AbortController, lockCheckEveryMs: number) {
  const shutdown = new AbortController();
  const signal = AbortSignal.any([shutdown.signal, lockLost.signal]);
  // Progress lands on the row: at most one write a second, the last one before the run's end.
  const progress = new ThrottledProgress<RunProgress>(
    {},
    (state) => runAsJob(() => prisma.backgroundRun.update({ where: { id: row.id }, data: { progress: toJson(state) } })),
    (error) => log.error({ err: error, run: row.id }, `progress of run ${row.id} not saved: ${error.message}`),
    PROGRESS_INTERVAL_MS,
  );
  let ended = false;
  const end = async (status: RunStatus, outcome: RunOutcome) => {
    if (ended) return;
    ended = true;
    await progress.finish();
    await prisma.backgroundRun
      .update({ where: { id: row.id }, data: { status, result: toJson(outcome), finished_at: new Date() } })
      .catch((error: Error) =>
        log.error({ err: error, run: row.id, lock_key: definition.lockKey }, `run ${row.id} (${definition.lockKey}): its end was not saved: ${error.message}`),
      );
  };
  const stopWatching = watchLockConnection(client, `the run ${row.id}`, lockCheckEveryMs, (error) => lockLost.abort(error));
  const closeLock = async () => {
    stopWatching();
    // Closing the session frees the lock, after the end row is written.
    await client.end().catch(() => undefined);
  };

  const done = runAsJob(async () => {
    let outcome: RunOutcome;
    try {
      outcome = await definition.work({ runId: row.id, progress: (patch) => progress.update(patch), signal });
    } catch (error) {
      const thrown = errorMessage(error);
      if (!signal.aborted) log.error({ err: error, run: row.id, lock_key: definition.lockKey }, `run ${row.id} (${definition.lockKey}) failed`);
      outcome = { error: true, message: definition.failure, detail: signal.aborted ? interruptedDetail(signal.reason) : plainText(thrown) };
      await end(signal.aborted ? "interrupted" : "failed", outcome);
      return;
    }
    // Told to stop before the work ended: it may not have done all of it.
    if (signal.aborted) await end("interrupted", { ...outcome, error: true, detail: interruptedDetail(signal.reason) });
    else await end("finished", outcome);
  })
    .catch((error: Error) => log.error({ err: error, run: row.id }, `run ${row.id}: ${error.message}`))
    .finally(closeLock);

  // Shutdown (server/main.ts) asks these runs to stop, waits its grace, then abandons them.
  trackManualRun({
    feedName: `run:${definition.lockKey}`,
    controller: shutdown,
    done,
    abandon: async (reason) => {
      if (ended) return 0;
      // A feed run inside gets its own failed log and loses its lock, as D68 says.
      await abandonFeedRuns(signal, reason).catch(() => 0);
      await end("interrupted", { error: true, message: definition.failure, detail: STOPPED_BY_SHUTDOWN });
      await closeLock();
      return 1;
    },
  });
}

const interruptedDetail = (reason: unknown): RunMessage =>
  message("runs.interrupted_because", { reason: reason instanceof Error ? reason.message : String(reason ?? "") });

async function closeInterrupted(lockKey: string) {
  await prisma.backgroundRun.updateMany({
    where: { lock_key: lockKey, status: "running" },
    data: { status: "interrupted", finished_at: new Date(), result: toJson({ error: true, message: INTERRUPTED }) },
  });
}

/** Whether the lock of each key is held by some session now (any instance). */
async function heldLocks(lockKeys: string[]): Promise<Set<string>> {
  if (!lockKeys.length) return new Set();
  // A two-int advisory lock shows as classid = first key, objid = second key (an oid, so the hash unsigned), objsubid = 2.
  const rows = await prisma.$queryRaw<Array<{ key: string }>>`
    SELECT k.key FROM unnest(${lockKeys}::text[]) AS k(key)
     WHERE EXISTS (SELECT 1 FROM pg_locks l
                    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                      AND l.classid = ${LOCK_KEYS.backgroundRun}::int8::oid
                      AND l.objid = ((hashtext(k.key)::int8 + 4294967296) % 4294967296)::oid)`;
  return new Set(rows.map((row) => row.key));
}

/** Rows read as "running" whose lock nobody holds are interrupted: their process died. */
async function withLiveness(rows: BackgroundRun[]): Promise<BackgroundRun[]> {
  const running = rows.filter((row) => row.status === "running");
  if (!running.length) return rows;
  const held = await heldLocks([...new Set(running.map((row) => row.lock_key))]);
  const unheld = running.filter((row) => !held.has(row.lock_key));
  if (!unheld.length) return rows;
  // A run writes its end before it lets go of its lock, so a row read before
  // the lock check may have ended since: read those rows again, after it.
  const fresh = new Map((await prisma.backgroundRun.findMany({ where: { id: { in: unheld.map((row) => row.id) } } })).map((row) => [row.id, row]));
  return rows.map((row) => {
    if (row.status !== "running" || held.has(row.lock_key)) return row;
    const now = fresh.get(row.id) ?? row;
    return now.status === "running" ? { ...now, status: "interrupted", result: { error: true, message: INTERRUPTED } as Prisma.JsonValue } : now;
  });
}

export async function readRun(id: number, t: MessageTranslate, language: string): Promise<RunView | null> {
  const row = await prisma.backgroundRun.findUnique({ where: { id } });
  if (!row) return null;
  const [checked] = await withLiveness([row]);
  return viewOf(checked!, t, language);
}

/** How long a page still shows a run that has ended (after a reload, on another instance). */
export const ENDED_RUN_SHOWN_MS = 60 * 60 * 1000;

/** The run a page shows: the one going on of its kind, else the latest if it ended within `endedWithinMs`. */
export async function currentRun(kind: RunKind, t: MessageTranslate, language: string, endedWithinMs = ENDED_RUN_SHOWN_MS): Promise<RunView | null> {
  const running = await prisma.backgroundRun.findFirst({ where: { kind, status: "running" }, orderBy: { id: "desc" } });
  const row = running ?? (await prisma.backgroundRun.findFirst({ where: { kind }, orderBy: { id: "desc" } }));
  if (!row) return null;
  const [checked] = await withLiveness([row]);
  if (checked!.status !== "running" && (checked!.finished_at ?? checked!.started_at).getTime() < Date.now() - endedWithinMs) return null;
  return viewOf(checked!, t, language);
}

/** For a page loader: its kind's run, in the request's language. */
export function pageRun(kind: RunKind, context: { url: URL; t: MessageTranslate }): Promise<RunView | null> {
  return currentRun(kind, context.t, localeFromUrl(context.url));
}

interface StoredResult {
  error?: boolean;
  message?: unknown;
  detail?: unknown;
  data?: Record<string, unknown>;
}

function viewOf(row: BackgroundRun, t: MessageTranslate, language: string): RunView {
  const result = (row.result ?? null) as StoredResult | null;
  const ended = row.status !== "running";
  return {
    id: row.id,
    kind: row.kind,
    action: row.action,
    status: row.status as RunStatus,
    error: ended ? Boolean(result?.error ?? true) : null,
    message: ended ? renderMessage(t, language, result?.message ?? INTERRUPTED) || null : null,
    detail: ended && result?.detail ? renderMessage(t, language, result.detail) || null : null,
    progress: (row.progress ?? {}) as RunProgress,
    data: result?.data ?? {},
    params: (row.params ?? {}) as Record<string, unknown>,
    started_at: row.started_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

// eslint-disable-next-line no-control-regex -- NUL is the character replaced
const NUL = /\u0000/g;
// Plain JSON: dates as ISO text, bigints as text, no undefined, and no NUL
// (jsonb refuses it; staff can type one into a Tools path, which is refused).
function toJson(value: unknown): Prisma.InputJsonObject {
  return JSON.parse(
    JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? item.toString() : typeof item === "string" ? item.replace(NUL, "\uFFFD") : item)),
  );
}
