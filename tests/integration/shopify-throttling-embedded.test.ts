// Shopify's rate limit in embedded mode (D46): the built app talks to the
// stand-in over HTTPS through the Shopify library, whose client throws on a
// refused answer. What reaches the app differs by path, and each must be
// waited out: in a signed-in request a THROTTLED answer comes as the library's
// GraphqlQueryError and a 429 as a thrown Response (without Retry-After); on
// the offline session (jobs) a 429 comes as HttpThrottlingError with it.
import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import type { RecordedCall } from "../../app/shopify/stand-in.server";
import { sessionToken, startEmbeddedApp, type EmbeddedApp } from "../support/embedded-app";
import { runEnd } from "../support/runs";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let app: EmbeddedApp;
let db: ReturnType<typeof createPrismaClient>;
let database: TestDatabase;
let orderRowId: number;
const SHOPIFY_ORDER_ID = "5900000000042";

const api = (pathname: string, method = "GET") =>
  fetch(`${app.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${sessionToken()}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" },
  });
/** The stand-in's GraphQL calls of one operation, in order. */
const sent = (operation: string) => app.standIn.calls.filter((call) => call.operation === operation) as Array<RecordedCall & { arrivedMs: number }>;
const gaps = (calls: Array<RecordedCall & { arrivedMs: number }>) =>
  calls.slice(1).map((call, i) => ({ waited: call.arrivedMs - calls[i].answeredMs!, told: calls[i].retryAfterMs ?? 0 }));

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  database = await createTestDatabase("throttle-embedded");
  db = createPrismaClient(database.url);
  app = await startEmbeddedApp({ databaseUrl: database.url });
  ({ id: orderRowId } = await db.order.create({
    data: { order_id: "100000042", shopify_order_id: SHOPIFY_ORDER_ID, items: { create: [{ sku: "TH-BOOT", name: "Trail Boot", qty_ordered: 1 }] } },
    select: { id: true },
  }));
  // The first signed-in request exchanges the session token: the offline session jobs use.
  expect((await api("/api/dropship_log")).status).toBe(200);
  // The install then reads the shop's locations in the background (location_sync, D48): its calls
  // must be over before a test throttles the shop, or they would take the throttled answers.
  for (const deadline = Date.now() + 30_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if ((await db.feedLog.count({ where: { feed_name: "location_sync", type: { in: ["finished", "failed"] } } })) > 0) break;
    if (Date.now() > deadline) throw new Error("the install's location_sync did not end within 30 s");
  }
}, 120_000);

afterEach(() => {
  app.standIn.unthrottle();
  app.standIn.calls.length = 0;
});

afterAll(async () => {
  if (process.env.DEBUG_APP_OUTPUT) console.log(app?.output());
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

describe("a signed-in request", () => {
  it("waits out THROTTLED (the library's GraphqlQueryError) for what the cost extension says", async () => {
    // OrderRead costs 1 point: at 5 points a second the empty bucket refuses it and tells a wait of about 0.2 s.
    app.standIn.throttle({ bucket: { maximumAvailable: 200, restoreRate: 5, currentlyAvailable: 0 } });
    const response = await api(`/api/advancedordergrid_forcesync?id=${orderRowId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ error: false });

    const reads = sent("OrderRead");
    expect(reads.map((call) => call.throttled ?? "answered")).toEqual(["THROTTLED", "answered"]);
    expect(reads[0].retryAfterMs).toBeGreaterThan(0);
    for (const { waited, told } of gaps(reads)) expect(waited).toBeGreaterThanOrEqual(told);
    await expect
      .poll(
        async () =>
          (await db.productApiOperation.findMany({ where: { operation: "OrderRead" }, select: { status: true, response: true } })).map((row) => [
            row.status,
            (row.response as { attempts?: number }).attempts,
          ]),
        { timeout: 10_000 },
      )
      .toEqual([["success", 2]]);
  });

  it("waits out HTTP 429 (a Response the library throws, its Retry-After lost) for at least what Shopify said", async () => {
    app.standIn.throttle({ http429: { times: 1, retryAfterSeconds: 0.3 } });
    const response = await api(`/api/advancedordergrid_forcesync?id=${orderRowId}`);
    expect(response.status).toBe(200);
    const reads = sent("OrderRead");
    expect(reads.map((call) => call.throttled ?? "answered")).toEqual(["HTTP 429", "answered"]);
    for (const { waited, told } of gaps(reads)) expect(waited).toBeGreaterThanOrEqual(told);
  });
});

describe("a job on the offline session", () => {
  it("waits out HTTP 429 (HttpThrottlingError) for its Retry-After, and finishes its work", async () => {
    await db.categoryTagsMapping.create({ data: { as400_category_id: "TH-BOOTS", shopify_tags: "footwear" } });
    await db.product.create({ data: { sku: "TH-BOOT", name: "Trail Boot", as400_category_id: "TH-BOOTS" } });
    await db.feed.upsert({ where: { name: "product_sync" }, update: {}, create: { name: "product_sync", cron_expression: "0 3 * * *" } });
    app.standIn.throttle({ http429: { times: 2, retryAfterSeconds: 0.4 } });

    // Run Feed answers at once; the run is followed to its end with the session token, as the page does (D93).
    const started = (await (await api("/api/feed_run?feed_name=product_sync", "POST")).json()) as { run_id: number };
    const answer = await runEnd(app.url, started.run_id, {
      init: { headers: { authorization: `Bearer ${sessionToken()}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" } },
    });
    expect(answer).toMatchObject({ status: "finished", feed_status: "finished" });
    expect(answer.detail).toContain("1 Shopify product tagged");
    const searches = sent("ProductsBySku");
    expect(searches.map((call) => call.throttled ?? "answered")).toEqual(["HTTP 429", "HTTP 429", "answered"]);
    for (const { waited, told } of gaps(searches)) expect(waited).toBeGreaterThanOrEqual(told);
    expect(sent("ProductTagsAdd").map((call) => call.throttled ?? "answered")).toEqual(["answered"]);
  });
});
