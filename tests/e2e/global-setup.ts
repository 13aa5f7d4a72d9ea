// The end-to-end suite runs the built app in local mode on its own database,
// seeded with the demo data as `npm start` seeds it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { startAppServer } from "../support/app-server";
import { createTestDatabase } from "../support/test-database";

export default async function globalSetup(_config: FullConfig) {
  const database = await createTestDatabase("e2e");
  // The demo vendor answers the Test page's purchase orders, as in `npm start`; its files live in a
  // folder of this run's own. The scheduler stays off: scheduled runs would race the assertions.
  const dataDir = mkdtempSync(path.join(tmpdir(), "e2e-data-"));
  const app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1", DEMO_VENDOR: "1", DATA_DIR: dataDir });
  process.env.E2E_BASE_URL = app.url;
  // The app's Shopify stand-in: specs set the demo shop's stock through it (PUT /__levels).
  process.env.E2E_STAND_IN_URL = app.output().match(/Shopify stand-in answering at (\S+)/)![1];
  process.env.E2E_DATABASE_URL = database.url;
  return async () => {
    await app.stop();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
