// How many Admin API calls of one shop are in flight (D46). Shopify's limit
// is a bucket of query cost per app and shop: a few calls at once are fine,
// but once it answers THROTTLED (or 429) every caller of that shop pausing
// for the wait and then going one at a time is what lets the bucket refill;
// callers each retrying on their own would empty it again at once.
// Per process: instances share Shopify's bucket, and the retrying in
// ./admin-client.server.ts covers what one process cannot see.

/** Shopify's `extensions.cost` of a GraphQL answer. */
export interface CostExtension {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** As many as the drop-ship flow's workers (app/dropship/flow/shopify-sync.server.ts): Shopify allows short bursts. */
export const NORMAL_CONCURRENCY = 4;
export const THROTTLED_CONCURRENCY = 1;
/** Back to normal once an answer shows the bucket at least this full again, */
export const RECOVERED_FRACTION = 0.5;
/** or, for answers without a cost extension, after this many in a row. */
export const RECOVER_AFTER_SUCCESSES = 4;

export interface Slot {
  /** Frees the slot; a throttled answer first pauses the shop and drops its concurrency, an answer may restore it. */
  release(outcome?: { throttledFor?: number; answeredWith?: CostExtension }): void;
}

class ShopLimiter {
  private inFlight = 0;
  private limit = NORMAL_CONCURRENCY;
  private pausedUntil = 0;
  private answersSinceThrottle = 0;
  private readonly waiting: Array<() => void> = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  acquire(options: { retry?: boolean } = {}): Promise<Slot> {
    return new Promise((resolve) => {
      const grant = () => resolve(this.slot());
      if (options.retry) this.waiting.unshift(grant);
      else this.waiting.push(grant);
      this.pump();
    });
  }

  private slot(): Slot {
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        // Before the slot is freed: a waiter woken by it must already see the throttle.
        if (outcome?.throttledFor !== undefined) this.throttled(outcome.throttledFor);
        else if (outcome && "answeredWith" in outcome) this.answered(outcome.answeredWith);
        this.inFlight -= 1;
        this.pump();
      },
    };
  }

  private throttled(waitMs: number) {
    this.limit = THROTTLED_CONCURRENCY;
    this.answersSinceThrottle = 0;
    this.pausedUntil = Math.max(this.pausedUntil, performance.now() + waitMs);
  }

  private answered(cost: CostExtension | undefined) {
    if (this.limit === NORMAL_CONCURRENCY) return;
    const status = cost?.throttleStatus;
    this.answersSinceThrottle += 1;
    const recovered = status
      ? status.currentlyAvailable >= RECOVERED_FRACTION * status.maximumAvailable
      : this.answersSinceThrottle >= RECOVER_AFTER_SUCCESSES;
    if (recovered) this.limit = NORMAL_CONCURRENCY;
  }

  private pump() {
    const pausedFor = this.pausedUntil - performance.now();
    if (pausedFor > 0) {
      // Timers may fire a little early: pump checks the clock again.
      this.timer ??= setTimeout(() => {
        this.timer = null;
        this.pump();
      }, Math.ceil(pausedFor));
      return;
    }
    while (this.waiting.length > 0 && this.inFlight < this.limit) {
      this.inFlight += 1;
      this.waiting.shift()!();
    }
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
