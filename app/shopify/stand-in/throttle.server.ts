// Rate limits as Shopify applies them, for the stand-in (../stand-in.server.ts, D47, D130).
import { z } from "zod";

// Rate limits as Shopify applies them: a leaky bucket of query cost per app
// and shop (THROTTLED with the cost extension when a request costs more than
// is available), and HTTP 429 with Retry-After. By default the bucket is not
// metered (answers report an idle shop's cost) so that tests and local mode
// never wait; POST /__throttle meters it or queues 429s.

/** POST /__throttle body. */
export const throttleControl = z
  .object({
    /** Meter a bucket: Shopify's throttleStatus numbers (points, points a second); it starts full unless currentlyAvailable is given. */
    bucket: z
      .object({ maximumAvailable: z.number().positive(), restoreRate: z.number().positive(), currentlyAvailable: z.number().min(0).optional() })
      .strict()
      .optional(),
    /** The next `times` requests answer 429 with this Retry-After. */
    http429: z
      .object({ times: z.number().int().min(0), retryAfterSeconds: z.number().min(0).default(2) })
      .strict()
      .optional(),
    /** Hold each answer this long, so that overlapping requests show in `inFlight`. */
    latencyMs: z.number().int().min(0).max(10_000).optional(),
  })
  .strict();
export type ThrottleControl = z.input<typeof throttleControl>;

/** An idle shop on a standard plan, as reported when the bucket is not metered. */
export const IDLE_BUCKET = { maximumAvailable: 2000, restoreRate: 100 };

/**
 * Roughly Shopify's calculated cost: a mutation 10, a query 1 plus 2 + `first` per connection (nesting not multiplied).
 * `nodes(ids:)` costs what one node's selection costs, once per id, plus 1.
 */
export function requestedQueryCost(document: string, variables: Record<string, unknown> = {}): number {
  if (/^\s*(?:#[^\n]*\s*)*mutation\b/.test(document)) return 10;
  let cost = 1;
  for (const match of document.matchAll(/\bfirst:\s*(\d+)/g)) cost += 2 + Number(match[1]);
  const ids = nodesIds(document, variables);
  return ids ? 1 + ids.length * cost : cost;
}

/** The ids of a `nodes(ids: $variable)` query, or null for any other document. */
export function nodesIds(document: string, variables: Record<string, unknown>): unknown[] | null {
  const match = /\bnodes\s*\(\s*ids:\s*\$(\w+)\s*\)/.exec(document);
  if (!match) return null;
  const ids = variables[match[1]];
  return Array.isArray(ids) ? ids : [];
}

/** What a `nodes` answer actually cost: 1, and per node returned each object in it (Shopify refunds the rest of the requested cost). */
export function actualNodesCost(data: unknown): number {
  const count = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((sum: number, each) => sum + count(each), 0);
    if (!value || typeof value !== "object") return 0;
    const own = "id" in value || "number" in value ? 1 : 0;
    return own + Object.values(value).reduce((sum: number, each) => sum + count(each), 0);
  };
  return 1 + count((data as { nodes?: unknown } | null)?.nodes ?? []);
}

/** Shopify refuses a single query that would cost more than this, whatever the bucket holds. */
export const MAX_SINGLE_QUERY_COST = 1000;

type Gate =
  | { kind: "http429"; retryAfterSeconds: number }
  | { kind: "throttled"; cost: unknown; waitMs: number }
  | { kind: "too_costly"; requested: number }
  | { kind: "admitted"; cost: unknown; requested: number };

export function createThrottle() {
  let bucket = { ...IDLE_BUCKET, metered: false, available: IDLE_BUCKET.maximumAvailable, atMs: performance.now() };
  const http429 = { remaining: 0, retryAfterSeconds: 2 };
  let latencyMs = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const refill = () => {
    const now = performance.now();
    bucket.available = Math.min(bucket.maximumAvailable, bucket.available + ((now - bucket.atMs) / 1000) * bucket.restoreRate);
    bucket.atMs = now;
  };
  const throttleStatus = (available: number) => ({
    maximumAvailable: bucket.maximumAvailable,
    currentlyAvailable: Math.floor(available),
    restoreRate: bucket.restoreRate,
  });
  const reset = () => {
    bucket = { ...IDLE_BUCKET, metered: false, available: IDLE_BUCKET.maximumAvailable, atMs: performance.now() };
    Object.assign(http429, { remaining: 0, retryAfterSeconds: 2 });
    latencyMs = 0;
    maxInFlight = inFlight;
  };
  return {
    /** A GraphQL request arrived; answers how many are in flight with it. */
    enter() {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return inFlight;
    },
    leave() {
      inFlight -= 1;
    },
    /** Decides, before anything runs, whether this request goes through; takes its cost from the bucket when it does. */
    admit(document: string, variables: Record<string, unknown> = {}): Gate {
      if (http429.remaining > 0) {
        http429.remaining -= 1;
        return { kind: "http429", retryAfterSeconds: http429.retryAfterSeconds };
      }
      const requested = requestedQueryCost(document, variables);
      if (requested > MAX_SINGLE_QUERY_COST) return { kind: "too_costly", requested };
      if (!bucket.metered) {
        return {
          kind: "admitted",
          requested,
          cost: { requestedQueryCost: requested, actualQueryCost: requested, throttleStatus: throttleStatus(bucket.maximumAvailable - requested) },
        };
      }
      refill();
      if (bucket.available < requested) {
        const reported = throttleStatus(bucket.available);
        const waitMs = ((requested - reported.currentlyAvailable) / bucket.restoreRate) * 1000;
        return { kind: "throttled", waitMs, cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: reported } };
      }
      bucket.available -= requested;
      return {
        kind: "admitted",
        requested,
        cost: { requestedQueryCost: requested, actualQueryCost: requested, throttleStatus: throttleStatus(bucket.available) },
      };
    },
    /** After a call ran: gives back what was requested beyond its actual cost, and answers the cost extension to report. */
    settle(requested: number, actual: number) {
      if (!bucket.metered) return { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(bucket.maximumAvailable - actual) };
      refill();
      bucket.available = Math.min(bucket.maximumAvailable, bucket.available + Math.max(0, requested - actual));
      return { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(bucket.available) };
    },
    /** The figures of an answer refused before it ran. */
    statusNow() {
      if (bucket.metered) refill();
      return throttleStatus(bucket.metered ? bucket.available : bucket.maximumAvailable);
    },
    delay: () => (latencyMs ? new Promise((resolve) => setTimeout(resolve, latencyMs)) : Promise.resolve()),
    configure(control: z.output<typeof throttleControl>) {
      if (control.bucket) {
        const { maximumAvailable, restoreRate, currentlyAvailable } = control.bucket;
        bucket = {
          maximumAvailable,
          restoreRate,
          metered: true,
          available: Math.min(maximumAvailable, currentlyAvailable ?? maximumAvailable),
          atMs: performance.now(),
        };
      }
      if (control.http429) Object.assign(http429, { remaining: control.http429.times, retryAfterSeconds: control.http429.retryAfterSeconds });
      if (control.latencyMs !== undefined) latencyMs = control.latencyMs;
    },
    reset,
    status() {
      if (bucket.metered) refill();
      return {
        bucket: { metered: bucket.metered, ...throttleStatus(bucket.available) },
        http429Remaining: http429.remaining,
        latencyMs,
        inFlight,
        maxInFlight,
      };
    },
  };
}

export const THROTTLED_ERROR = { message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } };
export const HTTP_429_BODY = { errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." };
