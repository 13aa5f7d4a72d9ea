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
import { standInUrlOf, startAppServer } from "../support/app-server";
import { startDemoVendor } from "../../app/demo/demo-vendor.server";
import { EMBEDDED, EMBEDDED_SECRET_KEY, startEmbeddedApp } from "../support/embedded-app";
import { createTestDatabase } from "../support/test-database";
import { startAdminStandIn } from "./embedded/admin-stand-in";

export default async function globalSetup(_config: FullConfig) {
  const database = await createTestDatabase("e2e");
  // The demo vendor answers the Test page's purchase orders, as in `npm start`; its files live in a
  // folder of this run's own. The scheduler stays off: scheduled runs would race the assertions.
  const dataDir = mkdtempSync(path.join(tmpdir(), "e2e-data-"));
  const app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "1", DEMO_VENDOR: "1", DATA_DIR: dataDir });
  process.env.E2E_BASE_URL = app.url;
  // The app's Shopify stand-in: specs set the demo shop's stock through it (PUT /__levels).
  process.env.E2E_STAND_IN_URL = standInUrlOf(app);
  process.env.E2E_DATABASE_URL = database.url;

  // Embedded mode: the same PostgreSQL server, a database of its own, the same demo data. This
  // process seeds it and runs its demo vendor (SFTP on loopback, also the AS400), as `npm start`
  // does in local mode, with the embedded app's key for vendor passwords.
  process.env.TEST_DATABASE_SERVER_URL ??= database.serverUrl;
  const embeddedDatabase = await createTestDatabase("e2e_embedded");
  process.env.LOCAL_SHOP = EMBEDDED.shop; // the seed's saved views and webhooks belong to the shop
  process.env.APP_SECRET_KEY = EMBEDDED_SECRET_KEY;
  await seedDemoData(embeddedDatabase.url);
  const embeddedDataDir = mkdtempSync(path.join(tmpdir(), "e2e-embedded-data-"));
  const demoVendor = await startDemoVendor({ databaseUrl: embeddedDatabase.url, dataDir: embeddedDataDir, ourIdentity: { qualifier: "ZZ", id: "HOUSEROPS" } });
  const as400 = demoVendor.as400;
  const embedded = await startEmbeddedApp({
    databaseUrl: embeddedDatabase.url,
    env: {
      DATA_DIR: embeddedDataDir,
      AS400_TRANSFER_MECHANISM: "1",
      AS400_HOST: as400.host,
      AS400_PORT: String(as400.port),
      AS400_USER: as400.user,
      AS400_PASSWORD: as400.password,
      AS400_HOST_KEY: as400.hostKey,
    },
  });
  const admin = await startAdminStandIn(embedded.url);
  process.env.E2E_EMBEDDED_APP_URL = embedded.url;
  process.env.E2E_EMBEDDED_DATABASE_URL = embeddedDatabase.url;
  process.env.E2E_ADMIN_URL = admin.url;
  process.env.E2E_SHOPIFY_STAND_IN_URL = embedded.standIn.url;

  return async () => {
    await admin.stop();
    await embedded.stop();
    await demoVendor.stop();
    await embeddedDatabase.dispose();
    rmSync(embeddedDataDir, { recursive: true, force: true });
    await app.stop();
    await database.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
