// Two scheduler processes on one database, the same every-second feed, a job
// that holds for 1.5 s: the invariant is "never two runs at once". Each run's
// interval is taken from its logs (starting, written after the lock is taken;
// its end, written before the lock goes), so the intervals must be disjoint.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../app/db.server";

const FEED = "t_twoproc_hold";
const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, "test-fixtures/hold-feed.ts");
const children: ChildProcess[] = [];

async function cleanUp() {
  await prisma.feedLog.deleteMany({ where: { feed_name: FEED } });
  await prisma.feed.deleteMany({ where: { name: FEED } });
}

function startProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, FEED, "1500"], {
    cwd: path.resolve(here, ".."),
    env: process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the scheduler process did not start:\n${output}`)), 60_000);
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      if (output.includes("ready")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the scheduler process exited (${code}):\n${output}`));
    });
  });
}

function stopProcess(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

beforeAll(cleanUp);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await cleanUp();
});

describe("two scheduler processes, one feed", () => {
  it("never runs the feed twice at once", async () => {
    const [first, second] = await Promise.all([startProcess(), startProcess()]);

    // Let them compete for a while: at least four runs in all.
    const deadline = Date.now() + 30_000;
    while ((await prisma.feedLog.count({ where: { feed_name: FEED, type: "finished" } })) < 4) {
      if (Date.now() > deadline) throw new Error("the feed did not run four times");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // A clean stop: a run cut short by the abort still writes its end.
    expect(await stopProcess(first!)).toBe(0);
    expect(await stopProcess(second!)).toBe(0);

    const logs = await prisma.feedLog.findMany({ where: { feed_name: FEED }, orderBy: { id: "asc" } });
    const meta = (log: (typeof logs)[number]) => log.meta as Record<string, unknown>;
    const starts = logs.filter((log) => log.type === "starting");
    const ends = new Map(logs.filter((log) => log.type === "finished" || log.type === "failed").map((log) => [meta(log).started_log_id, log]));

    const runs = starts.map((start) => {
      const end = ends.get(start.id);
      expect(end, `run ${start.id} has an end log`).toBeDefined();
      return { pid: meta(start).pid, from: start.created_at.getTime(), to: end!.created_at.getTime(), end: end! };
    });
    expect(runs.length).toBeGreaterThanOrEqual(4);
    runs.sort((a, b) => a.from - b.from);
    for (let index = 1; index < runs.length; index++) {
      expect(runs[index]!.from, `run ${index} starts after run ${index - 1} ended`).toBeGreaterThanOrEqual(runs[index - 1]!.to);
    }

    // The job's own clock says the same for the runs that held to the end.
    const held = runs
      .filter((run) => run.end.type === "finished")
      .map((run) => ({ from: Date.parse(meta(run.end).started_at as string), to: Date.parse(meta(run.end).ended_at as string) }))
      .sort((a, b) => a.from - b.from);
    for (let index = 1; index < held.length; index++) expect(held[index]!.from).toBeGreaterThanOrEqual(held[index - 1]!.to);

    // Every second a tick comes while a run holds the lock: skips, from both
    // processes unless one of them did every run.
    const pids = new Set([first!.pid, second!.pid]);
    const runners = new Set(runs.map((run) => run.pid));
    const skippers = new Set(logs.filter((log) => log.type === "skipped").map((log) => meta(log).pid));
    expect([...runners].every((pid) => pids.has(pid as number))).toBe(true);
    expect(skippers.size === 2 || runners.size === 1).toBe(true);
    expect(skippers.size).toBeGreaterThanOrEqual(1);
  });
});
