// The background run model against the real database (D94): progress rows,
// one run per key even when two starts race, a run whose process was killed
// read as interrupted by anyone at once (its lock went with its connection)
// and closed by the next start, and a run whose lock connection is cut.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { message } from "./messages";
import { currentRun, readRun, startRun, type RunDefinition, type RunView } from "./runs.server";
import { until } from "../../tests/support/until";

const PREFIX = "t_runs_";
let t: Translate;
let de: Translate;
const children: ChildProcess[] = [];

const cleanUp = () => prisma.backgroundRun.deleteMany({ where: { lock_key: { startsWith: PREFIX } } });
beforeAll(async () => {
  t = await i18nServer.getFixedT("en", "common");
  de = await i18nServer.getFixedT("de", "common");
  await cleanUp();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});
afterAll(cleanUp);

function definition(key: string, work: RunDefinition["work"]): RunDefinition {
  return { kind: "dropship_test", action: "populateRequests", lockKey: `${PREFIX}${key}`, failure: message("tools.failure"), work };
}

const ended = (id: number) =>
  until(
    () => readRun(id, t, "en"),
    (run) => run !== null && run.status !== "running",
    `the end of run ${id}`,
  ) as Promise<RunView>;

describe("background runs", () => {
  it("goes from running, through progress rows, to its result, in the reader's language", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answer = await startRun(
      definition("lifecycle", async ({ progress }) => {
        progress({ done: 0, total: 2000, unit: "assignments" });
        progress({ done: 1000, total: 2000, unit: "assignments", created: 1000 });
        await held;
        progress({ done: 2000, total: 2000, unit: "assignments", created: 2000 });
        return { error: false, message: message("dropship_test.results.populate_requests", { count: 2000 }) };
      }),
      t,
      "en",
    );
    expect(answer).toMatchObject({ started: true, run: { status: "running", message: null } });
    const id = answer.run!.id;
    // At most one write a second: the later figure lands within a second or so.
    const midway = await until(
      () => readRun(id, t, "en"),
      (run) => run?.progress.done === 1000,
      "the progress row",
    );
    expect(midway).toMatchObject({ status: "running", progress: { total: 2000, unit: "assignments", created: 1000 } });
    expect(await currentRun("dropship_test", t, "en")).toMatchObject({ id, status: "running" });

    release();
    expect(await ended(id)).toMatchObject({
      status: "finished",
      error: false,
      message: "2000 ship requests created.",
      progress: { done: 2000, created: 2000 },
    });
    expect(await readRun(id, de, "de")).toMatchObject({ message: "2000 Versandanfragen erstellt." });
  });

  it("starts one run of a key when two starts race, and tells the other which run goes on", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const work: RunDefinition["work"] = async () => {
      runs += 1;
      await held;
      return { error: false, message: message("tools.success") };
    };
    const answers = await Promise.all([startRun(definition("race", work), t, "en"), startRun(definition("race", work), t, "en")]);
    const started = answers.filter((answer) => answer.started);
    const refused = answers.filter((answer) => !answer.started);
    expect(started).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.run?.id).toBe(started[0]!.run!.id);
    release();
    await ended(started[0]!.run!.id);
    expect(runs).toBe(1);
    // The database refuses a second running row of a key whatever the lock says.
    await prisma.backgroundRun.create({ data: { kind: "dropship_test", action: "x", lock_key: `${PREFIX}unique`, instance: "test" } });
    await expect(
      prisma.backgroundRun.create({ data: { kind: "dropship_test", action: "x", lock_key: `${PREFIX}unique`, instance: "test" } }),
    ).rejects.toThrow();
  });

  it("reads the run of a killed process as interrupted at once, and the next start closes it", async () => {
    const key = `${PREFIX}killed`;
    // Another process takes the lock and writes its running row, as startRun does, then is killed.
    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import pg from "pg";
         const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
         await client.connect();
         await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [${LOCK_KEYS.backgroundRun}, ${JSON.stringify(key)}]);
         const { rows } = await client.query(
           "INSERT INTO background_run (kind, action, lock_key, instance, updated_at) VALUES ('eod', 'run', $1, 'other-instance', now()) " +
             "RETURNING id",
           [${JSON.stringify(key)}],
         );
         console.log(rows[0].id);
         setInterval(() => {}, 1000);`,
      ],
      { env: process.env, stdio: ["ignore", "pipe", "inherit"] },
    );
    children.push(child);
    const id = Number(await new Promise<string>((resolve) => child.stdout!.once("data", (data: Buffer) => resolve(data.toString().trim()))));
    expect(await readRun(id, t, "en")).toMatchObject({ status: "running" });

    child.kill("SIGKILL");
    const dead = await until(
      () => readRun(id, t, "en"),
      (run) => run?.status !== "running",
      "the killed run read as interrupted",
    );
    expect(dead).toMatchObject({ status: "interrupted", error: true, message: "Interrupted: the process running it stopped before it finished." });
    expect(await readRun(id, de, "de")).toMatchObject({ message: "Unterbrochen: der Prozess, der ihn ausführte, wurde vor dem Ende beendet." });

    const next = await startRun({ ...definition("killed", async () => ({ error: false, message: message("eod.banners.run_success") })), kind: "eod" }, t, "en");
    expect(next.started).toBe(true);
    expect(await prisma.backgroundRun.findUnique({ where: { id } })).toMatchObject({ status: "interrupted" });
    expect(await ended(next.run!.id)).toMatchObject({ status: "finished", message: "EOD report run successfully" });
  });

  it("ends a run whose lock connection is cut as interrupted", async () => {
    const answer = await startRun(
      definition("cut", ({ signal }) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)))),
      t,
      "en",
      { lockCheckEveryMs: 200 },
    );
    // Only this run's lock connection: other test files' runs share the database.
    const key = `${PREFIX}cut`;
    const cut = await prisma.$queryRaw<Array<{ pid: number }>>`
      SELECT pg_terminate_backend(l.pid), l.pid FROM pg_locks l
       WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
         AND l.classid = ${LOCK_KEYS.backgroundRun}::int8::oid
         AND l.objid = ((hashtext(${key})::int8 + 4294967296) % 4294967296)::oid`;
    expect(cut).toHaveLength(1);
    // Readers see "interrupted" as soon as the lock is gone; the run's own end row follows.
    const id = answer.run!.id;
    await until(
      () => prisma.backgroundRun.findUnique({ where: { id } }),
      (row) => row?.status !== "running",
      "the run's end row",
    );
    const run = (await readRun(id, t, "en"))!;
    expect(run).toMatchObject({ status: "interrupted", error: true, message: "Something went wrong when completing the request" });
    expect(run.detail).toMatch(/^Interrupted before it finished: .*lock/);
  });
});
