// Local mode over real HTTP: loopback only, health with database status, and
// what staff and API callers see when something breaks underneath (no stack).
import { networkInterfaces } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type RunningApp } from "../support/app-server";
import { databaseRelay } from "../support/database-relay";
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

  it("is never framed: every page and answer forbids it (D207)", async () => {
    for (const pathname of ["/", "/dropship/logs/", "/api/dropship_log", "/exitiframe?redirectUri=/", "/no-such-page", "/healthz"]) {
      const response = await fetch(`${app.url}${pathname}`);
      expect(response.headers.get("content-security-policy"), pathname).toBe("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options"), pathname).toBe("DENY");
    }
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

describe("the database down", () => {
  it("answers /api and pages with a 503 that says so, not a 500, and serves again once it is back (D210)", async () => {
    const own = await createTestDatabase("down");
    const relay = await databaseRelay(new URL(own.url));
    const started = await startAppServer({ DATABASE_URL: relay.url, SEED_DEMO_DATA: "0" });
    try {
      expect((await fetch(`${started.url}/api/dropship_log`)).status).toBe(200);
      await relay.shut();

      const api = await fetch(`${started.url}/api/dropship_log`);
      expect(api.status).toBe(503);
      const body = (await api.json()) as { error: boolean; message: string };
      expect(body).toMatchObject({ error: true, message: expect.stringMatching(/^The database is unavailable; try again shortly \(reference (\w+)\)$/) });
      const reference = /reference (\w+)/.exec(body.message)![1];
      expect(started.output()).toContain(`the database is unavailable (reference ${reference})`);

      const page = await fetch(`${started.url}/dropship/logs/`);
      expect(page.status).toBe(503);
      const html = await page.text();
      expect(html).toContain("The database is unavailable; try again shortly (reference");
      expect(html).not.toMatch(/at \S+ \(.*:\d+:\d+\)/); // no stack trace

      await relay.open();
      await expect.poll(async () => (await fetch(`${started.url}/api/dropship_log`)).status, { timeout: 20_000 }).toBe(200);
    } finally {
      await started.stop();
      await relay.shut().catch(() => {});
      await own.dispose();
    }
  });
});
