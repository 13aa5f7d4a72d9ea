// Who did what in embedded mode (issue 32 item 5): the built app behind
// session tokens, the Shopify stand-in over HTTPS. The staff member recorded
// is the Shopify user of the session token (its `sub`), not the shop.
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { sessionToken, startEmbeddedApp, type EmbeddedApp } from "../support/embedded-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let app: EmbeddedApp;
let db: ReturnType<typeof createPrismaClient>;
let database: TestDatabase;

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  database = await createTestDatabase("staffactemb");
  db = createPrismaClient(database.url);
  app = await startEmbeddedApp({ databaseUrl: database.url });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

const BROWSER = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" };
const asUser = (user: string, pathname: string, json: unknown) =>
  fetch(`${app.url}${pathname}`, {
    method: "POST",
    headers: { ...BROWSER, authorization: `Bearer ${sessionToken({ claims: { sub: user } })}`, "content-type": "application/json" },
    body: JSON.stringify(json),
  });

it("records the Shopify user of the session token as who did it, and the grid filters by that person", async () => {
  const created = await asUser("7001", "/api/saved_views", { grid: "advancedorder", name: "Rush orders", filters: {} });
  expect(created.status).toBe(201);
  const view = await db.savedView.findFirstOrThrow({ where: { name: "Rush orders" } });
  const refused = await asUser("7002", "/api/saved_views", { grid: "advancedorder", name: "Rush orders", filters: {} });
  expect(refused.status).toBe(422);

  const rows = await db.staffActivity.findMany({ where: { action: "saved_view.create" }, orderBy: { id: "asc" } });
  expect(rows.map(({ staff, record_type, record_id, outcome }) => ({ staff, record_type, record_id, outcome }))).toEqual([
    { staff: "shopify-user:7001", record_type: "saved_view", record_id: String(view.id), outcome: "done" },
    { staff: "shopify-user:7002", record_type: null, record_id: null, outcome: "refused" }, // no view was made
  ]);

  const listed = await fetch(`${app.url}/api/staff_activity?staff=shopify-user:7002`, { headers: { ...BROWSER, authorization: `Bearer ${sessionToken()}` } });
  expect(listed.status).toBe(200);
  const answer = (await listed.json()) as { data: { data: Array<{ staff: string; outcome: string }> } };
  expect(answer.data.data).toEqual([expect.objectContaining({ staff: "shopify-user:7002", outcome: "refused" })]);
});
