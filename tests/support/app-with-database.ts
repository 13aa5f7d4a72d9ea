// The built app in local mode on a database of its own, and a client of that
// database for the test to arrange and check rows: what most HTTP tests start with.
import { afterAll, beforeAll } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "./app-server";
import { createTestDatabase, type TestDatabase } from "./test-database";

export interface AppWithDatabase {
  database: TestDatabase;
  app: RunningApp;
  db: ReturnType<typeof createPrismaClient>;
}

export async function startAppWithDatabase(label: string, env: Record<string, string>, poolSize?: number): Promise<AppWithDatabase> {
  const database = await createTestDatabase(label);
  const app = await startAppServer({ DATABASE_URL: database.url, ...env });
  return { database, app, db: createPrismaClient(database.url, poolSize) };
}

/** Stops what `startAppWithDatabase` started; any part may be missing when the start failed. */
export async function stopAppWithDatabase(started: Partial<AppWithDatabase>) {
  await started.db?.$disconnect();
  await started.app?.stop();
  await started.database?.dispose();
}

/**
 * For a test file: `startAppWithDatabase` before its tests, `stopAppWithDatabase` after
 * them. The answer's app, db and database are there from the tests on.
 */
export function useAppWithDatabase(label: string, env: Record<string, string>, poolSize?: number): AppWithDatabase {
  const started = {} as AppWithDatabase;
  beforeAll(async () => {
    Object.assign(started, await startAppWithDatabase(label, env, poolSize));
  }, 120_000);
  afterAll(() => stopAppWithDatabase(started));
  return started;
}
