// What an operator sees of the running app (D85-D89), over real HTTP to the
// built app: one JSON line per request and per feed run with their ids,
// never a query string or a token, and /metrics with every family: open on
// loopback in local mode, behind METRICS_TOKEN in embedded mode, and on
// METRICS_PORT for the jobs worker.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { matchRoutes } from "@remix-run/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import prisma from "../../app/db.server";
import { runFeed } from "../../app/feeds/runner.server";
import { routeBranches, routeLabel } from "../../app/observability/http.server";
import { logger } from "../../app/observability/logger.server";
import { metricsText } from "../../app/observability/metrics.server";
import { captureLogs } from "../support/log-capture";
import { followRun } from "../support/runs";
import { freePort, startAppServer, type RunningApp } from "../support/app-server";
import { sessionToken, startEmbeddedApp, EMBEDDED, type EmbeddedApp } from "../support/embedded-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { until } from "../support/until";

const FEED = "realtime_as400_export"; // without AS400_HOST its job only counts realtime log rows
const METRICS_TOKEN = "metrics-token-for-the-tests-0123456789abcdef";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0";

type Line = Record<string, unknown>;
const jsonLines = (output: string): Line[] =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);

/** node:http, not fetch: fetch does not let a caller choose the Host header. */
function getWithHost(url: string, host: string): Promise<number> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: hostname, port, path: pathname, headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    call.on("error", reject);
    call.end();
  });
}

/** Each family /metrics must have, whatever happened: its HELP line. */
const FAMILIES = [
  "http_request_duration_seconds",
  "feed_runs_total",
  "feed_run_duration_seconds",
  "vendor_files_received_total",
  "vendor_files_processed_total",
  "vendor_files_failed_total",
  "vendor_files_set_aside_total",
  "shopify_calls_total",
  "shopify_throttles_total",
  "shopify_errors_total",
  "db_pool_connections_in_use",
  "db_pool_connections_idle",
  "db_pool_clients_waiting",
  "db_pool_connections_max",
  "nodejs_eventloop_lag_seconds",
];
const expectFamilies = (body: string) => {
  for (const family of FAMILIES) expect(body, family).toMatch(new RegExp(`^# HELP ${family} `, "m"));
};

describe("route labels", () => {
  it("name the same route as react-router's matching, for every route of the build and paths that match none", async () => {
    type Entry = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; parentId?: string };
    const build = (await import(path.resolve("build/server/index.js"))) as { routes: Record<string, Entry> };
    type Node = Entry & { children: Node[] };
    const nodes = new Map(Object.values(build.routes).map((route) => [route.id, { ...route, children: [] as Node[] }]));
    const tree = [...nodes.values()].filter((node) => {
      if (node.parentId) nodes.get(node.parentId)!.children.push(node);
      return !node.parentId;
    });
    const full = (id: string): string => {
      const route = build.routes[id]!;
      return [route.parentId ? full(route.parentId) : "", route.path ?? ""].filter(Boolean).join("/");
    };
    const paths = Object.values(build.routes).flatMap((route) => {
      const filled = `/${full(route.id)}`.replace(/:\w+/g, "42").replace(/\*$/, "no/such/page");
      return [filled, `${filled}/`, filled.toUpperCase()];
    });
    paths.push("/", "/api/feed/1/2/3", "/api/nothing-here", "/auth", "/auth/session-token", "/webhooks/unknown", "//api//feed");
    const branches = routeBranches(build.routes);
    const labels = new Set<string>();
    for (const pathname of paths) {
      const expected = (matchRoutes(tree as never, pathname) as Array<{ route: Entry }> | null)?.at(-1)?.route.id ?? "unmatched";
      expect(routeLabel(pathname, branches), pathname).toBe(expected);
      labels.add(expected);
    }
    // Nearly every route names itself (layouts without a path of their own cannot).
    expect(labels.size).toBeGreaterThan(Object.keys(build.routes).length * 0.9);
  });
});

describe("feed runs, in this process", () => {
  const PREFIX = "obs_run_";
  afterAll(async () => {
    await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
    await prisma.feed.deleteMany({ where: { name: { startsWith: PREFIX } } });
  });

  it("gives what a job logs its feed and run id, and ends a run that threw with one error line and a failed count", async () => {
    const logs = captureLogs();
    try {
      const feed = `${PREFIX}breaks`;
      const result = await runFeed(feed, async () => {
        logger("test-job").error({ err: new Error("a vendor's server said no") }, "step failed");
        throw new Error("the job gave up");
      });
      expect(result.status).toBe("failed");
      const runId = logs.lines.find((line) => line.component === "test-job")?.run_id;
      const starting = await prisma.feedLog.findFirstOrThrow({ where: { feed_name: feed, type: "starting" } });
      expect(runId).toBe(starting.id);
      expect(logs.lines.find((line) => line.component === "test-job")).toMatchObject({ level: "error", feed, err: { message: "a vendor's server said no" } });
      const end = logs.lines.filter((line) => line.component === "feeds" && line.feed === feed);
      expect(end).toHaveLength(1);
      expect(end[0]).toMatchObject({ level: "error", run_id: starting.id, outcome: "failed", counts: {}, duration_ms: expect.any(Number) });
      expect((await metricsText()).body).toMatch(new RegExp(`^feed_runs_total\\{feed="${feed}",outcome="failed"\\} 1$`, "m"));

      const counted = `${PREFIX}counts`;
      await runFeed(counted, async () => ({ message: "3 files", error: true, meta: { files: 3, rows: 120, problems: ["one"] } }));
      expect(logs.lines.find((line) => line.component === "feeds" && line.feed === counted)).toMatchObject({
        level: "warn",
        outcome: "finished_with_errors",
        counts: { files: 3, rows: 120 },
      });
    } finally {
      logs.restore();
    }
  });
});

describe("local mode", () => {
  let app: RunningApp;
  let db: ReturnType<typeof createPrismaClient>;
  let database: TestDatabase;

  beforeAll(async () => {
    if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
    // A database of its own: other files running at once may run the same feed on the shared one, and its lock would refuse Run Feed here.
    database = await createTestDatabase("observability");
    db = createPrismaClient(database.url, 2);
    app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", LOG_FORMAT: "json" });
    // Run Feed runs feeds that have a row (the app's start made the registry's rows).
    await db.feed.upsert({ where: { name: FEED }, update: {}, create: { name: FEED, cron_expression: "0 0 * * *", enabled: 0 } });
  }, 150_000);
  afterAll(async () => {
    await app?.stop();
    await db?.$disconnect();
    await database?.dispose();
  });

  it("writes one line per request: method, route, status, duration, request id and shop, never the query string", async () => {
    const response = await fetch(`${app.url}/api/dropship_log?page=1&id_token=SECRET-ID-TOKEN&hmac=SECRET-HMAC`, { headers: { "x-request-id": "obs-test-1" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("obs-test-1");
    const line = (await until(
      () => jsonLines(app.output()).find((entry) => entry.request_id === "obs-test-1" && entry.component === "http"),
      Boolean,
      "the request's line",
    ))!;
    expect(line).toMatchObject({
      level: "info",
      method: "GET",
      route: "routes/api.dropship_log",
      status: 200,
      request_id: "obs-test-1",
      shop: "demo-shop.myshopify.com",
      msg: expect.stringMatching(/^GET routes\/api\.dropship_log 200 \d+ ms$/),
    });
    expect(line.duration_ms).toEqual(expect.any(Number));
    expect(typeof line.time).toBe("string");
    expect(app.output()).not.toContain("SECRET-ID-TOKEN");
    expect(app.output()).not.toContain("SECRET-HMAC");
  });

  it("gives a request without a usable X-Request-Id one of its own", async () => {
    for (const given of [undefined, "not a request id", "x".repeat(101)]) {
      const response = await fetch(`${app.url}/healthz`, { headers: given ? { "x-request-id": given } : {} });
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it("writes one line at the end of a feed run: feed, run id, outcome, counts, duration, and the request that started it", async () => {
    const response = await fetch(`${app.url}/api/feed_run?feed_name=${FEED}`, { method: "POST", headers: { "x-request-id": "obs-feed-run" } });
    // Run Feed starts a background run (D93): followed to its end as the page does.
    const run = await followRun(app.url, response);
    expect(run.startStatus).toBe(202);
    expect(run.body.error, JSON.stringify(run.body)).toBe(false);
    const line = (await until(
      () => jsonLines(app.output()).find((entry) => entry.component === "feeds" && entry.feed === FEED && entry.request_id === "obs-feed-run"),
      Boolean,
      "the run's line",
    ))!;
    expect(line).toMatchObject({ feed: FEED, outcome: expect.stringMatching(/^finished/), counts: expect.any(Object), duration_ms: expect.any(Number) });
    // The run id is the run's starting log, as Feed Logs shows it.
    const starting = await db.feedLog.findUnique({ where: { id: line.run_id as number } });
    expect(starting).toMatchObject({ feed_name: FEED, type: "starting" });
  });

  it("answers /metrics on loopback without a token, with every family and what the request and the run did", async () => {
    const response = await fetch(`${app.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const body = await response.text();
    expectFamilies(body);
    expect(body).toMatch(/^http_request_duration_seconds_count\{method="GET",route="routes\/api\.dropship_log",status="200"\} \d+$/m);
    expect(body).toMatch(new RegExp(`^feed_runs_total\\{feed="${FEED}",outcome="finished[a-z_]*"\\} \\d+$`, "m"));
    expect(body).toMatch(new RegExp(`^feed_run_duration_seconds_count\\{feed="${FEED}",outcome="finished[a-z_]*"\\} \\d+$`, "m"));
    // location_sync ran at the start against the Shopify stand-in.
    expect(body).toMatch(/^shopify_calls_total\{operation="\w+"\} \d+$/m);
    expect(body).toMatch(/^db_pool_connections_in_use\{pool="web"\} \d+$/m);
    expect(body).toMatch(/^db_pool_clients_waiting\{pool="jobs"\} \d+$/m);
    expect(body).toMatch(/^db_pool_connections_max\{pool="web"\} 10$/m);
    // No URL is a label: only route ids.
    expect(body).not.toContain("page=1");
    expect(body).not.toMatch(/route="\/api/);
  });

  it("refuses /metrics to a foreign Host header, like every path in local mode", async () => {
    expect(await getWithHost(`${app.url}/metrics`, "evil.example.com")).toBe(403);
  });
});

describe("embedded mode", () => {
  let app: EmbeddedApp;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("observe-embedded");
    app = await startEmbeddedApp({ databaseUrl: database.url, env: { METRICS_TOKEN } });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await database?.dispose();
  });

  it("answers /metrics only with the token", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-of-the-same-length-0123456789ab", `Basic ${METRICS_TOKEN}`]) {
      const response = await fetch(`${app.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(401);
      expect(await response.text()).not.toContain("# HELP");
    }
    const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expectFamilies(await response.text());
  });

  it("logs JSON by default, with the shop once the session token is checked, and neither token", async () => {
    const token = sessionToken();
    const response = await fetch(`${app.url}/api/dropship_log`, {
      headers: { authorization: `Bearer ${token}`, "x-request-id": "obs-embedded-1", "user-agent": BROWSER },
    });
    expect(response.status).toBe(200);
    const line = await until(
      () => jsonLines(app.output()).find((entry) => entry.request_id === "obs-embedded-1" && entry.component === "http"),
      Boolean,
      "the request's line",
    );
    expect(line).toMatchObject({ method: "GET", route: "routes/api.dropship_log", status: 200, shop: EMBEDDED.shop });
    await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(app.output()).not.toContain(token);
    expect(app.output()).not.toContain(METRICS_TOKEN);
  });
});

describe("the jobs worker", () => {
  let worker: ChildProcess | undefined;
  let output = "";
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase("observe-jobs");
  }, 60_000);
  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker!.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await database?.dispose();
  });

  it("serves /metrics on METRICS_PORT", async () => {
    const port = await freePort();
    worker = spawn(process.execPath, ["--import", "tsx", "jobs/main.ts"], {
      env: { ...process.env, NODE_ENV: "test", DATABASE_URL: database.url, METRICS_PORT: String(port), LOG_FORMAT: "json" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (chunk) => (output += chunk));
    worker.stderr!.on("data", (chunk) => (output += chunk));
    await until(
      () => output,
      (text) => text.includes("/metrics"),
      "the worker's metrics listener",
    );
    const line = jsonLines(output).find((entry) => String(entry.msg).startsWith("metrics: GET"));
    expect(line).toMatchObject({ component: "jobs", msg: `metrics: GET http://127.0.0.1:${port}/metrics` });

    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const body = await response.text();
    expectFamilies(body);
    expect(body).toMatch(/^db_pool_connections_max\{pool="jobs"\} 10$/m);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect(await getWithHost(`http://127.0.0.1:${port}/metrics`, "evil.example.com")).toBe(403);
  });
});
