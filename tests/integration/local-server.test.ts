// Local mode over real HTTP: loopback only, health with database status, and
// what staff and API callers see when something breaks underneath (no stack).
import { networkInterfaces } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type RunningApp } from "../support/app-server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let app: RunningApp;

async function sql(statement: string) {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createTestDatabase("test");
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await database?.dispose();
});

describe("local mode", () => {
  it("answers health with the database status", async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, database: "up" });
  });

  it("listens on loopback only", async () => {
    const port = new URL(app.url).port;
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal);
    if (external) {
      await expect(fetch(`http://${external.address}:${port}/healthz`)).rejects.toThrow();
    }
    expect(app.output()).toContain(`serving http://localhost:${port}`);
  });

  it("shows an empty grid on an empty database", async () => {
    const response = await fetch(`${app.url}/api/dropship_log`);
    expect(await response.json()).toMatchObject({ data: { data: [], total: 0, last_page: 1 } });
  });

  it("shows 'Unexpected Application Error!' and answers /api with a plain 500 when the database fails", async () => {
    await sql("ALTER TABLE dropship_log RENAME TO dropship_log_away");
    try {
      const page = await fetch(`${app.url}/dropship/logs/`);
      expect(page.status).toBe(500);
      const html = await page.text();
      expect(html).toContain("Unexpected Application Error!");
      expect(html).not.toMatch(/at \S+ \(.*:\d+:\d+\)/); // no stack trace

      const api = await fetch(`${app.url}/api/dropship_log`);
      expect(api.status).toBe(500);
      const body = (await api.json()) as { error: boolean; message: string };
      expect(body.error).toBe(true);
      expect(body.message).toMatch(/^Internal error \(reference \w+\)$/);
    } finally {
      await sql("ALTER TABLE dropship_log_away RENAME TO dropship_log");
    }
    expect((await fetch(`${app.url}/api/dropship_log`)).status).toBe(200);
  });

  it("refuses webhooks: there is no secret to check them against", async () => {
    const response = await fetch(`${app.url}/webhooks/app/uninstalled`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
  });
});

describe("health when the database is gone", () => {
  it("says down and nothing more; the reason goes to the log", async () => {
    const own = await createTestDatabase("health");
    const started = await startAppServer({ DATABASE_URL: own.url, SEED_DEMO_DATA: "0" });
    try {
      const admin = new pg.Client({ connectionString: own.serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE "${own.name}" WITH (FORCE)`);
      await admin.end();
      const response = await fetch(`${started.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.text()).toBe(JSON.stringify({ ok: false, database: "down" }));
      expect(started.output()).toMatch(/\[healthz\] database down: .*does not exist/);
    } finally {
      await started.stop();
      await own.dispose(); // already dropped: dispose only logs that
    }
  });
});
