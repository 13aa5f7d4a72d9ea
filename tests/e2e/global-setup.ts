// The end-to-end suite runs the built app in local mode on its own database,
// seeded with the demo data as `npm start` seeds it.
import type { FullConfig } from "@playwright/test";
import { startAppServer } from "../support/app-server";
import { createTestDatabase } from "../support/test-database";

export default async function globalSetup(_config: FullConfig) {
  const database = await createTestDatabase("e2e");
  const app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1" });
  process.env.E2E_BASE_URL = app.url;
  process.env.E2E_DATABASE_URL = database.url;
  return async () => {
    await app.stop();
    await database.dispose();
  };
}
