// The end-to-end suite runs the built app twice, each on its own database
// seeded with the demo data as `npm start` seeds it:
// - in local mode (project "local"), as `npm start` runs it;
// - in embedded mode (project "embedded"), framed by the admin stand-in
//   (tests/e2e/embedded/), with the Shopify stand-in over HTTPS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { seedDemoData } from "../../prisma/seed/demo";
import { startAppServer } from "../support/app-server";
import { EMBEDDED, startEmbeddedApp } from "../support/embedded-app";
import { createTestDatabase } from "../support/test-database";
import { startAdminStandIn } from "./embedded/admin-stand-in";

export default async function globalSetup(_config: FullConfig) {
  const database = await createTestDatabase("e2e");
  // The demo vendor answers the Test page's purchase orders, as in `npm start`; its files live in a
  // folder of this run's own. The scheduler stays off: scheduled runs would race the assertions.
  const dataDir = mkdtempSync(path.join(tmpdir(), "e2e-data-"));
  const app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1", DEMO_VENDOR: "1", DATA_DIR: dataDir });
  process.env.E2E_BASE_URL = app.url;
  process.env.E2E_DATABASE_URL = database.url;

  // Embedded mode: the same server as the local run's database, a database of its own.
  process.env.TEST_DATABASE_SERVER_URL ??= database.serverUrl;
  const embeddedDatabase = await createTestDatabase("e2e_embedded");
  const previousShop = process.env.LOCAL_SHOP;
  process.env.LOCAL_SHOP = EMBEDDED.shop; // the seed's saved views and webhooks belong to the shop
  await seedDemoData(embeddedDatabase.url);
  if (previousShop === undefined) delete process.env.LOCAL_SHOP;
  else process.env.LOCAL_SHOP = previousShop;
  const embedded = await startEmbeddedApp({ databaseUrl: embeddedDatabase.url, env: { DATA_DIR: dataDir } });
  const admin = await startAdminStandIn(embedded.url);
  process.env.E2E_EMBEDDED_APP_URL = embedded.url;
  process.env.E2E_EMBEDDED_DATABASE_URL = embeddedDatabase.url;
  process.env.E2E_ADMIN_URL = admin.url;
  process.env.E2E_SHOPIFY_STAND_IN_URL = embedded.standIn.url;

  return async () => {
    await admin.stop();
    await embedded.stop();
    await embeddedDatabase.dispose();
    await app.stop();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
