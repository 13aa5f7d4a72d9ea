// The web process: `npm run serve` runs it built (build/processes/web.js, what
// the image runs), `npm start` builds first, `npm run dev` runs this file
// through tsx with Vite. Everything the app needs, in order:
//   1. read and check the environment (a clear list of what is wrong, or stop)
//   2. embedded PostgreSQL under DATA_DIR when DATABASE_URL is unset
//   3. apply pending migrations
//   4. local mode: seed demo data into an empty database, start the Shopify stand-in
//      (answering from the database's orders and the demo shop's locations), run
//      location_sync once (the locations become the stores), and the demo vendor
//      (loopback SFTP and a simulated vendor that answers our 850s; it also plays the AS400)
//   5. the feed scheduler, unless SCHEDULER=0 (then `npm run jobs` runs it)
//   6. serve the Remix app (built, or through Vite with --dev), behind the request guard
// SIGINT/SIGTERM (D68): stop listening at once; requests in flight and running
// feeds (told to stop at a safe point) get SHUTDOWN_GRACE_MS together; what is
// left then is cut (connections closed, runs logged failed and their locks
// freed); then the rest, PostgreSQL last. Exit 0.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { existsSync } from "node:fs";
import { constants as zlib } from "node:zlib";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { parseEnvOrExit, reloadEnv } from "../app/env.server";
import { requestGuard } from "../app/lib/request-guard.server";
import { embeddedPostgresInstalled, openLocalDatabase } from "../app/db/embedded-postgres.server";
import { applyMigrations } from "../app/db/migrate.server";
import { createPrismaClient } from "../app/db/client.server";
import { disconnectPrisma, runAsWebRequest } from "../app/db.server";
import { databaseCatalog } from "../app/shopify/stand-in-catalog.server";
import { requestedScopes } from "../app/shopify/access-scopes";
import { startShopifyStandIn } from "../app/shopify/stand-in.server";
import { observeRequests } from "../app/observability/http.server";
import { logger } from "../app/observability/logger.server";
import { metricsRoute } from "../app/observability/metrics-endpoint.server";
import { startProcessMetrics } from "../app/observability/metrics.server";
import { localeFiles } from "../app/i18n/locale-files.server";
import { bodyLimit } from "./body-limit";

const startLog = logger("start");
const log = (message: string) => startLog.info(message);
const dev = process.argv.includes("--dev");

async function main() {
  const env = parseEnvOrExit();
  startProcessMetrics();

  // Closed after the grace, last one first (PostgreSQL was the first).
  const stops: Array<() => Promise<void>> = [];
  // Given the moment the grace ends: the HTTP server and the feed runs, all at once.
  const drains: Array<(deadline: number) => Promise<void>> = [];
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = env.SHUTDOWN_GRACE_MS;
    log(`${signal}: stopping: no new connections; requests in flight and running feeds get ${graceMs} ms`);
    const deadline = Date.now() + graceMs;
    await Promise.all(drains.map((drain) => drain(deadline).catch((error) => startLog.error({ err: error }, "stopping failed"))));
    for (const stop of stops.reverse()) {
      await stop().catch((error) => startLog.error({ err: error }, "stopping failed"));
    }
    log("stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  try {
    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl) {
      if (!embeddedPostgresInstalled()) {
        throw new Error("DATABASE_URL is required: this is a production install, without the embedded PostgreSQL of local mode (a development dependency)");
      }
      log(`starting embedded PostgreSQL (data in ${path.resolve(env.DATA_DIR, "postgres")}, port ${env.PG_PORT})`);
      const database = await openLocalDatabase({ dataDir: path.resolve(env.DATA_DIR), port: env.PG_PORT });
      stops.push(database.stop);
      databaseUrl = database.url;
      process.env.DATABASE_URL = databaseUrl;
    }
    stops.push(disconnectPrisma);
    // Shopify call records still queued are written before the database stops (app/shopify/call-records.server.ts).
    stops.push(async () => (await import("../app/shopify/call-records.server")).flushShopifyCallRecords());

    const applied = await applyMigrations(databaseUrl);
    log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");

    if (env.mode === "local") {
      if (env.SEED_DEMO_DATA) {
        const { seedDemoData } = await import("../prisma/seed/demo");
        const seeded = await seedDemoData(databaseUrl);
        log(seeded ? "seeded demo data" : "demo data already present");
      }
      const catalogDb = createPrismaClient(databaseUrl, 2);
      stops.push(() => catalogDb.$disconnect());
      // The demo shop grants what SCOPES asks for, as a merchant approving the install would.
      const standIn = await startShopifyStandIn({ shop: env.LOCAL_SHOP, catalog: databaseCatalog(catalogDb), scopes: requestedScopes(env.SCOPES) });
      stops.push(standIn.stop);
      process.env.SHOPIFY_STAND_IN_URL = standIn.url;
      log(`Shopify stand-in answering at ${standIn.url}`);
      // The demo shop's locations become the stores the way a real shop's do: one location_sync run (D48).
      reloadEnv();
      await syncDemoStores(env.SEED_DEMO_DATA);

      if (env.DEMO_VENDOR) {
        const { startDemoVendor } = await import("../app/demo/demo-vendor.server");
        const demo = await startDemoVendor({
          databaseUrl,
          dataDir: path.resolve(env.DATA_DIR),
          ourIdentity: { qualifier: env.EDI_SENDER_QUALIFIER, id: env.EDI_SENDER_ID, testId: env.EDI_TEST_SENDER_ID },
        });
        stops.push(demo.stop);
        // The demo plays the AS400 too, unless a real one is configured.
        if (!env.AS400_HOST) {
          Object.assign(process.env, {
            AS400_TRANSFER_MECHANISM: "1",
            AS400_HOST: demo.as400.host,
            AS400_PORT: String(demo.as400.port),
            AS400_USER: demo.as400.user,
            AS400_PASSWORD: demo.as400.password,
            AS400_HOST_KEY: demo.as400.hostKey,
          });
        }
        log(`demo vendor: SFTP on ${demo.sftp.host}:${demo.sftp.port}, answering the demo vendors' purchase orders`);
      }
    }

    reloadEnv();
    if (env.SCHEDULER) {
      const { startScheduler } = await import("../jobs/scheduler");
      const { FEED_JOBS } = await import("../jobs/registry");
      const scheduler = await startScheduler({ jobs: FEED_JOBS });
      drains.push((deadline) => scheduler.stop(Math.max(0, deadline - Date.now())));
      log(`scheduler: ${Object.keys(FEED_JOBS).length} feeds on their schedules`);
    }
    // Runs started by Run Feed in this process (any instance runs them): at
    // shutdown they get the same grace, then are marked failed.
    drains.push(async (deadline) => {
      const { stopManualFeedRuns } = await import("../app/feeds/manual-runs.server");
      await stopManualFeedRuns(Math.max(0, deadline - Date.now()));
    });

    let build: ServerBuild | (() => Promise<ServerBuild>) | undefined;
    const app = express();
    app.disable("x-powered-by");
    // First: the request id, the log context, one line and the duration metric per request (D86).
    app.use(observeRequests({ build: () => (typeof build === "function" ? build() : build) }));
    // While stopping, an answer closes its connection (keep-alive would hold the server open).
    app.use((_req, res, next) => {
      if (stopping) res.setHeader("Connection", "close");
      next();
    });
    // Local mode is never framed, so no other site can overlay its buttons (clickjacking). Embedded
    // mode is framed by the admin: entry.server sets Shopify's frame-ancestors for the shop (D207).
    if (env.mode === "local") {
      app.use((_req, res, next) => {
        res.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
        res.setHeader("X-Frame-Options", "DENY");
        next();
      });
    }
    // Foreign Host (local mode) and cross-site writes are refused before anything runs (D54).
    app.use(requestGuard({ mode: env.mode, appUrl: env.SHOPIFY_APP_URL }));
    app.use(bodyLimit);
    // Every compressible answer (pages as they stream, scripts, styles, JSON) in brotli or gzip, as the
    // browser prefers: brotli at quality 4 costs about what gzip does for a smaller answer (D245).
    app.use(compression({ brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } } }));
    // Prometheus metrics, behind the guard; a token in embedded mode (D88).
    app.get("/metrics", metricsRoute({ mode: env.mode, token: env.METRICS_TOKEN }));
    if (dev) {
      const vite = await import("vite");
      const viteServer = await vite.createServer({ server: { middlewareMode: true } });
      stops.push(() => viteServer.close());
      app.use(viteServer.middlewares);
      build = () => viteServer.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
    } else {
      const serverBuild = path.resolve("build/server/index.js");
      if (!existsSync(serverBuild)) throw new Error("No build found: run `npm run build` first (npm start does).");
      build = (await import(serverBuild)) as ServerBuild;
      app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
      // The texts asked for by their current version (root.tsx) never change under that URL (D245).
      const texts = express.static("build/client/locales", {
        maxAge: "1h",
        setHeaders: (res) => {
          if (res.req.query.v === localeFiles().version) res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
        },
      });
      app.use("/locales", texts);
      // Calls and webhooks never name a file: no disk lookup for them.
      const files = express.static("build/client", { maxAge: "1h" });
      app.use((req, res, next) => (req.path.startsWith("/api/") || req.path.startsWith("/webhooks/") ? next() : files(req, res, next)));
    }
    // Every request runs as a web request: the web pool, with its statement timeout (D67).
    const handleRequest = createRequestHandler({ build, mode: dev ? "development" : "production" });
    app.all("*", (req, res, next) => runAsWebRequest(() => handleRequest(req, res, next)));

    const server = app.listen(env.PORT, env.listenHost);
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    drains.unshift((deadline) => drainHttp(server, deadline));
    const shown = env.listenHost === "127.0.0.1" ? "localhost" : env.listenHost;
    log(`${env.mode} mode: serving http://${shown}:${(server.address() as AddressInfo).port}`);
  } catch (error) {
    startLog.fatal({ err: error }, `failed: ${(error as Error).message}`);
    for (const stop of stops.reverse()) await stop().catch(() => {});
    process.exit(1);
  }
}

/**
 * Stops listening (new connections are refused), lets the requests in flight
 * answer until `deadline`, closing each connection once it is idle, then cuts
 * what is left.
 */
async function drainHttp(server: Server, deadline: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 200);
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())))),
  ]);
  clearTimeout(timer);
  clearInterval(sweep);
  if (!inTime) {
    log("requests still in flight at the end of the grace: their connections are closed");
    server.closeAllConnections();
    await closed;
  }
}

/** location_sync through the feed runner (its log and lock), then the demo stores' AS400 codes; a failure never stops the start. */
async function syncDemoStores(demoCodes: boolean) {
  try {
    const { runFeed } = await import("../app/feeds/runner.server");
    const { applyDemoStoreCodes, LOCATION_SYNC_FEED, locationSyncJob } = await import("../app/sales/stores.server");
    const run = await runFeed(LOCATION_SYNC_FEED.name, locationSyncJob, { trigger: "manual", defaultCron: LOCATION_SYNC_FEED.defaultCron });
    log(`location_sync: ${run.status}: ${run.message}`);
    if (demoCodes && run.status === "finished") {
      const changed = await applyDemoStoreCodes();
      if (changed) log(`demo stores: ${changed} AS400 source codes set`);
    }
  } catch (error) {
    startLog.error({ err: error }, `location_sync failed: ${(error as Error).message}`);
  }
}

void main();
