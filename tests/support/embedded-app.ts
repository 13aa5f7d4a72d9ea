// The app in embedded mode, as the Shopify admin sees it, for the tests: the
// built app started with test credentials, and the loopback Shopify stand-in
// over HTTPS. The app's connections to https://{shop} reach the stand-in
// (tests/support/shopify-hosts.mjs, with a test certificate authority), so
// token exchange and every Admin API call go where they would in production.
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import selfsigned from "selfsigned";
import { createPrismaClient } from "../../app/db/client.server";
import { APP_SCOPES } from "../../app/shopify/access-scopes";
import { databaseCatalog } from "../../app/shopify/stand-in-catalog.server";
import { startShopifyStandIn } from "../../app/shopify/stand-in.server";
import { freePort, startAppServer, type RunningApp } from "./app-server";

export const EMBEDDED = {
  apiKey: "test-api-key",
  secret: "test-api-secret",
  shop: "test-shop.myshopify.com",
  scopes: APP_SCOPES.join(","),
} as const;

/** Encrypts vendor passwords in the embedded app; a test that writes vendor rows itself uses the same. */
export const EMBEDDED_SECRET_KEY = Buffer.alloc(32, 9).toString("base64");

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

/** A session token as App Bridge gets it from the admin: HS256 with the app secret, Shopify's claims. */
export function sessionToken(options: { secret?: string; shop?: string; apiKey?: string; claims?: Record<string, unknown> } = {}): string {
  const shop = options.shop ?? EMBEDDED.shop;
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64url(
    JSON.stringify({
      iss: `https://${shop}/admin`,
      dest: `https://${shop}`,
      aud: options.apiKey ?? EMBEDDED.apiKey,
      sub: "42",
      exp: now + 60,
      nbf: now - 5,
      iat: now - 5,
      jti: randomUUID(),
      sid: randomUUID(),
      ...options.claims,
    }),
  );
  const signature = base64url(
    createHmac("sha256", options.secret ?? EMBEDDED.secret)
      .update(`${header}.${payload}`)
      .digest(),
  );
  return `${header}.${payload}.${signature}`;
}

/** The `host` parameter the admin adds: base64 of admin.shopify.com/store/{name}. */
export const hostParam = (shop: string = EMBEDDED.shop) => base64url(`admin.shopify.com/store/${shop.replace(".myshopify.com", "")}`).replace(/=+$/, "");

/** A webhook as Shopify sends it, signed with the app secret (or not). */
export function webhookHeaders(body: string, topic: string, options: { shop?: string; secret?: string } = {}) {
  return {
    "content-type": "application/json",
    "x-shopify-hmac-sha256": createHmac("sha256", options.secret ?? EMBEDDED.secret)
      .update(body)
      .digest("base64"),
    "x-shopify-topic": topic,
    "x-shopify-shop-domain": options.shop ?? EMBEDDED.shop,
    "x-shopify-api-version": "2026-10",
    "x-shopify-webhook-id": randomUUID(),
    "user-agent": "Shopify-Captain-Hook",
  };
}

export interface EmbeddedApp extends RunningApp {
  standIn: Awaited<ReturnType<typeof startShopifyStandIn>>;
}

/**
 * The Shopify stand-in as an embedded app meets it: over HTTPS, with a CA of its own
 * written to `folder` (for the app's NODE_EXTRA_CA_CERTS), over the database's catalog
 * (through `catalogDb`, to close after it), knowing EMBEDDED's app and shop.
 */
export async function startEmbeddedStandIn(databaseUrl: string, folder: string, caName = "Shopify stand-in test CA") {
  const pems = await selfsigned.generate([{ name: "commonName", value: caName }], {
    keyType: "ec",
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "subjectAltName", altNames: [{ type: 2, value: "*.myshopify.com" }] },
    ],
  });
  const caFile = path.join(folder, "stand-in-ca.pem");
  writeFileSync(caFile, pems.cert);
  const catalogDb = createPrismaClient(databaseUrl, 2);
  const standIn = await startShopifyStandIn({
    shop: EMBEDDED.shop,
    catalog: databaseCatalog(catalogDb),
    tls: { key: pems.private, cert: pems.cert },
    app: { apiKey: EMBEDDED.apiKey, apiSecret: EMBEDDED.secret, scopes: EMBEDDED.scopes },
  });
  return { standIn, catalogDb, caFile };
}

export async function startEmbeddedApp(options: { databaseUrl: string; env?: Record<string, string> }): Promise<EmbeddedApp> {
  const folder = mkdtempSync(path.join(tmpdir(), "embedded-"));
  const { standIn, catalogDb, caFile } = await startEmbeddedStandIn(options.databaseUrl, folder);
  // The app's URL must be known before it starts (Shopify redirects to it): a port picked here.
  const port = await freePort();
  let app: RunningApp;
  try {
    app = await startAppServer(
      {
        PORT: String(port),
        SHOPIFY_API_KEY: EMBEDDED.apiKey,
        SHOPIFY_API_SECRET: EMBEDDED.secret,
        SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
        SHOPIFY_SHOPS: EMBEDDED.shop,
        SCOPES: EMBEDDED.scopes,
        APP_SECRET_KEY: EMBEDDED_SECRET_KEY,
        DATABASE_URL: options.databaseUrl,
        NODE_EXTRA_CA_CERTS: caFile,
        SHOPIFY_STAND_IN_TLS_PORT: String(standIn.port),
        ...options.env,
      },
      { nodeArgs: ["--import", path.resolve("tests/support/shopify-hosts.mjs")] },
    );
  } catch (error) {
    await standIn.stop();
    await catalogDb.$disconnect();
    throw error;
  }
  return {
    ...app,
    standIn,
    async stop() {
      await app.stop();
      await standIn.stop();
      await catalogDb.$disconnect();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * An app in embedded mode that is only sent webhooks (no admin, no stand-in):
 * its environment, for tests that sign webhooks with `secret`.
 */
export const webhookAppEnv = (app: { apiKey: string; secret: string; shop: string }, databaseUrl: string, extra: Record<string, string> = {}) => ({
  SHOPIFY_API_KEY: app.apiKey,
  SHOPIFY_API_SECRET: app.secret,
  SHOPIFY_APP_URL: "https://ops.example.com",
  SHOPIFY_SHOPS: app.shop,
  SCOPES: "read_orders,write_orders",
  APP_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
  DATABASE_URL: databaseUrl,
  ...extra,
});
