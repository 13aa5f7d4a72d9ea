// The process's Prometheus metrics (D88), served as text by GET /metrics
// (./http.server.ts; the jobs worker on METRICS_PORT, D89). Call sites use
// the small functions below, never prom-client itself. Every label is
// bounded: route ids (not URLs), feed names, vendor ids, operation names.
//
// On globalThis: the launcher and the Remix build each load this module, and
// both count into one registry.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { registeredPools, type PoolLike } from "./pools.server";

export type FeedOutcome = "finished" | "finished_with_errors" | "failed" | "skipped";
export type VendorFileEvent = "received" | "processed" | "failed" | "set_aside";
/** Why a Shopify call failed: an answer with userErrors, any other failure, or still throttled after the retries. */
export type ShopifyErrorKind = "user_errors" | "failed" | "throttled";

interface AppMetrics {
  registry: Registry;
  defaultsStarted: boolean;
  httpDuration: Histogram<"method" | "route" | "status">;
  feedRuns: Counter<"feed" | "outcome">;
  feedRunDuration: Histogram<"feed" | "outcome">;
  vendorFiles: Record<VendorFileEvent, Counter<"vendor">>;
  shopifyCalls: Counter<"operation">;
  shopifyThrottles: Counter<"operation">;
  shopifyErrors: Counter<"operation" | "kind">;
}

declare global {
  var __appMetrics: AppMetrics | undefined;
}

function createMetrics(): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  const vendorCounter = (event: VendorFileEvent, help: string) => new Counter({ name: `vendor_files_${event}_total`, help, labelNames: ["vendor"], registers });
  const poolGauge = (name: string, help: string, read: (pool: PoolLike) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"],
      registers,
      collect() {
        this.reset();
        for (const [pool, stats] of registeredPools()) this.set({ pool }, read(stats));
      },
    });
  poolGauge("db_pool_connections_in_use", "Connections of the pool lent out to a query or transaction now.", (pool) => pool.totalCount - pool.idleCount);
  poolGauge("db_pool_connections_idle", "Open connections of the pool waiting for work.", (pool) => pool.idleCount);
  poolGauge("db_pool_clients_waiting", "Queries or transactions waiting for a free connection of the pool.", (pool) => pool.waitingCount);
  poolGauge("db_pool_connections_max", "The pool's size (its most connections).", (pool) => pool.options.max ?? 10);
  return {
    registry,
    defaultsStarted: false,
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by method, route (the Remix route id) and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    feedRuns: new Counter({
      name: "feed_runs_total",
      help: "Feed runs ended in this process, by feed and outcome (finished, finished_with_errors, failed, skipped).",
      labelNames: ["feed", "outcome"],
      registers,
    }),
    feedRunDuration: new Histogram({
      name: "feed_run_duration_seconds",
      help: "How long feed runs took, by feed and outcome.",
      labelNames: ["feed", "outcome"],
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    }),
    vendorFiles: {
      received: vendorCounter("received", "Vendor files stored as new deliveries (from the vendor's server, or uploaded in Drop Ship Tools), by vendor id."),
      processed: vendorCounter("processed", "Stored vendor files read and applied, by vendor id."),
      failed: vendorCounter("failed", "Stored vendor files that could not be read or applied (the file's fault), by vendor id."),
      set_aside: vendorCounter("set_aside", "Stored vendor files set aside as failed after repeated unexpected errors (not the file's fault), by vendor id."),
    },
    shopifyCalls: new Counter({
      name: "shopify_calls_total",
      help: "Shopify Admin API calls made, by operation (each counted once, whatever its retries).",
      labelNames: ["operation"],
      registers,
    }),
    shopifyThrottles: new Counter({
      name: "shopify_throttles_total",
      help: "Answers refused for Shopify's rate limit (THROTTLED or HTTP 429), by operation; each is sent again after the wait unless the call gives up.",
      labelNames: ["operation"],
      registers,
    }),
    shopifyErrors: new Counter({
      name: "shopify_errors_total",
      help: "Shopify calls that failed, by operation and kind (user_errors, failed, throttled: still refused after the retries).",
      labelNames: ["operation", "kind"],
      registers,
    }),
  };
}

const metrics = (): AppMetrics => (globalThis.__appMetrics ??= createMetrics());

/** Node's own metrics (event-loop lag, memory, CPU, handles), from now on; once per process. */
export function startProcessMetrics(): void {
  const current = metrics();
  if (current.defaultsStarted) return;
  current.defaultsStarted = true;
  collectDefaultMetrics({ register: current.registry });
}

/** Everything, in the Prometheus text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  startProcessMetrics();
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}

export function observeHttpRequest(labels: { method: string; route: string; status: number | "aborted" }, seconds: number): void {
  metrics().httpDuration.observe({ method: labels.method, route: labels.route, status: String(labels.status) }, seconds);
}

export function countFeedRun(feed: string, outcome: FeedOutcome, seconds: number): void {
  const { feedRuns, feedRunDuration } = metrics();
  feedRuns.inc({ feed, outcome });
  feedRunDuration.observe({ feed, outcome }, seconds);
}

export function countVendorFile(event: VendorFileEvent, vendorId: number): void {
  metrics().vendorFiles[event].inc({ vendor: String(vendorId) });
}

export function countShopifyCall(operation: string): void {
  metrics().shopifyCalls.inc({ operation });
}

export function countShopifyThrottle(operation: string): void {
  metrics().shopifyThrottles.inc({ operation });
}

export function countShopifyError(operation: string, kind: ShopifyErrorKind): void {
  metrics().shopifyErrors.inc({ operation, kind });
}
