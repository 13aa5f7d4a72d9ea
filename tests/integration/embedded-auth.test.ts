// Embedded mode, over real HTTP to the built app: every page and /api route is
// refused without a valid session token; a token signed with the app secret,
// for a shop with a stored session, is served. Webhooks check their HMAC.
import { createHmac, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { startAppServer, type RunningApp } from "../support/app-server";

const API_KEY = "test-api-key";
const SECRET = "test-api-secret";
const SHOP = "test-shop.myshopify.com";
const SCOPES = "read_orders,write_orders";

let app: RunningApp;

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

/** A Shopify session token: an HS256 JWT signed with the app secret. */
function sessionToken(secret = SECRET, overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: `https://${SHOP}/admin`,
      dest: `https://${SHOP}`,
      aud: API_KEY,
      sub: "42",
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
      ...overrides,
    }),
  );
  const signature = base64url(createHmac("sha256", secret).update(`${header}.${payload}`).digest());
  return `${header}.${payload}.${signature}`;
}

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

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  const db = createPrismaClient(process.env.DATABASE_URL!);
  await db.session.upsert({
    where: { id: `offline_${SHOP}` },
    update: {},
    create: { id: `offline_${SHOP}`, shop: SHOP, state: "", isOnline: false, scope: SCOPES, accessToken: "shpat_test" },
  });
  await db.$disconnect();
  app = await startAppServer({
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: SECRET,
    SHOPIFY_APP_URL: "https://ops.example.com",
    SHOPIFY_SHOPS: SHOP,
    SCOPES,
    APP_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
    DATABASE_URL: process.env.DATABASE_URL!,
  });
}, 90_000);

afterAll(() => app?.stop());

const get = (pathname: string, headers: Record<string, string> = {}) =>
  fetch(`${app.url}${pathname}`, { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0", ...headers }, redirect: "manual" });

describe("embedded mode", () => {
  it("refuses every page and /api route without a session token", async () => {
    const routes = (await routedPaths()).filter((route) => !/^\/(auth|webhooks|exitiframe|healthz)/.test(route.path));
    expect(routes.map((route) => route.path)).toEqual(expect.arrayContaining(["/", "/api/dropship_log", "/dropship/logs", "/dropship", "/api/dropship_vendor", "/api/dropship_tools_submit"]));
    const refused = [301, 302, 401, 403, 410];
    for (const route of routes) {
      // Every loader: refused by authentication, before it reads anything.
      const response = await get(route.path);
      const body = await response.text();
      if (route.loader) expect(refused, `GET ${route.path} answered ${response.status}`).toContain(response.status);
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

  it("refuses a token signed with another secret, or expired", async () => {
    expect((await get("/api/dropship_log", { authorization: `Bearer ${sessionToken("wrong-secret")}` })).status).toBe(401);
    const expired = sessionToken(SECRET, { exp: Math.floor(Date.now() / 1000) - 120 });
    expect((await get("/api/dropship_log", { authorization: `Bearer ${expired}` })).status).toBe(401);
  });

  it("serves /api routes to a valid session token of a shop with a stored session", async () => {
    const response = await get("/api/dropship_log?page=1&sort=id&sort_dir=desc", { authorization: `Bearer ${sessionToken()}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { total: number; data: unknown[] }; columns: unknown[] };
    expect(body.data).toHaveProperty("total");
    expect(body.columns.length).toBeGreaterThan(5);
  });

  it("serves pages opened by the admin with an id_token", async () => {
    const host = base64url(`admin.shopify.com/store/test-shop`);
    const response = await get(`/dropship/logs/?embedded=1&shop=${SHOP}&host=${host}&id_token=${sessionToken()}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Drop Shipping Logs");
    expect(html).toContain("app-bridge"); // App Bridge is loaded in embedded mode
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors");
  });

  it("accepts webhooks only with a valid HMAC", async () => {
    const body = JSON.stringify({ id: 1 });
    const headers = (hmac: string) => ({
      "content-type": "application/json",
      "x-shopify-hmac-sha256": hmac,
      "x-shopify-topic": "app/uninstalled",
      "x-shopify-shop-domain": SHOP,
      "x-shopify-api-version": "2025-10",
      "x-shopify-webhook-id": randomUUID(),
    });
    const forged = await fetch(`${app.url}/webhooks/app/uninstalled`, { method: "POST", body, headers: headers("Zm9yZ2Vk") });
    expect(forged.status).toBe(401);
    const signed = createHmac("sha256", SECRET).update(body).digest("base64");
    const genuine = await fetch(`${app.url}/webhooks/app/uninstalled`, { method: "POST", body, headers: headers(signed) });
    expect(genuine.status).toBe(200);
  });
});
