// runFeed against the run's PostgreSQL: the logs it writes, the lock that
// makes a second run a skip, progress on the starting log, and the closing of
// runs whose process died. Feed names start with t_runner_ (the database is
// shared with the other test files).
import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { closeFeedPool, runFeed, type FeedRunContext } from "./runner.server";
import { cleanUpTestFeeds } from "../../tests/support/test-feeds";

const PREFIX = "t_runner_";

cleanUpTestFeeds(PREFIX);

const logsOf = (feedName: string) => prisma.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });
type Meta = Record<string, unknown>;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("runFeed", () => {
  it("writes starting, then finished with the outcome's meta, and stamps the feed", async () => {
    const result = await runFeed(`${PREFIX}ok`, async ({ trigger }) => ({ message: `done by ${trigger}`, meta: { count: 3 } }));
    expect(result).toMatchObject({ status: "finished", message: "done by manual", error: false });

    const logs = await logsOf(`${PREFIX}ok`);
    expect(logs.map((log) => log.type)).toEqual(["starting", "finished"]);
    expect(logs[0]!.meta).toMatchObject({ trigger: "manual", pid: process.pid });
    expect(logs[1]!.meta).toMatchObject({ message: "done by manual", count: 3, started_log_id: logs[0]!.id });
    expect(typeof (logs[1]!.meta as Meta).duration_ms).toBe("number");
    expect(result.logId).toBe(logs[1]!.id);

    const feed = await prisma.feed.findUniqueOrThrow({ where: { name: `${PREFIX}ok` } });
    expect(feed.cron_expression).toBe("0 0 * * *");
    expect(feed.last_started_at).not.toBeNull();
    expect(feed.last_finished_at!.getTime()).toBeGreaterThanOrEqual(feed.last_started_at!.getTime());
  });

  it("keeps an outcome's error flag: finished, but reported as an error", async () => {
    const result = await runFeed(`${PREFIX}partial`, async () => ({ message: "2 of 5 failed", error: true }), { trigger: "schedule" });
    expect(result).toMatchObject({ status: "finished", message: "2 of 5 failed", error: true });
    const logs = await logsOf(`${PREFIX}partial`);
    expect(logs[0]!.meta).toMatchObject({ trigger: "schedule" });
    expect(logs[1]!.meta).toMatchObject({ message: "2 of 5 failed", error: true });
  });

  it("writes failed with the error and the top of its stack when the job throws", async () => {
    const result = await runFeed(`${PREFIX}throws`, async () => {
      throw new Error("vendor server refused the login");
    });
    expect(result).toMatchObject({ status: "failed", message: "vendor server refused the login", error: true });

    const logs = await logsOf(`${PREFIX}throws`);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    const meta = logs[1]!.meta as Meta;
    expect(meta).toMatchObject({ error: "vendor server refused the login", started_log_id: logs[0]!.id });
    expect(meta.stack).toMatch(/^Error: vendor server refused the login\n/);
    expect((meta.stack as string).split("\n").length).toBeLessThanOrEqual(5);
    expect(typeof meta.duration_ms).toBe("number");
    const feed = await prisma.feed.findUniqueOrThrow({ where: { name: `${PREFIX}throws` } });
    expect(feed.last_failed_at).not.toBeNull();
    expect(feed.last_finished_at).toBeNull();
  });

  it("skips a second run of a feed that is running, and the first still finishes", async () => {
    const name = `${PREFIX}busy`;
    const started = gate();
    const release = gate();
    const first = runFeed(name, async () => {
      started.open();
      await release.opened;
      return { message: "first done" };
    });
    await started.opened;

    const second = await runFeed(name, async () => ({ message: "must not run" }));
    expect(second).toMatchObject({ status: "skipped", error: true, message: `${name} is already running; it was skipped.` });

    release.open();
    expect(await first).toMatchObject({ status: "finished", message: "first done" });

    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "skipped", "finished"]);
    expect(logs[1]!.meta).toMatchObject({ reason: "still running", trigger: "manual" });
    expect(second.logId).toBe(logs[1]!.id);
    const feed = await prisma.feed.findUniqueOrThrow({ where: { name } });
    expect(feed.last_skipped_at).not.toBeNull();

    // The lock went with the first run.
    expect(await runFeed(name, async () => ({ message: "third" }))).toMatchObject({ status: "finished" });
  });

  it("leaves a running feed quietly when told (skip_quietly): no log, nothing run (D251)", async () => {
    const name = `${PREFIX}quiet`;
    const started = gate();
    const release = gate();
    const first = runFeed(name, async () => {
      started.open();
      await release.opened;
      return { message: "first done" };
    });
    await started.opened;
    let ran = false;
    const second = await runFeed(name, async () => ((ran = true), { message: "must not run" }), { whenBusy: "skip_quietly", trigger: "chain" });
    expect(second).toMatchObject({ status: "skipped", error: false, logId: 0 });
    release.open();
    await first;
    expect(ran).toBe(false);
    expect((await logsOf(name)).map((log) => log.type)).toEqual(["starting", "finished"]);
  });

  it("waits for a running feed when told (wait), then runs once: wake-ups while it waits join it (D251)", async () => {
    const name = `${PREFIX}wait`;
    const started = gate();
    const release = gate();
    const first = runFeed(name, async () => {
      started.open();
      await release.opened;
      return { message: "first done" };
    });
    await started.opened;
    let runs = 0;
    const job = async () => ({ message: `chained ${++runs}`, meta: { count: runs } });
    const waiting = runFeed(name, job, { whenBusy: "wait", trigger: "chain", waitPollMs: 20 });
    const joined = runFeed(name, job, { whenBusy: "wait", trigger: "chain", waitPollMs: 20 });
    release.open();
    await first;
    const [a, b] = await Promise.all([waiting, joined]);
    expect(a).toMatchObject({ status: "finished", message: "chained 1", meta: { count: 1 } });
    expect(b).toBe(a);
    expect(runs).toBe(1);
    const logs = await logsOf(name);
    expect(logs.map((log) => `${log.type}/${(log.meta as Meta).trigger ?? ""}`)).toEqual(["starting/manual", "finished/", "starting/chain", "finished/"]);
  });

  it("gives up a wait quietly after waitAtMostMs: the crons are the backstop", async () => {
    const name = `${PREFIX}wait_long`;
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("SELECT pg_advisory_lock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${name}`]);
      const result = await runFeed(name, async () => ({ message: "must not run" }), { whenBusy: "wait", waitAtMostMs: 100, waitPollMs: 20 });
      expect(result).toMatchObject({ status: "skipped", logId: 0 });
      expect(await logsOf(name)).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it("shows progress on the starting log: the first at once, later ones merged, the last one always", async () => {
    const name = `${PREFIX}progress`;
    const reported = gate();
    const checked = gate();
    const run = runFeed(name, async ({ progress }: FeedRunContext) => {
      await progress({ step: "download", done: 0 });
      await progress({ done: 1 }); // within the second: held back
      reported.open();
      await checked.opened;
      await progress({ step: "import", done: 5, total: 5 });
      return { message: "imported 5" };
    });

    await reported.opened;
    const whileRunning = await prisma.feedLog.findFirstOrThrow({ where: { feed_name: name, type: "starting" } });
    expect(whileRunning.meta).toMatchObject({ trigger: "manual", step: "download", done: 0 });
    checked.open();
    await run;

    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "finished"]);
    expect(logs[0]!.meta).toMatchObject({ trigger: "manual", step: "import", done: 5, total: 5 });
    expect(logs[0]!.updated_at.getTime()).toBeGreaterThanOrEqual(logs[0]!.created_at.getTime());
  });

  it("closes a starting log left by a process that died, once, at the next run", async () => {
    const name = `${PREFIX}interrupted`;
    const orphan = await prisma.feedLog.create({ data: { feed_name: name, type: "starting", meta: { trigger: "schedule" } } });

    expect(await runFeed(name, async () => ({ message: "after the crash" }))).toMatchObject({ status: "finished" });
    await runFeed(name, async () => ({ message: "and again" }));

    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed", "starting", "finished", "starting", "finished"]);
    expect(logs[1]!.meta).toEqual({
      error: "interrupted: the process running it stopped",
      error_code: { code: "logs.feeds.interrupted_stopped" },
      started_log_id: orphan.id,
    });
  });

  it("hands the caller's abort signal to the job", async () => {
    const controller = new AbortController();
    const result = await runFeed(
      `${PREFIX}abort`,
      async ({ signal }) => {
        controller.abort(new Error("shutting down"));
        signal.throwIfAborted();
        return { message: "not reached" };
      },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({ status: "failed", message: "interrupted: shutting down" });
  });

  it("records a run told to stop as interrupted even when its job returns early at a safe point, keeping what the job said", async () => {
    const name = `${PREFIX}early`;
    const controller = new AbortController();
    const result = await runFeed(
      name,
      async ({ signal }) => {
        controller.abort(new Error("the app is stopping"));
        return { message: signal.aborted ? "stopped after 3 of 10 files" : "all done", meta: { files: 3 } };
      },
      { signal: controller.signal },
    );
    expect(result).toMatchObject({ status: "failed", error: true, message: "interrupted: the app is stopping" });
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect(logs[1]!.meta).toMatchObject({ error: "interrupted: the app is stopping", interrupted: true, message: "stopped after 3 of 10 files", files: 3 });
  });

  it("runs its job on the jobs' pool: no statement timeout, whatever the web requests have", async () => {
    const result = await runFeed(`${PREFIX}pool`, async () => {
      const [row] = await prisma.$queryRaw<Array<{ timeout: string; app: string }>>`
        SELECT current_setting('statement_timeout') AS timeout, current_setting('application_name') AS app`;
      return { message: `${row!.app}:${row!.timeout}` };
    });
    expect(result).toMatchObject({ status: "finished", message: "jobs:0" });
  });
});

// The connection holding a feed's lock, as PostgreSQL sees it.
async function lockHolderPid(admin: pg.Client, feedName: string): Promise<number | null> {
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT pid FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND classid = $1::bigint::oid AND objid = (hashtext($2)::bigint & 4294967295)::oid AND objsubid = 2`,
    [LOCK_KEYS.feedRun, `feed:${feedName}`],
  );
  return rows[0]?.pid ?? null;
}

async function lockIsFree(admin: pg.Client, feedName: string): Promise<boolean> {
  const { rows } = await admin.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [LOCK_KEYS.feedRun, `feed:${feedName}`]);
  if (rows[0]!.locked) await admin.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LOCK_KEYS.feedRun, `feed:${feedName}`]);
  return rows[0]!.locked;
}

/** A job that runs until its signal aborts, or gives up after `ms` and says it was never told. */
const waitForAbort =
  (started: () => void, ms = 30_000) =>
  ({ signal }: FeedRunContext) =>
    new Promise<{ message: string }>((resolve, reject) => {
      started();
      const timer = setTimeout(() => resolve({ message: "never told to stop" }), ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });

/**
 * A TCP relay to PostgreSQL whose open connections can be cut off silently:
 * what goes in is dropped, nothing is closed, as when a network path dies.
 * A side that closes still closes the other (so PostgreSQL ends the session).
 */
async function startSilentRelay(target: URL) {
  const pairs = new Set<{ frozen: boolean }>();
  const server = net.createServer((socket) => {
    const pair = { frozen: false };
    pairs.add(pair);
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    socket.on("data", (chunk) => !pair.frozen && upstream.write(chunk));
    upstream.on("data", (chunk) => !pair.frozen && socket.write(chunk));
    const end = () => {
      socket.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    socket.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    freezeOpenConnections: () => pairs.forEach((pair) => (pair.frozen = true)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a run whose lock connection is lost", () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it("stops when the lock's backend is terminated: its signal aborts, the log says the lock was lost, and the next run starts", async () => {
    const name = `${PREFIX}lock_killed`;
    const started = gate();
    const run = runFeed(name, waitForAbort(started.open));
    await started.opened;
    const pid = await lockHolderPid(admin, name);
    expect(pid).not.toBeNull();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);

    const result = await run;
    expect(result).toMatchObject({ status: "failed", error: true });
    expect(result.message).toMatch(/^interrupted: lost the database connection holding the lock of t_runner_lock_killed/);
    const logs = await logsOf(name);
    expect(logs.map((log) => log.type)).toEqual(["starting", "failed"]);
    expect((logs[1]!.meta as Meta).error).toMatch(/lost the database connection holding the lock/);
    expect(await lockIsFree(admin, name)).toBe(true);
    expect(await runFeed(name, async () => ({ message: "again" }))).toMatchObject({ status: "finished", message: "again" });
  });

  it("stops when the lock's connection goes silent (no error event): the periodic check finds it", async () => {
    const name = `${PREFIX}lock_silent`;
    const relay = await startSilentRelay(new URL(process.env.DATABASE_URL!));
    const direct = process.env.DATABASE_URL;
    // Only the lock's pool goes through the relay; the logs are written on the jobs' pool, directly.
    await prisma.$queryRaw`SELECT 1`;
    await closeFeedPool();
    process.env.DATABASE_URL = relay.url;
    try {
      const started = gate();
      const run = runFeed(name, waitForAbort(started.open, 20_000), { lockCheckEveryMs: 300 });
      await started.opened;
      expect(await lockHolderPid(admin, name)).not.toBeNull();
      relay.freezeOpenConnections();

      const result = await run;
      expect(result).toMatchObject({ status: "failed", error: true });
      expect(result.message).toMatch(/^interrupted: lost the database connection holding the lock of t_runner_lock_silent/);
      expect(((await logsOf(name))[1]!.meta as Meta).error).toMatch(/check of the lock's connection .* failed/);
      // The connection was dropped, so PostgreSQL ended the session and freed the lock.
      await until(() => lockIsFree(admin, name));
      expect(await runFeed(name, async () => ({ message: "again" }))).toMatchObject({ status: "finished" });
    } finally {
      await closeFeedPool();
      process.env.DATABASE_URL = direct;
      await relay.stop();
    }
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("the condition was not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("runFeed, names", () => {
  it("refuses a feed name that is not lower-case letters, digits and _", async () => {
    await expect(runFeed("Bad-Name", async () => ({ message: "" }))).rejects.toThrow(/Invalid feed name "Bad-Name"/);
    await expect(runFeed("", async () => ({ message: "" }))).rejects.toThrow(/required/);
    await expect(runFeed("x".repeat(101), async () => ({ message: "" }))).rejects.toThrow(/at most 100/);
  });
});
