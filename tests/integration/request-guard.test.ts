// Local mode is not an open door (D54), over real HTTP to the built app: a
// foreign Host (DNS rebinding) and a write from another site's page (CSRF) are
// refused before anything runs; the paths that act answer GET with 405; a
// blank Shopify variable stops the start.
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient, type PrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "../support/app-server";
import { followRun, runEnd } from "../support/runs";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let db: PrismaClient;
let app: RunningApp;
let port: number;

/** node:http, not fetch: fetch does not let a caller choose the Host header. */
function send(
  pathname: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest({ host: "127.0.0.1", port, path: pathname, method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    call.on("error", reject);
    call.end();
  });
}

const RUN = "/api/eod_report_run?sales_date=2026-11-20&days=1";
const counts = async () => ({
  reportRows: await db.eodReportRow.count(),
  batches: await db.eodBatch.count(),
  feedLogs: await db.feedLog.count(),
  mappings: await db.categoryTagsMapping.count(),
  runs: await db.backgroundRun.count(),
});

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  database = await createTestDatabase("request_guard");
  db = createPrismaClient(database.url);
  // A run would make a report row of these.
  await db.salesRecord.create({
    data: { source_key: "order:9001", record_type: "invoice", order_increment_id: "9001", amount: 40, record_date: new Date("2026-11-20T00:00:00Z") },
  });
  app = await startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0" });
  port = Number(new URL(app.url).port);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

describe("local mode's request guard", () => {
  it("refuses a Host that is not its own (DNS rebinding), before anything is read", async () => {
    for (const host of ["evil.example.com", `evil.example.com:${port}`, `localhost:${port + 1}`]) {
      const grid = await send("/api/eod_report", { headers: { host } });
      expect(grid.status).toBe(403);
      expect(grid.body).not.toContain("sales_date");
      expect((await send("/", { headers: { host } })).status).toBe(403);
    }
    const before = await counts();
    expect((await send(RUN, { method: "POST", headers: { host: "evil.example.com" } })).status).toBe(403);
    expect(await counts()).toEqual(before);

    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const grid = await send("/api/eod_report", { headers: { host } });
      expect(grid.status).toBe(200);
      expect(grid.body).toContain("sales_date");
    }
  });

  it("refuses a write from another site's page (CSRF): 403 and nothing changed", async () => {
    const before = await counts();
    const evil = { origin: "https://evil.example.com" };
    expect((await send(RUN, { method: "POST", headers: evil })).status).toBe(403);
    expect((await send("/api/feed_run?feed_name=location_sync", { method: "POST", headers: evil })).status).toBe(403);
    expect((await send("/api/special_order_pull", { method: "POST", headers: { origin: "null" } })).status).toBe(403);
    // Without Origin, a foreign Referer says the same.
    expect((await send("/api/eod_report_export", { method: "POST", headers: { referer: "https://evil.example.com/form.html" } })).status).toBe(403);
    // A route that took POST before as well: a form on another site could create a mapping.
    const mapping = JSON.stringify({ as400_category_id: "CSRF", shopify_tags: "forged" });
    const forged = await fetch(`${app.url}/api/category_tags_mapping`, {
      method: "POST",
      headers: { ...evil, "content-type": "application/json" },
      body: mapping,
    });
    expect(forged.status).toBe(403);
    expect(await counts()).toEqual(before);

    // The app's own pages (same origin), and callers without a browser (no Origin), go through.
    const own = await fetch(`${app.url}/api/category_tags_mapping`, {
      method: "POST",
      headers: { origin: app.url, "content-type": "application/json" },
      body: mapping,
    });
    expect(own.status).toBe(200);
    expect(await db.categoryTagsMapping.count()).toBe(before.mappings + 1);
  });

  it("answers GET with 405 and Allow: POST on every path that acts, and runs nothing", async () => {
    const before = await counts();
    for (const pathname of [
      RUN,
      "/api/eod_report_retry",
      "/api/eod_report_export",
      "/api/feed_run?feed_name=location_sync",
      "/api/special_order_pull",
      "/api/eod_report_run/some-token",
      "/api/eod_report_retry/some-token",
    ]) {
      const response = await fetch(`${app.url}${pathname}`);
      expect(response.status, pathname).toBe(405);
      expect(response.headers.get("allow"), pathname).toBe("POST");
      expect(await response.json()).toEqual({ error: true, message: "Use POST for this path." });
    }
    expect(await counts()).toEqual(before);
    expect(await db.feedLog.count({ where: { feed_name: "special_order_pull" } })).toBe(0);
  });

  it("runs the report on a same-origin POST, from either loopback name", async () => {
    const run = await send(RUN, { method: "POST", headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } });
    expect(run.status).toBe(202); // started in the background, followed to its end (D93)
    expect(await runEnd(app.url, JSON.parse(run.body).run_id)).toMatchObject({ error: false, result: { rows: 1, created: 1 } });
    expect(await db.eodReportRow.count()).toBe(1);
    const again = await fetch(`${app.url}${RUN}`, { method: "POST", headers: { origin: app.url } });
    expect((await followRun(app.url, again)).body).toMatchObject({ error: false, result: { rows: 1, unchanged: 1 } });
  });
});

describe("local mode's start", () => {
  it("stops with a clear line when a Shopify variable is set but blank", async () => {
    const start = startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", SHOPIFY_API_KEY: "" });
    await expect(start).rejects.toThrow(
      /The app exited \(1\)[\s\S]*SHOPIFY_API_KEY is set but blank: local mode \(no authentication\) does not start that way/,
    );
  });

  it("stops under NODE_ENV=production unless asked", async () => {
    const start = startAppServer({ DATABASE_URL: database.url, SEED_DEMO_DATA: "0", NODE_ENV: "production" });
    await expect(start).rejects.toThrow(/The app exited \(1\)[\s\S]*NODE_ENV is production: local mode has no authentication/);
  });
});
