// The one way the app talks to the Shopify Admin GraphQL API. Embedded mode
// goes through the template's authenticated (or offline-session) client; local
// mode and the tests go to the loopback stand-in (./stand-in.server.ts).
// Every call is recorded here, once, whatever the caller: an operation row, and
// an error row when it fails (./call-records.server.ts).
// Shopify's rate limit is met here too (D46): an answer refused for it
// (THROTTLED, HTTP 429) is sent again after the wait Shopify gave, and while a
// shop is throttled its calls go one at a time (./rate-limiter.server.ts).
import type { Staff } from "~/shopify/staff";
import { env } from "~/env.server";
import { countShopifyCall, countShopifyError, countShopifyThrottle } from "~/observability/metrics.server";
import { apiVersion, shopify } from "~/shopify.server";
import { recordShopifyCall, userErrorsIn } from "./call-records.server";
import type { AdminOperation } from "./operations";
import { shopLimiter, type CostExtension, type ShopBudget } from "./rate-limiter.server";

export class ShopifyApiError extends Error {
  constructor(
    readonly operation: string,
    readonly details: unknown,
  ) {
    super(`Shopify ${operation} failed: ${JSON.stringify(details)}`);
  }
}

/** Still refused for Shopify's rate limit after the attempts and the waiting allowed. */
export class ShopifyThrottledError extends ShopifyApiError {
  constructor(
    operation: string,
    details: unknown,
    readonly attempts: number,
    readonly elapsedMs: number,
    reason: string,
  ) {
    super(operation, details);
    this.name = "ShopifyThrottledError";
    this.message =
      `Throttled by Shopify: ${attempts} ${attempts === 1 ? "attempt" : "attempts"} over ` +
      `${(elapsedMs / 1000).toFixed(1)} s${reason ? `, ${reason}` : ""} (${operation})`;
  }
}

// Bounds of the retrying (D46). Six attempts over at most 30 s cover a
// bucket emptied by a burst (a standard plan's 2,000 points come back in
// 20 s); a call still refused then is stuck behind another client of the
// shop, and failing it is better than holding a staff request or a job.
export const MAX_ATTEMPTS = 6;
export const MAX_TOTAL_WAIT_MS = 30_000;
/** Never sooner than this: Shopify's figures are rounded, and the bucket refills continuously. */
export const MIN_RETRY_WAIT_MS = 200;
/** When the answer gives no wait (no cost extension, no Retry-After): the Shopify client library's own default. */
export const DEFAULT_RETRY_WAIT_MS = 1000;

type GraphqlTransport = (document: string, variables: unknown) => Promise<Response>;

/** What a call is about, for its record (the Product API Operations and Errors grids). */
export interface ShopifyCallContext {
  sku?: string | null;
  /**
   * The requested cost this call is expected to have, when the caller knows it better than the
   * last answer to its operation (a `nodes` query's cost grows with its ids).
   */
  cost?: number;
  /** Told the cost extension of the answer (requestedQueryCost, actualQueryCost, throttleStatus), when it has one. */
  onCost?: (cost: CostExtension) => void;
}

export interface ShopifyAdmin {
  run<V, R>(operation: AdminOperation<V, R>, variables: V, context?: ShopifyCallContext): Promise<R>;
  /** The shop's cost budget as this process sees it (./rate-limiter.server.ts); test doubles may leave it out. */
  readonly budget?: ShopBudget;
  /** The shop it calls; test doubles may leave it out. */
  readonly shop?: string;
}

/** One attempt's outcome. Only `throttled` is sent again: Shopify refused it before running anything. */
type Attempt =
  | { kind: "answered"; data: unknown; cost: CostExtension | undefined }
  | { kind: "throttled"; waitMs: number; answer: unknown; cost?: CostExtension }
  | { kind: "failed"; details: unknown; rethrow?: unknown; cost?: CostExtension };

const isThrottledError = (error: unknown) => (error as { extensions?: { code?: unknown } } | null)?.extensions?.code === "THROTTLED";

/** The wait the cost extension implies: what is missing of the requested cost, at the restore rate. */
function costWaitMs(cost: CostExtension | undefined): number | null {
  const status = cost?.throttleStatus;
  if (!status || typeof cost?.requestedQueryCost !== "number" || !(status.restoreRate > 0)) return null;
  return Math.ceil((Math.max(0, cost.requestedQueryCost - status.currentlyAvailable) / status.restoreRate) * 1000);
}

/** Retry-After in seconds (Shopify sends "2.0"); null when absent or not a number. */
function retryAfterMs(value: unknown): number | null {
  const seconds = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : null;
}

const waitOf = (given: number | null) => Math.max(MIN_RETRY_WAIT_MS, given ?? DEFAULT_RETRY_WAIT_MS);

/**
 * What the template's client throws (@shopify/shopify-api 13, unchanged in 15: D156): GraphqlQueryError
 * for an answer with errors (its body carries them and the cost extension);
 * HttpThrottlingError for a 429 (response.code, response.retryAfter) from
 * offline sessions; and in a signed-in request every HTTP error as a thrown
 * Response (its 401 re-authenticates the session: passed on untouched).
 */
function attemptOfThrown(error: unknown): Attempt {
  if (error instanceof Response) {
    if (error.status === 429) return { kind: "throttled", waitMs: waitOf(retryAfterMs(error.headers.get("retry-after"))), answer: { status: 429 } };
    return { kind: "failed", details: `HTTP ${error.status}`, rethrow: error.status === 401 ? error : undefined };
  }
  const httpResponse = (error as { response?: { code?: unknown; retryAfter?: unknown } } | null)?.response;
  if (httpResponse?.code === 429) return { kind: "throttled", waitMs: waitOf(retryAfterMs(httpResponse.retryAfter)), answer: { status: 429 } };
  const body = (error as { body?: { errors?: { graphQLErrors?: unknown[] }; extensions?: { cost?: CostExtension } } } | null)?.body;
  const graphQLErrors = body?.errors?.graphQLErrors;
  if (Array.isArray(graphQLErrors)) {
    const answer = { errors: graphQLErrors, extensions: body?.extensions };
    if (graphQLErrors.some(isThrottledError))
      return { kind: "throttled", waitMs: waitOf(costWaitMs(body?.extensions?.cost)), answer, cost: body?.extensions?.cost };
    return { kind: "failed", details: graphQLErrors };
  }
  if (typeof httpResponse?.code === "number") return { kind: "failed", details: `HTTP ${httpResponse.code}: ${(error as Error).message}` };
  return { kind: "failed", details: String(error) };
}

async function attempt(transport: GraphqlTransport, document: string, variables: unknown): Promise<Attempt> {
  let response: Response;
  try {
    response = await transport(document, variables);
  } catch (error) {
    return attemptOfThrown(error);
  }
  if (response.status === 429) {
    await response.body?.cancel();
    return { kind: "throttled", waitMs: waitOf(retryAfterMs(response.headers.get("retry-after"))), answer: { status: 429 } };
  }
  let body: { data?: unknown; errors?: unknown; extensions?: { cost?: CostExtension } };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    return { kind: "failed", details: `HTTP ${response.status}: the answer is not JSON` };
  }
  if (Array.isArray(body.errors) && body.errors.some(isThrottledError)) {
    return { kind: "throttled", waitMs: waitOf(costWaitMs(body.extensions?.cost)), answer: body, cost: body.extensions?.cost };
  }
  if (!response.ok || body.errors) return { kind: "failed", details: body.errors ?? response.status, cost: body.extensions?.cost };
  return { kind: "answered", data: body.data, cost: body.extensions?.cost };
}

function clientOver(shop: string, transport: GraphqlTransport): ShopifyAdmin {
  const limiter = shopLimiter(shop);
  return {
    budget: limiter,
    shop,
    async run(operation, variables, context) {
      const at = new Date();
      const started = performance.now();
      // Once per call, at its end: the records and the metrics (D88).
      const record = (ok: boolean, answer: unknown, message: string | null, attempts: number, failure: "user_errors" | "failed" | "throttled" = "failed") => {
        countShopifyCall(operation.name);
        if (!ok) countShopifyError(operation.name, failure);
        recordShopifyCall({
          operation: operation.name,
          sku: context?.sku,
          ok,
          message,
          variables,
          answer,
          at,
          durationMs: performance.now() - started,
          attempts,
        });
      };
      for (let attempts = 1; ; attempts += 1) {
        // A retry goes ahead of calls that have not started yet.
        const slot = await limiter.acquire({ retry: attempts > 1, operation: operation.name, cost: context?.cost });
        let outcome: Attempt;
        try {
          outcome = await attempt(transport, operation.document, variables);
        } catch (error) {
          slot.release();
          record(false, String(error), (error as Error).message, attempts);
          throw error;
        }
        if (outcome.kind === "answered") {
          slot.release({ answeredWith: outcome.cost });
          if (outcome.cost) context?.onCost?.(outcome.cost);
          // Shopify answers a refused mutation with 200 and userErrors: a failure for the records, data for the caller.
          const refused = userErrorsIn(outcome.data);
          record(!refused, outcome.data, refused, attempts, "user_errors");
          return outcome.data as never;
        }
        if (outcome.kind === "failed") {
          slot.release(outcome.cost ? { answeredWith: outcome.cost } : undefined);
          const error = new ShopifyApiError(operation.name, outcome.details);
          record(false, outcome.details, attempts > 1 ? `${error.message} (attempt ${attempts})` : error.message, attempts);
          throw outcome.rethrow ?? error;
        }
        // Throttled: the shop pauses for the wait (every caller of it) before the slot is freed, so none stampedes.
        // An hour's Retry-After pauses it no longer than a call may wait: the calls then fail fast, one by one.
        slot.release({ throttledFor: Math.min(outcome.waitMs, MAX_TOTAL_WAIT_MS), answeredWith: outcome.cost });
        countShopifyThrottle(operation.name);
        const elapsedMs = performance.now() - started;
        const overBudget = elapsedMs + outcome.waitMs > MAX_TOTAL_WAIT_MS;
        if (attempts >= MAX_ATTEMPTS || overBudget) {
          const reason = overBudget && attempts < MAX_ATTEMPTS ? `Shopify asked to wait ${(outcome.waitMs / 1000).toFixed(1)} s more` : "";
          const error = new ShopifyThrottledError(operation.name, outcome.answer, attempts, elapsedMs, reason);
          record(false, outcome.answer, error.message, attempts, "throttled");
          throw error;
        }
      }
    },
  };
}

function standInClient(shop: string): ShopifyAdmin {
  const base = env().SHOPIFY_STAND_IN_URL;
  if (!base) throw new Error("SHOPIFY_STAND_IN_URL is not set: the Shopify stand-in was not started.");
  return clientOver(shop, (query, variables) =>
    fetch(`${base}/admin/api/${apiVersion}/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": "local-mode" },
      body: JSON.stringify({ query, variables }),
    }),
  );
}

// The template's admin.graphql is called with no `tries`: its own client then
// retries nothing, and every throttled answer reaches clientOver.

/** The client for a signed-in request. */
export function shopifyAdminFor(staff: Staff): ShopifyAdmin {
  if (staff.mode === "local") return standInClient(staff.shop);
  return clientOver(staff.shop, (query, variables) => staff.admin.graphql(query, { variables: variables as Record<string, unknown> }));
}

/** The client for background jobs: the shop's offline session. */
export async function offlineShopifyAdmin(shop: string): Promise<ShopifyAdmin> {
  if (env().mode === "local") return standInClient(shop);
  const { admin } = await shopify().unauthenticated.admin(shop);
  return clientOver(shop, (query, variables) => admin.graphql(query, { variables: variables as Record<string, unknown> }));
}

/** The client over an admin context the template hands out outside a route (afterAuth, at install). */
export function shopifyAdminOver(
  shop: string,
  admin: { graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response> },
): ShopifyAdmin {
  return clientOver(shop, (query, variables) => admin.graphql(query, { variables: variables as Record<string, unknown> }));
}
