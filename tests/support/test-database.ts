// Every test run gets its own database, created, migrated and dropped again.
// The server is the one of TEST_DATABASE_SERVER_URL when set (a maintenance-db
// URL of any PostgreSQL), else an embedded PostgreSQL of the run's own under
// DATA_DIR/test-clusters, removed at the end.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { freePort } from "./app-server";
import { startEmbeddedPostgres } from "../../app/db/embedded-postgres.server";
import { applyMigrations, dropDatabase, ensureDatabase } from "../../app/db/migrate.server";

export interface TestDatabase {
  url: string;
  name: string;
  serverUrl: string;
  /** Drops the database and stops the embedded server if this started it. */
  dispose(): Promise<void>;
}

export async function createTestDatabase(label = "test"): Promise<TestDatabase> {
  let serverUrl = process.env.TEST_DATABASE_SERVER_URL;
  let stopServer: (() => Promise<void>) | null = null;
  if (!serverUrl) {
    // A cluster of this run's own (about 2 s to create): two runs at once never
    // share one, so neither can stop the other's server.
    const clusters = path.resolve(process.env.DATA_DIR ?? ".data", "test-clusters");
    removeAbandonedClusters(clusters);
    const dataDir = path.join(clusters, `${label}-${process.pid}`);
    const embedded = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    serverUrl = embedded.serverUrl;
    stopServer = async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const name = `${label}_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  await ensureDatabase(serverUrl, name);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return {
    url: url.toString(),
    name,
    serverUrl,
    async dispose() {
      await dropDatabase(serverUrl!, name).catch((error) => console.error(`could not drop ${name}:`, error));
      await stopServer?.();
    },
  };
}

/** Clusters of runs whose process is gone (killed before they could clean up). */
function removeAbandonedClusters(folder: string) {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    const pid = Number(name.split("-").pop());
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive) continue;
    // Its PostgreSQL may have outlived it: ask that to stop too.
    const pidFile = path.join(folder, name, "postmaster.pid");
    const postmaster = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[0]) : NaN;
    if (Number.isInteger(postmaster) && postmaster > 0) {
      try {
        process.kill(postmaster, "SIGINT");
      } catch {
        // already gone
      }
    }
    rmSync(path.join(folder, name), { recursive: true, force: true });
  }
}
