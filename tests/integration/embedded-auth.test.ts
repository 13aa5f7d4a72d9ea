// Embedded mode, over real HTTP to the built app, with the Shopify stand-in
// over HTTPS where the shop's domain would be: every page and /api route is
// refused without a valid session token; a valid one is exchanged for an
// offline token once, then served. Only the merchant's shop (SHOPIFY_SHOPS)
// is served: anything for another shop is refused and writes nothing.
// Webhooks check their HMAC.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { databaseRelay } from "../support/database-relay";
import { createTestDatabase, type TestDatabase } from "../support/test-database";
import { EMBEDDED, hostParam, sessionToken, startEmbeddedApp, webhookHeaders, type EmbeddedApp } from "../support/embedded-app";

const SHOP = EMBEDDED.shop;
const OTHER_SHOP = "someone-else.myshopify.com";

let app: EmbeddedApp;
let db: ReturnType<typeof createPrismaClient>;

/** Every path the built app routes, with parameters filled in, and whether it has a loader and an action. */
async function routedPaths(): Promise<Array<{ path: string; loader: boolean; action: boolean }>> {
  const build = (await import(path.resolve("build/server/index.js"))) as {
    routes: Record<string, { id: string; path?: string; parentId?: string; index?: boolean; module: { loader?: unknown; action?: unknown } }>;
  };
  const full = (id: string): string => {
    const route = build.routes[id];
    const parent = route.parentId ? full(route.parentId) : "";
    return [parent, route.path ?? ""].filter(Boolean).join("/");
  };
  return Object.values(build.routes)
    .filter((route) => route.id !== "root" && (route.path || route.index))
    .map((route) => ({
      path: "/" + full(route.id).replace(/:\w+/g, "1").replace(/\*$/, "no-such-page"),
      loader: typeof route.module.loader === "function",
      action: typeof route.module.action === "function",
    }));
}

let database: TestDatabase;

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  // A database of its own: the session table starts empty, as on a fresh install.
  database = await createTestDatabase("embedded");
  db = createPrismaClient(database.url);
  app = await startEmbeddedApp({ databaseUrl: database.url });
}, 120_000);

afterAll(async () => {
  if (process.env.DEBUG_APP_OUTPUT) console.log(app?.output());
  await app?.stop();
  await db?.$disconnect();
  await database?.dispose();
});

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${pathname}`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0", ...headers }, redirect: "manual" });

describe("embedded mode", () => {
  it("refuses every page and /api route without a session token", async () => {
    const routes = (await routedPaths()).filter((route) => !/^\/(auth|webhooks|exitiframe|healthz)/.test(route.path));
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/", "/api/dropship_log", "/dropship/logs", "/dropship", "/api/dropship_vendor", "/api/dropship_tools_submit"]),
    );
    const refused = [301, 302, 401, 403, 410];
    for (const route of routes) {
      // Every loader: refused by authentication, before it reads anything.
      const response = await get(route.path);
      const body = await response.text();
      // A path that acts answers GET with 405 whoever asks (D54): nothing is read or run.
      if (response.status === 405) expect(response.headers.get("allow")).toBe("POST");
      if (route.loader) expect([...refused, 405], `GET ${route.path} answered ${response.status}`).toContain(response.status);
      else expect(response.status, `GET ${route.path} answered ${response.status}`).toBeGreaterThanOrEqual(400);
      expect(body).not.toContain("Drop Shipping Logs");
      // Every action: refused by authentication too.
      if (route.action) {
        const post = await fetch(`${app.url}${route.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" },
          body: "{}",
          redirect: "manual",
        });
        expect(refused, `POST ${route.path} answered ${post.status}`).toContain(post.status);
      }
    }
  });

  it("refuses a token signed with another secret, for another app, or expired", async () => {
    expect((await get("/api/dropship_log", { authorization: `Bearer ${sessionToken({ secret: "wrong-secret" })}` })).status).toBe(401);
    expect((await get("/api/dropship_log", { authorization: `Bearer ${sessionToken({ apiKey: "another-app" })}` })).status).toBe(401);
    const expired = sessionToken({ claims: { exp: Math.floor(Date.now() / 1000) - 120 } });
    expect((await get("/api/dropship_log", { authorization: `Bearer ${expired}` })).status).toBe(401);
    expect(app.standIn.calls.filter((call) => call.operation === "TokenExchange")).toEqual([]);
  });

  it("exchanges the first valid session token for an offline token at the shop, once, then serves /api with it", async () => {
    const response = await get("/api/dropship_log?page=1&sort=id&sort_dir=desc", { authorization: `Bearer ${sessionToken()}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { total: number; data: unknown[] }; columns: unknown[] };
    expect(body.data).toHaveProperty("total");
    expect(body.columns.length).toBeGreaterThan(5);

    const exchanges = app.standIn.calls.filter((call) => call.operation === "TokenExchange");
    expect(exchanges).toEqual([
      expect.objectContaining({ variables: { shop: SHOP, requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token" } }),
    ]);
    const [session] = await db.session.findMany({ where: { shop: SHOP } });
    expect(session).toMatchObject({ id: `offline_${SHOP}`, isOnline: false, scope: EMBEDDED.scopes });
    // The offline token is stored encrypted, bound to its session (D211): the row alone gives no access to the shop.
    expect(app.standIn.issuedTokens.size).toBe(1);
    const [issued] = app.standIn.issuedTokens;
    expect(session.accessToken).toMatch(/^v2:[0-9a-f]{16}:/);
    expect(session.accessToken).not.toContain(issued);

    // A second request uses the stored session: no second exchange.
    expect((await get("/api/dropship_vendor", { authorization: `Bearer ${sessionToken()}` })).status).toBe(200);
    expect(app.standIn.calls.filter((call) => call.operation === "TokenExchange")).toHaveLength(1);

    // The install reads the shop's locations into the stores, in the background, with the new token (D48).
    await expect.poll(() => db.feedLog.count({ where: { feed_name: "location_sync", type: "finished" } }), { timeout: 30_000 }).toBe(1);
    expect(app.standIn.calls.map((call) => call.operation)).toContain("ShopLocations");
    expect(await db.inventorySource.count({ where: { type: "store", enabled: 1, shopify_location_id: { not: null } } })).toBeGreaterThan(0);
  });

  it("serves pages opened by the admin with an id_token, and calls the Admin API with the offline token", async () => {
    app.standIn.calls.length = 0;
    const response = await get(`/dropship/logs/?embedded=1&shop=${SHOP}&host=${hostParam()}&id_token=${sessionToken()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Drop Shipping Logs");
    expect(html).toContain("https://cdn.shopify.com/shopifycloud/app-bridge.js"); // App Bridge is loaded in embedded mode
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors https://test-shop.myshopify.com https://admin.shopify.com");
    // Home's shop name comes from the Admin API: the stand-in, asked at https://test-shop.myshopify.com with the issued token.
    const home = await get(`/?embedded=1&shop=${SHOP}&host=${hostParam()}&id_token=${sessionToken()}`);
    expect(await home.text()).toContain("Demo Outfitters");
    expect(app.standIn.calls.map((call) => call.operation)).toContain("ShopInfo");
  });

  it("reads an offline token stored in plain text before encryption, and stores it encrypted (D211)", async () => {
    const [issued] = app.standIn.issuedTokens;
    await db.session.update({ where: { id: `offline_${SHOP}` }, data: { accessToken: issued } });
    app.standIn.calls.length = 0;
    // location_sync reads the shop's locations with the offline token: the stand-in answers only to the token it issued.
    const finishedBefore = await db.feedLog.count({ where: { feed_name: "location_sync", type: "finished" } });
    const run = await fetch(`${app.url}/api/feed_run?feed_name=location_sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${sessionToken()}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" },
    });
    expect(run.status).toBe(202);
    await expect.poll(() => db.feedLog.count({ where: { feed_name: "location_sync", type: "finished" } }), { timeout: 30_000 }).toBe(finishedBefore + 1);
    expect(app.standIn.calls.map((call) => call.operation)).toContain("ShopLocations");
    expect(app.standIn.calls.map((call) => call.operation)).not.toContain("TokenExchange");
    const stored = await db.session.findUniqueOrThrow({ where: { id: `offline_${SHOP}` } });
    expect(stored.accessToken).toMatch(/^v2:/);
    expect(stored.accessToken).not.toContain(issued);
  });

  it("checks every shop the login is given: query, repeated, form field (urlencoded or multipart), any case or prefix (D205)", async () => {
    const sessionsBefore = await db.session.count();
    app.standIn.calls.length = 0;
    const post = (query: string, body?: URLSearchParams | FormData) =>
      fetch(`${app.url}/auth/login${query}`, {
        method: "POST",
        body,
        redirect: "manual",
        headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" },
      });
    const multipart = (shop: string) => {
      const form = new FormData();
      form.set("shop", shop);
      return form;
    };
    const refused = {
      "empty query, form field": await post("?shop=", new URLSearchParams({ shop: OTHER_SHOP })),
      "empty query, multipart field": await post("?shop=", multipart(OTHER_SHOP)),
      "multipart field": await post("", multipart(OTHER_SHOP)),
      "our shop in the query, another in the form": await post(`?shop=${SHOP}`, new URLSearchParams({ shop: OTHER_SHOP })),
      "repeated in the query (POST)": await post(`?shop=${SHOP}&shop=${OTHER_SHOP}`),
      "repeated in the query (GET)": await get(`/auth/login?shop=${SHOP}&shop=${OTHER_SHOP}`),
      "empty first in the query": await get(`/auth/login?shop=&shop=${OTHER_SHOP}`),
      "repeated in the form": await post(
        "",
        new URLSearchParams([
          ["shop", SHOP],
          ["shop", OTHER_SHOP],
        ]),
      ),
      "upper case, https:// and spaces": await post("", new URLSearchParams({ shop: `  HTTPS://${OTHER_SHOP.toUpperCase()}/ ` })),
      "bare name": await post("", new URLSearchParams({ shop: "someone-else" })),
    };
    for (const [how, response] of Object.entries(refused)) {
      expect(response.status, how).toBe(403);
      expect(response.headers.get("location"), how).toBeNull();
      const page = await response.text();
      expect(page, how).toContain("This app serves one merchant&#x27;s shop only.");
      expect(page, how).not.toContain("oauth/install");
    }
    // The merchant's shop, however typed, goes to its install.
    for (const shop of [SHOP, " Test-Shop ", `https://${SHOP}/`, "test-shop"]) {
      for (const response of [await post("?shop=", new URLSearchParams({ shop })), await post("", multipart(shop))]) {
        expect(response.status, shop).toBe(302);
        expect(response.headers.get("location"), shop).toMatch(/^https:\/\/admin\.shopify\.com\/store\/test-shop\/oauth\/install\?client_id=/);
      }
    }
    expect(app.standIn.calls).toEqual([]);
    expect(await db.session.count()).toBe(sessionsBefore);
  });

  it("refuses another shop's install, token exchange, pages, /api and webhooks, and writes nothing", async () => {
    const sessionsBefore = await db.session.count();
    app.standIn.calls.length = 0;
    // A session token genuinely signed with our secret, but for another shop (another merchant installed the app).
    const otherToken = sessionToken({ shop: OTHER_SHOP });
    expect((await get("/api/dropship_log", { authorization: `Bearer ${otherToken}` })).status).toBe(403);
    expect((await get(`/dropship/logs/?embedded=1&shop=${OTHER_SHOP}&host=${hostParam(OTHER_SHOP)}&id_token=${otherToken}`)).status).toBe(403);
    // Our shop's token with another shop in the query string is refused too.
    expect((await get(`/?embedded=1&shop=${OTHER_SHOP}&host=${hostParam(OTHER_SHOP)}&id_token=${sessionToken()}`)).status).toBe(403);
    expect((await get(`/auth/login?shop=${OTHER_SHOP}`)).status).toBe(403);
    expect((await get(`/auth?shop=${OTHER_SHOP}`)).status).toBe(403);
    const login = await fetch(`${app.url}/auth/login`, {
      method: "POST",
      body: new URLSearchParams({ shop: OTHER_SHOP }),
      redirect: "manual",
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" },
    });
    expect(login.status).toBe(403);
    expect(await login.text()).not.toContain(`https://${OTHER_SHOP}`);

    const body = JSON.stringify({ id: 1234567, name: "#1001", email: "x@example.com", line_items: [] });
    for (const topic of ["orders/create", "app/uninstalled"]) {
      const response = await fetch(`${app.url}/webhooks/${topic}`, { method: "POST", body, headers: webhookHeaders(body, topic, { shop: OTHER_SHOP }) });
      expect(response.status, topic).toBe(403);
    }
    expect(app.standIn.calls).toEqual([]); // no token exchange, no Admin API call
    expect(await db.session.count()).toBe(sessionsBefore);
    expect(await db.webhookEvent.count({ where: { shop: OTHER_SHOP } })).toBe(0);
    expect(await db.order.count({ where: { shopify_order_id: "1234567" } })).toBe(0);
  });

  it("refuses a write from another site's page even with a session token, and takes the app's own (D54)", async () => {
    const save = (origin: string) =>
      fetch(`${app.url}/api/category_tags_mapping`, {
        method: "POST",
        headers: {
          origin,
          authorization: `Bearer ${sessionToken()}`,
          "content-type": "application/json",
          "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0",
        },
        body: JSON.stringify({ as400_category_id: "ORIGIN-CHECK", shopify_tags: "checked" }),
      });
    expect((await save("https://evil.example.com")).status).toBe(403);
    expect(await db.categoryTagsMapping.count({ where: { as400_category_id: "ORIGIN-CHECK" } })).toBe(0);
    // SHOPIFY_APP_URL is the app's origin here; the Host it is reached by is not checked in embedded mode.
    expect((await save(new URL(app.url).origin)).status).toBe(200);
    expect(await db.categoryTagsMapping.count({ where: { as400_category_id: "ORIGIN-CHECK" } })).toBe(1);
  });

  it("accepts webhooks only with a valid HMAC", async () => {
    const body = JSON.stringify({ id: 1 });
    const forged = await fetch(`${app.url}/webhooks/app/scopes_update`, {
      method: "POST",
      body,
      headers: webhookHeaders(body, "app/scopes_update", { secret: "forged" }),
    });
    expect(forged.status).toBe(401);
    const genuine = await fetch(`${app.url}/webhooks/app/scopes_update`, { method: "POST", body, headers: webhookHeaders(body, "app/scopes_update") });
    expect(genuine.status).toBe(200);
  });
});

describe("embedded mode with the database down", () => {
  it("answers /api and pages with a 503 that says so, even though the session cannot be read (D210)", async () => {
    const own = await createTestDatabase("embedded-down");
    const relay = await databaseRelay(new URL(own.url));
    const started = await startEmbeddedApp({ databaseUrl: own.url, env: { DATABASE_URL: relay.url } });
    const bearer = () => ({ authorization: `Bearer ${sessionToken()}`, "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" });
    try {
      expect((await fetch(`${started.url}/api/dropship_log`, { headers: bearer() })).status).toBe(200);
      await relay.shut();
      const api = await fetch(`${started.url}/api/dropship_log`, { headers: bearer() });
      expect(api.status).toBe(503);
      expect(((await api.json()) as { message: string }).message).toMatch(/^The database is unavailable; try again shortly \(reference \w+\)$/);
      const page = await fetch(`${started.url}/dropship/logs/?embedded=1&shop=${SHOP}&host=${hostParam()}&id_token=${sessionToken()}`, { headers: bearer() });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("The database is unavailable; try again shortly (reference");
      await relay.open();
      await expect.poll(async () => (await fetch(`${started.url}/api/dropship_log`, { headers: bearer() })).status, { timeout: 20_000 }).toBe(200);
    } finally {
      await started.stop();
      await relay.shut().catch(() => {});
      await own.dispose();
    }
  });
});
