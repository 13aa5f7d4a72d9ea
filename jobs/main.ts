// The jobs worker: the scheduler process, next to the web processes.
// `npm run serve:jobs` runs it built (build/processes/jobs.js, as the image
// does), `npm run jobs` through tsx.
//   1. read and check the environment (a clear list of what is wrong, or stop)
//   2. DATABASE_URL is required: this process never starts a PostgreSQL itself
//   3. apply pending migrations (the same runner as npm start; it takes a lock)
//   4. schedule every feed of the registry; SIGINT/SIGTERM stop it cleanly: no new
//      runs, running ones are aborted and get SHUTDOWN_GRACE_MS to end at a safe
//      point (then they are logged failed and their lock is freed), then the database
//   5. with METRICS_PORT set, GET /metrics on that port (D89)
import { parseEnvOrExit } from "../app/env.server";
import { applyMigrations } from "../app/db/migrate.server";
import { logger } from "../app/observability/logger.server";
import { startMetricsListener } from "../app/observability/metrics-endpoint.server";
import { startProcessMetrics } from "../app/observability/metrics.server";

const jobsLog = logger("jobs");
const log = (message: string) => jobsLog.info(message);

async function main() {
  const env = parseEnvOrExit();
  startProcessMetrics();
  if (!env.DATABASE_URL) {
    jobsLog.fatal(
      "DATABASE_URL is required for `npm run jobs`: set it to the app's PostgreSQL " +
        "(postgresql://user:password@host:port/database). The jobs process does not start the embedded one.",
    );
    process.exit(1);
  }

  const applied = await applyMigrations(env.DATABASE_URL);
  log(applied.length ? `applied migrations: ${applied.join(", ")}` : "database schema is up to date");

  // Imported only now: the jobs and the Prisma client need DATABASE_URL at import.
  const { FEED_JOBS } = await import("./registry");
  const { startScheduler } = await import("./scheduler");
  const { disconnectPrisma } = await import("../app/db.server");

  const scheduler = await startScheduler({ jobs: FEED_JOBS });
  const names = Object.keys(FEED_JOBS);
  log(names.length ? `scheduler started for ${names.join(", ")} (${env.APP_TIMEZONE})` : "scheduler started; the registry has no jobs yet");
  const metrics = env.METRICS_PORT
    ? await startMetricsListener({ port: env.METRICS_PORT, host: env.listenHost, mode: env.mode, token: env.METRICS_TOKEN })
    : null;
  if (metrics) log(`metrics: GET http://${env.listenHost}:${metrics.port}/metrics${env.METRICS_TOKEN ? " (with the token)" : ""}`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping: running jobs are asked to stop at a safe point and get ${env.SHUTDOWN_GRACE_MS} ms`);
    try {
      // Runs still going after the grace are logged failed and their lock connection closed (D68).
      await scheduler.stop(env.SHUTDOWN_GRACE_MS);
      await metrics?.stop();
      // Shopify call records the jobs queued are written before the connection closes (D38).
      await (await import("../app/shopify/call-records.server")).flushShopifyCallRecords();
      await disconnectPrisma();
      log("stopped");
      process.exit(0);
    } catch (error) {
      jobsLog.error({ err: error }, `stopping failed: ${(error as Error).message}`);
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  jobsLog.fatal({ err: error }, `failed: ${(error as Error).message}`);
  process.exit(1);
});
