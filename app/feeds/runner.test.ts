// runFeed against the run's PostgreSQL: the logs it writes, the lock that
// makes a second run a skip, progress on the starting log, and the closing of
// runs whose process died. Feed names start with t_runner_ (the database is
// shared with the other test files).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { closeFeedPool, runFeed, type FeedRunContext } from "./runner.server";

const PREFIX = "t_runner_";

async function cleanUp() {
  await prisma.feedLog.deleteMany({ where: { feed_name: { startsWith: PREFIX } } });
  await prisma.feed.deleteMany({ where: { name: { startsWith: PREFIX } } });
}

const logsOf = (feedName: string) => prisma.feedLog.findMany({ where: { feed_name: feedName }, orderBy: { id: "asc" } });
type Meta = Record<string, unknown>;

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

beforeAll(cleanUp);
afterAll(async () => {
  await cleanUp();
  await closeFeedPool();
});

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
    expect(logs[1]!.meta).toEqual({ error: "interrupted: the process running it stopped", started_log_id: orphan.id });
  });

  it("hands the caller's abort signal to the job", async () => {
    const controller = new AbortController();
    const result = await runFeed(`${PREFIX}abort`, async ({ signal }) => {
      controller.abort(new Error("shutting down"));
      signal.throwIfAborted();
      return { message: "not reached" };
    }, { signal: controller.signal });
    expect(result).toMatchObject({ status: "failed", message: "shutting down" });
  });

  it("refuses a feed name that is not lower-case letters, digits and _", async () => {
    await expect(runFeed("Bad-Name", async () => ({ message: "" }))).rejects.toThrow(/Invalid feed name "Bad-Name"/);
    await expect(runFeed("", async () => ({ message: "" }))).rejects.toThrow(/required/);
    await expect(runFeed("x".repeat(101), async () => ({ message: "" }))).rejects.toThrow(/at most 100/);
  });
});
