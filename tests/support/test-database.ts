// Every test run gets its own database, created, migrated and dropped again.
// The server is the one of TEST_DATABASE_SERVER_URL when set (a maintenance-db
// URL of any PostgreSQL), else an embedded PostgreSQL kept under
// DATA_DIR/test-postgres (separate from the app's, so both can run at once).
import { randomBytes } from "node:crypto";
import path from "node:path";
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
    const embedded = await startEmbeddedPostgres({
      dataDir: path.resolve(process.env.DATA_DIR ?? ".data", `${label}-postgres`),
      port: Number(process.env[`PG_${label.toUpperCase()}_PORT`] ?? (label === "e2e" ? 54341 : 54340)),
    });
    serverUrl = embedded.serverUrl;
    stopServer = embedded.stop;
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
