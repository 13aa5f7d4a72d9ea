// Runs started by Run Feed in this process, kept on globalThis: the launcher
// (server/main.ts) loads its own copy of the app's modules, not the Remix
// build's, and waits for these at shutdown. Each run carries its own way to
// be ended, from the runner copy that started it.

export interface ManualRun {
  feedName: string;
  controller: AbortController;
  /** Settles when the run has ended (never rejects). */
  done: Promise<unknown>;
  /** Ends the run with a failed log and frees its lock; returns how many it ended. */
  abandon(reason: string): Promise<number>;
}

declare global {
  var __manualFeedRuns: Set<ManualRun> | undefined;
}

export const manualRuns = (globalThis.__manualFeedRuns ??= new Set<ManualRun>());
export const MANUAL_RUN_SHUTDOWN_REASON = "stopped by shutdown before it finished";

export function trackManualRun(run: ManualRun) {
  manualRuns.add(run);
  void run.done.finally(() => manualRuns.delete(run));
}

/**
 * For shutdown: asks the runs started by Run Feed in this process to stop,
 * waits up to `graceMs`, then ends the rest as failed (their lock is freed).
 */
export async function stopManualFeedRuns(graceMs: number): Promise<void> {
  const runs = [...manualRuns];
  if (!runs.length) return;
  for (const run of runs) run.controller.abort(new Error("the app is stopping"));
  if (await allEndWithin(runs, graceMs)) return;
  await Promise.allSettled(runs.map((run) => run.abandon(MANUAL_RUN_SHUTDOWN_REASON)));
  // A run still taking its lock had nothing to abandon yet: shutdown does not wait for it forever.
  await allEndWithin(runs, graceMs);
}

async function allEndWithin(runs: ManualRun[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    Promise.allSettled(runs.map((run) => run.done)).then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return inTime;
}
