import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../support/app-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedBulkOrders } from "../../prisma/seed/bulk-orders";
import { seedDemoData } from "../../prisma/seed/demo";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let client: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase("test");
  client = new pg.Client({ connectionString: database.url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await database.dispose();
});

// Tables of work in progress, not of what screens list: a background run's state
// (shown only while it runs, or for an hour after) and the 997 bookkeeping of
// received groups (D100), and what a run saw of an incoming file it left because it
// was not whole yet (D181). Demo data does not fake them.
const WORK_STATE_TABLES = ["background_run", "x12_group_ack", "incoming_file_sighting"];

async function tableCounts() {
  const { rows } = await client.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
       AND table_name NOT IN ('_prisma_migrations', 'Session', ${WORK_STATE_TABLES.map((name) => `'${name}'`).join(", ")}) ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of rows) {
    counts[table_name] = Number((await client.query(`SELECT count(*) FROM "${table_name}"`)).rows[0].count);
  }
  return counts;
}

describe("seed", () => {
  it("fills every table with demo data, once", async () => {
    expect(await seedDemoData(database.url)).toBe(true);
    const counts = await tableCounts();
    expect(Object.entries(counts).filter(([, count]) => count === 0)).toEqual([]);
    expect(counts.order_grid).toBeGreaterThanOrEqual(300);
    expect(counts.dropship_vendor).toBe(12);
    expect(counts.dropship_log).toBeGreaterThan(100);

    expect(await seedDemoData(database.url)).toBe(false);
    expect(await tableCounts()).toEqual(counts);
  });

  it("dates nothing in the future: every timestamp of the demo data is at most now (issue 18 item 6)", async () => {
    const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('timestamp with time zone', 'timestamp without time zone', 'date')
          AND table_name NOT IN ('_prisma_migrations', 'Session')
        ORDER BY table_name, column_name`,
    );
    expect(columns.length).toBeGreaterThan(20);
    const future: string[] = [];
    for (const { table_name, column_name } of columns) {
      // A date column holds a business day: today is not the future.
      const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${table_name}" WHERE "${column_name}" > (CASE WHEN
        pg_typeof("${column_name}")::text = 'date' THEN current_date::timestamptz + interval '1 day' - interval '1 microsecond'
        ELSE now() END)`);
      if (rows[0].n > 0) future.push(`${table_name}.${column_name}: ${rows[0].n}`);
    }
    expect(future).toEqual([]);
  });

  it("has vendors in both formats and assignments in every status", async () => {
    const formats = await client.query(`SELECT edi_format, count(*) FROM dropship_vendor GROUP BY edi_format ORDER BY edi_format`);
    expect(formats.rows.map((row) => row.edi_format)).toEqual([0, 1]);
    const statuses = await client.query(`SELECT DISTINCT assign_status FROM assignment ORDER BY assign_status`);
    expect(statuses.rows.map((row) => row.assign_status)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const feedTypes = await client.query(`SELECT DISTINCT type FROM feed_log ORDER BY type`);
    expect(feedTypes.rows.map((row) => row.type)).toEqual(["failed", "finished", "skipped", "starting"]);
    const errors = await client.query(`SELECT count(*) FROM special_order_error`);
    expect(Number(errors.rows[0].count)).toBeGreaterThan(0);
  });

  it("adds bulk orders up to the total asked for, and no more when run again", async () => {
    const before = Number((await client.query(`SELECT count(*) FROM order_grid`)).rows[0].count);
    const added = await seedBulkOrders(database.url, before + 2500, () => {});
    expect(added).toBe(2500);
    const after = await client.query(`SELECT count(*) AS orders, count(DISTINCT order_id) AS ids FROM order_grid`);
    expect(Number(after.rows[0].orders)).toBe(before + 2500);
    expect(Number(after.rows[0].ids)).toBe(before + 2500);
    const items = await client.query(`SELECT count(*) FROM order_item i JOIN order_grid o ON o.id = i.order_id WHERE o.order_id LIKE 'B%'`);
    expect(Number(items.rows[0].count)).toBe(2500);
    expect(await seedBulkOrders(database.url, before + 2500, () => {})).toBe(0);
  });
});

describe("npm run seed", () => {
  it("without DATABASE_URL seeds the embedded database under DATA_DIR, and refuses a bad --orders", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "seed-cli-"));
    chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as the postgres user and must enter it
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PG_PORT: String(await freePort()) };
    delete env.DATABASE_URL;
    const run = (...args: string[]) => spawnSync(process.execPath, ["--import", "tsx", "prisma/seed/cli.ts", ...args], { env, encoding: "utf8" });
    try {
      const bad = run("--orders", "many");
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('--orders must be a whole number, not "many"');

      const first = run("--orders", "450");
      expect(first.stderr).not.toContain("Error");
      expect(first.stdout).toContain("Seeded demo data.");
      expect(first.stdout).toMatch(/Added \d+ orders/);
      const again = run("--orders", "450");
      expect(again.stdout).toContain("Demo data already present.");
      expect(again.stdout).toContain("Added 0 orders");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
