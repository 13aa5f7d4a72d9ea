// The built app over real HTTP and a real PostgreSQL (D67, D68): a web request
// whose query runs past WEB_STATEMENT_TIMEOUT_MS is answered with an error, a
// feed's query is not cut at that timeout, and SIGTERM lets requests in flight
// and running feeds end before the process exits 0. Queries are made slow by
// locks the test holds on its own connections (statement_timeout covers lock
// waits); nothing here measures time.
import { spawn } from "node:child_process";
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCK_KEYS } from "../../app/db/lock-keys";
import { startAppServer, type RunningApp } from "../support/app-server";
import { followRun } from "../support/runs";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { until } from "../support/until";

const FEED = "realtime_as400_export"; // without AS400_HOST its job only counts realtime log rows

let database: TestDatabase;
let admin: pg.Client;

/** A transaction of its own holding an ACCESS EXCLUSIVE lock on `table` until released. */
async function holdTable(table: string) {
  const client = new pg.Client({ connectionString: database.url, application_name: "test-holder" });
  await client.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await client.query("ROLLBACK");
      await client.end();
    },
  };
}

/** Backends of the app waiting for a lock, by pool (application_name "web" or "jobs"; any: every one but the test's). */
async function waiting(pool: "web" | "jobs" | "any") {
  const { rows } = await admin.query<{ waited_ms: number; query: string }>(
    `SELECT (extract(epoch FROM clock_timestamp() - query_start) * 1000)::int AS waited_ms, query FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'
        AND ($1 = 'any' AND application_name <> 'test-holder' OR application_name = $1)`,
    [pool],
  );
  return rows;
}

/** Some query of the app waits on each of `tables`. */
const waitingOn = (tables: string[]) => (rows: Array<{ query: string }>) =>
  tables.every((table) => rows.some((row) => row.query.includes(`"${table}"`) || row.query.includes(` ${table}`)));

const feedLogs = async () =>
  (await admin.query<{ type: string; meta: Record<string, unknown> }>("SELECT type, meta FROM feed_log WHERE feed_name = $1 ORDER BY id", [FEED])).rows;

async function feedLockIsFree() {
  const { rows } = await admin.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [LOCK_KEYS.feedRun, `feed:${FEED}`]);
  if (rows[0]!.locked) await admin.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${FEED}`]);
  return rows[0]!.locked;
}

/** A new TCP connection to the app's port: resolves "refused" or "accepted". */
function connectTo(url: string): Promise<"refused" | "accepted"> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve("accepted");
    });
    socket.once("error", () => resolve("refused"));
  });
}

const runFeed = (app: RunningApp) => fetch(`${app.url}/api/feed_run?feed_name=${FEED}`, { method: "POST" });

beforeAll(async () => {
  database = await createTestDatabase("dbstop");
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  // Run Feed runs feeds that have a row (the scheduler, off here, would create it).
  await admin.query("INSERT INTO feed (name, cron_expression) VALUES ($1, '* * * * *') ON CONFLICT DO NOTHING", [FEED]);
}, 90_000);

afterAll(async () => {
  await admin?.end();
  await database?.dispose();
});

describe("web requests have a statement timeout, jobs do not", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", WEB_STATEMENT_TIMEOUT_MS: "1000" });
  }, 90_000);
  afterAll(() => app?.stop());

  it("answers a request whose query waits past the timeout with a 503 and a reference, and serves again once the lock is gone", async () => {
    const lock = await holdTable("dropship_log");
    try {
      const response = await fetch(`${app.url}/api/dropship_log`, { headers: { "x-request-id": "timeout-request" } });
      expect(response.status).toBe(503);
      const body = (await response.json()) as { error: boolean; message: string };
      expect(body.error).toBe(true);
      expect(body.message).toMatch(/^The database did not answer in time; try again \(reference (\w+)\)$/);
      const reference = /reference (\w+)/.exec(body.message)![1];
      expect(app.output()).toMatch(new RegExp(`\\[api\\] GET /api/dropship_log: the database did not answer in time \\(reference ${reference}\\)`));
      // The error line carries the request's id and shop (D86).
      expect(app.output()).toContain(`"request_id":"timeout-request","shop":"demo-shop.myshopify.com","reference":"${reference}"`);
    } finally {
      await lock.release();
    }
    expect((await fetch(`${app.url}/api/dropship_log`)).status).toBe(200);
  });

  it("lets a feed's query wait past the web timeout, even when a request started the run", async () => {
    const lock = await holdTable("realtime_sales_log");
    let answer: Promise<Response>;
    try {
      answer = runFeed(app);
      // The job's query waits on the lock, and goes on waiting past the web requests' 1 s.
      await until(
        () => waiting("jobs"),
        (rows) => rows.some((row) => row.waited_ms > 2500),
        "the job's query to wait past the web timeout",
      );
    } finally {
      await lock.release();
    }
    // Run Feed answered at once (D93); the run, followed as the page does, ends well.
    const { startStatus, body } = await followRun(app.url, await answer!);
    expect(startStatus).toBe(202);
    expect(body).toMatchObject({ error: false, status: "finished", feed_status: "finished", detail: "Nothing to send to the AS400." });
  });
});

describe("SIGTERM", () => {
  it("refuses new connections, lets a slow request and a running feed end, frees the feed's lock and exits 0", async () => {
    const app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", SHUTDOWN_GRACE_MS: "60000" });
    const requestLock = await holdTable("dropship_log");
    const jobLock = await holdTable("realtime_sales_log");
    try {
      await admin.query("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
      const slow = fetch(`${app.url}/api/dropship_log`);
      // Run Feed answers at once (D93): the run goes on in the app's background.
      const started = (await (await runFeed(app)).json()) as { run_id: number };
      await until(() => waiting("any"), waitingOn(["dropship_log", "realtime_sales_log"]), "the request and the feed's query to wait on the locks");

      app.kill("SIGTERM");
      await until(
        async () => app.output(),
        (output) => output.includes("SIGTERM: stopping"),
        "the app to start stopping",
      );
      expect(await connectTo(app.url)).toBe("refused");

      // The feed's query goes on, and its job ends; it was told to stop, so it is interrupted.
      await jobLock.release();
      const logs = await until(feedLogs, (rows) => rows.length === 2, "the feed run's end log");
      expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
      expect(logs[1]!.meta).toMatchObject({ error: "interrupted: the app is stopping", interrupted: true, message: "Nothing to send to the AS400." });
      expect(await feedLockIsFree()).toBe(true);

      // The slow request still gets its whole answer.
      await requestLock.release();
      const response = await slow;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ data: { data: [], total: 0 } });

      expect(await app.exited).toBe(0);
      expect(app.output()).toContain("[start] stopped");
      // The background run the page follows says it was interrupted, and why (D93).
      const {
        rows: [stopped],
      } = await admin.query("SELECT status, result FROM background_run WHERE id = $1", [started.run_id]);
      expect(stopped).toMatchObject({
        status: "interrupted",
        result: { error: true, message: { code: "feeds.run.error" }, detail: { code: "runs.interrupted_because", params: { reason: "the app is stopping" } } },
      });
    } finally {
      await requestLock.release();
      await jobLock.release();
      await app.stop();
    }
  });
});

describe("SIGTERM to npm run jobs", () => {
  it("lets the running feed end at its safe point, logs it interrupted, frees its lock and exits 0", async () => {
    const { FEED_JOBS } = await import("../../jobs/registry");
    // Only our feed is scheduled, every second; the others' rows exist, disabled.
    await admin.query("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
    await admin.query("UPDATE feed SET cron_expression = '* * * * * *', enabled = 1 WHERE name = $1", [FEED]);
    for (const name of Object.keys(FEED_JOBS).filter((name) => name !== FEED)) {
      await admin.query("INSERT INTO feed (name, cron_expression, enabled) VALUES ($1, '0 0 * * *', 0) ON CONFLICT (name) DO UPDATE SET enabled = 0", [name]);
    }
    const jobLock = await holdTable("realtime_sales_log");
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", "jobs/main.ts"], {
      env: { ...process.env, NODE_ENV: "test", DATABASE_URL: database.url, SHUTDOWN_GRACE_MS: "60000", AS400_HOST: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdout!.on("data", (chunk) => (output += chunk));
    child.stderr!.on("data", (chunk) => (output += chunk));
    try {
      await until(() => waiting("any"), waitingOn(["realtime_sales_log"]), "the feed's query to wait on the lock", 60_000);
      child.kill("SIGTERM");
      await until(
        async () => output,
        (text) => text.includes("SIGTERM: stopping"),
        "the jobs process to start stopping",
      );
      await jobLock.release();

      expect(await exited).toBe(0);
      const ends = (await feedLogs()).filter((log) => log.type !== "skipped");
      expect(ends.map((log) => log.type)).toEqual(["starting", "failed"]);
      expect(ends[1]!.meta).toMatchObject({ error: "interrupted: the scheduler is stopping", interrupted: true, message: "Nothing to send to the AS400." });
      expect(await feedLockIsFree()).toBe(true);
      expect(output).toContain("[jobs] stopped");
    } finally {
      await jobLock.release();
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
