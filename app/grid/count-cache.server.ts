// Exact totals of large list results, computed in the background and kept for
// a short window (docs/decisions.md D18). A grid counts small results exactly
// on every request (a count over a LIMITed subquery); only a result above the
// cap asks this cache, so that a million-row count(*) is not paid per page.
// A figure is never served older than `ttlMs`; past `refreshAfterMs` it is
// recomputed in the background while it is still served.
import { logger } from "~/observability/logger.server";

const log = logger("count-cache");

export interface CountCacheOptions {
  /** A figure older than this is never served. */
  ttlMs: number;
  /** A figure older than this is recomputed in the background. */
  refreshAfterMs: number;
  /** Figures kept at most (the oldest go first). */
  maxEntries: number;
  /** Background counts running at once at most; more wait for a later request. */
  maxRunning: number;
}

interface Entry {
  total: number;
  at: number;
}

export class CountCache {
  private readonly entries = new Map<string, Entry>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly options: CountCacheOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** The exact total for `key` if it is fresh enough; refreshes it in the background when it ages. */
  lookup(key: string, count: () => Promise<number>): number | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    const age = this.now() - entry.at;
    if (age >= this.options.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    if (age >= this.options.refreshAfterMs) this.refresh(key, count);
    return entry.total;
  }

  /** Starts counting `key` in the background unless it is being counted already. */
  refresh(key: string, count: () => Promise<number>): Promise<void> | null {
    const inFlight = this.running.get(key);
    if (inFlight) return inFlight;
    if (this.running.size >= this.options.maxRunning) return null;
    const startedAt = this.now();
    const job = count()
      .then((total) => this.store(key, total, startedAt))
      .catch((error: unknown) => log.error({ err: error }, `counting failed for ${key.slice(0, 200)}`))
      .finally(() => this.running.delete(key));
    this.running.set(key, job);
    return job;
  }

  /** Records a total counted at `at` (the start of the count: its age is measured from there). */
  store(key: string, total: number, at = this.now()) {
    this.entries.delete(key);
    this.entries.set(key, { total, at });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Counts still running (tests and the bench wait for them). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  clear() {
    this.entries.clear();
  }
}
