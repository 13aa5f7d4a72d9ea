// `npm run seed [-- --orders N]`: demo data (when the database has none) and,
// with --orders, bulk orders up to N in all. Uses DATABASE_URL, or starts the
// embedded PostgreSQL under DATA_DIR as `npm start` does.
import path from "node:path";
import { parseArgs } from "node:util";
import { openLocalDatabase } from "../../app/db/embedded-postgres.server";
import { applyMigrations } from "../../app/db/migrate.server";
import { seedBulkOrders } from "./bulk-orders";
import { seedDemoData } from "./demo";

const { values } = parseArgs({ options: { orders: { type: "string" } } });
const orders = values.orders === undefined ? 0 : Number(values.orders);
if (!Number.isInteger(orders) || orders < 0) {
  console.error(`--orders must be a whole number, not "${values.orders}"`);
  process.exit(1);
}

const embedded = process.env.DATABASE_URL
  ? null
  : await openLocalDatabase({ dataDir: path.resolve(process.env.DATA_DIR ?? ".data"), port: Number(process.env.PG_PORT ?? 54329) });
try {
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  await applyMigrations(databaseUrl);
  const started = Date.now();
  console.log((await seedDemoData(databaseUrl)) ? "Seeded demo data." : "Demo data already present.");
  if (orders) {
    const added = await seedBulkOrders(databaseUrl, orders);
    console.log(`Added ${added} orders (${((Date.now() - started) / 1000).toFixed(1)} s).`);
  }
} finally {
  await embedded?.stop();
}
