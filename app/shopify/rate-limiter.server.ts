// How many Admin API calls of one shop are in flight (D46, D130). Shopify's
// limit is a bucket of query cost per app and shop: a call is admitted when
// the bucket holds its requested cost, the difference to its actual cost is
// given back after it ran, and the bucket refills at the restore rate. Every
// answer says where the bucket stands (`extensions.cost.throttleStatus`), so
// this limiter keeps the latest figures and lets calls go while the cost of
// what is in flight fits in what the bucket holds by now:
// - before the first answer of a shop it knows nothing: a few calls at once;
// - then as many as the budget allows (each call reserves its requested cost,
//   the last one Shopify reported for that operation unless the caller names
//   it), never more than MAX_CONCURRENCY;
// - once Shopify answers THROTTLED (or 429), every caller of that shop pauses
//   for the wait and then goes one at a time until the bucket is half full
//   again: callers each retrying on their own would empty it again at once.
// Per process: instances share Shopify's bucket, and the retrying in
// ./admin-client.server.ts covers what one process cannot see. The reserved
// costs count twice what Shopify already took for calls still in flight,
// which errs on the safe side.

/** Shopify's `extensions.cost` of a GraphQL answer. */
export interface CostExtension {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** In flight before any answer has told the shop's budget: Shopify allows short bursts. */
export const NORMAL_CONCURRENCY = 4;
/** In flight at most, however large the budget: beyond this, waiting on the restore rate is what bounds a run anyway. */
export const MAX_CONCURRENCY = 32;
export const THROTTLED_CONCURRENCY = 1;
/** Back to normal once an answer shows the bucket at least this full again, */
export const RECOVERED_FRACTION = 0.5;
/** or, for answers without a cost extension, after this many in a row. */
export const RECOVER_AFTER_SUCCESSES = 4;
/** What a call is taken to cost until Shopify has reported its operation's cost: a mutation's. */
export const DEFAULT_CALL_COST = 10;

export interface Slot {
  /** Frees the slot; a throttled answer first pauses the shop and drops its concurrency, an answer may restore it. */
  release(outcome?: { throttledFor?: number; answeredWith?: CostExtension }): void;
}

/** What a shop's limiter knows of the shop's budget, for callers that size their work by it. */
export interface ShopBudget {
  /**
   * How many calls of this cost fit in the budget now, less what is in flight: 1 to
   * MAX_CONCURRENCY (NORMAL_CONCURRENCY before any answer, 1 while throttled).
   */
  room(cost: number): number;
  /** The requested cost Shopify reported for the last answer to this operation. */
  requestedCost(operation: string): number | undefined;
  /** The bucket's size, once an answer has told it. */
  maximumAvailable(): number | undefined;
}

interface Waiter {
  cost: number;
  operation: string;
  grant: (slot: Slot) => void;
}

interface Bucket {
  maximumAvailable: number;
  restoreRate: number;
  /** What Shopify last said was available, and when we heard it. */
  available: number;
  atMs: number;
}

class ShopLimiter implements ShopBudget {
  private inFlight = 0;
  /** The requested costs of the calls in flight. */
  private reserved = 0;
  private throttledMode = false;
  private pausedUntil = 0;
  private answersSinceThrottle = 0;
  private bucket: Bucket | null = null;
  private readonly costs = new Map<string, number>();
  private readonly waiting: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Most calls in flight at once, and most cost reserved at once (tests read them). */
  peak = { inFlight: 0, reserved: 0 };

  acquire(options: { retry?: boolean; operation?: string; cost?: number } = {}): Promise<Slot> {
    const operation = options.operation ?? "";
    const cost = Math.max(1, options.cost ?? this.costs.get(operation) ?? DEFAULT_CALL_COST);
    return new Promise((resolve) => {
      const waiter = { cost, operation, grant: resolve };
      if (options.retry) this.waiting.unshift(waiter);
      else this.waiting.push(waiter);
      this.pump();
    });
  }

  room(cost: number): number {
    if (this.throttledMode) return THROTTLED_CONCURRENCY;
    if (!this.bucket) return NORMAL_CONCURRENCY;
    const fits = Math.floor((this.estimate() - this.reserved) / Math.max(1, cost));
    return Math.min(MAX_CONCURRENCY, Math.max(1, fits));
  }

  requestedCost(operation: string): number | undefined {
    return this.costs.get(operation);
  }

  maximumAvailable(): number | undefined {
    return this.bucket?.maximumAvailable;
  }

  /** What the bucket holds by now: the last figure, refilled since at the restore rate. */
  private estimate(now = performance.now()): number {
    const bucket = this.bucket!;
    return Math.min(bucket.maximumAvailable, bucket.available + ((now - bucket.atMs) / 1000) * bucket.restoreRate);
  }

  private slot(waiter: Waiter): Slot {
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        // Before the slot is freed: a waiter woken by it must already see the throttle and the new figures.
        this.learn(waiter.operation, outcome?.answeredWith);
        if (outcome?.throttledFor !== undefined) this.throttled(outcome.throttledFor);
        else if (outcome && "answeredWith" in outcome) this.answered(outcome.answeredWith);
        this.inFlight -= 1;
        this.reserved -= waiter.cost;
        this.pump();
      },
    };
  }

  private learn(operation: string, cost: CostExtension | undefined) {
    const status = cost?.throttleStatus;
    if (status && status.maximumAvailable > 0 && status.restoreRate > 0) {
      // Answers may come back in another order than Shopify wrote them: a figure above what the last one,
      // refilled since, allows is an older one (or a refund this process cannot place), and is not believed.
      const now = performance.now();
      const available = this.bucket ? Math.min(this.estimate(now), status.currentlyAvailable) : status.currentlyAvailable;
      this.bucket = { maximumAvailable: status.maximumAvailable, restoreRate: status.restoreRate, available, atMs: now };
    }
    if (operation && typeof cost?.requestedQueryCost === "number" && cost.requestedQueryCost > 0) this.costs.set(operation, cost.requestedQueryCost);
  }

  private throttled(waitMs: number) {
    this.throttledMode = true;
    this.answersSinceThrottle = 0;
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + waitMs);
  }

  private answered(cost: CostExtension | undefined) {
    if (!this.throttledMode) return;
    const status = cost?.throttleStatus;
    this.answersSinceThrottle += 1;
    const recovered = status ? status.currentlyAvailable >= RECOVERED_FRACTION * status.maximumAvailable : this.answersSinceThrottle >= RECOVER_AFTER_SUCCESSES;
    if (recovered) this.throttledMode = false;
  }

  /** 0 when the next waiter may go now; otherwise ms until the budget would hold it (Infinity: only an answer can help). */
  private waitFor(next: Waiter, now: number): number {
    if (this.throttledMode) return this.inFlight < THROTTLED_CONCURRENCY ? 0 : Infinity;
    if (!this.bucket) return this.inFlight < NORMAL_CONCURRENCY ? 0 : Infinity;
    if (this.inFlight >= MAX_CONCURRENCY) return Infinity;
    // A call larger than the whole bucket goes once the bucket is full and nothing else is in flight.
    const need = Math.min(next.cost, this.bucket.maximumAvailable) + this.reserved;
    const missing = need - this.estimate(now);
    if (missing <= 0) return 0;
    if (need > this.bucket.maximumAvailable) return Infinity;
    return (missing / this.bucket.restoreRate) * 1000;
  }

  private pump() {
    const now = performance.now();
    const pausedFor = this.pausedUntil - now;
    if (pausedFor > 0) return this.wake(pausedFor);
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      const wait = this.waitFor(next, now);
      if (wait > 0) {
        // Freed slots pump again; a budget that only needs time to refill wakes itself.
        if (Number.isFinite(wait)) this.wake(wait);
        return;
      }
      this.waiting.shift();
      this.inFlight += 1;
      this.reserved += next.cost;
      this.peak = { inFlight: Math.max(this.peak.inFlight, this.inFlight), reserved: Math.max(this.peak.reserved, this.reserved) };
      next.grant(this.slot(next));
    }
  }

  private wake(afterMs: number) {
    // Timers may fire a little early: pump checks the clock again.
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.ceil(afterMs));
  }
}

declare global {
  // One limiter per shop and process: the Remix build and server/main.ts (jobs) load this module separately.
  var __shopifyLimiters: Map<string, ShopLimiter> | undefined;
}
const limiters = (globalThis.__shopifyLimiters ??= new Map());

export function shopLimiter(shop: string): ShopLimiter {
  let limiter = limiters.get(shop);
  if (!limiter) limiters.set(shop, (limiter = new ShopLimiter()));
  return limiter;
}
