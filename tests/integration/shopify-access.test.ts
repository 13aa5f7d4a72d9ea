// A shop whose grant falls short of the app's scopes (an older install, or a
// merchant who has not approved a scope a new version asks): Home names what to
// re-approve (D170), in local mode and in embedded mode, and stops once Shopify
// says it is granted. Over real HTTP to the built app, with the Shopify
// stand-in answering currentAppInstallation from the scopes it grants.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_SCOPES, expandScopes, missingScopes } from "../../app/shopify/access-scopes";
import { standInUrlOf } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { EMBEDDED, hostParam, sessionToken, startEmbeddedApp, webhookHeaders, type EmbeddedApp } from "../support/embedded-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0";
const withoutStock = APP_SCOPES.filter((scope) => scope !== "write_inventory" && scope !== "write_merchant_managed_fulfillment_orders");

const grant = (standInUrl: string, scopes: readonly string[]) =>
  fetch(`${standInUrl}/__scopes`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ scopes }) }).then((answer) => {
    expect(answer.status).toBe(200);
  });

describe("what a write scope covers", () => {
  it("counts a write scope as its read too, as Shopify grants it, and nothing else", () => {
    expect([...expandScopes(["write_orders"])].sort()).toEqual(["read_orders", "write_orders"]);
    expect(missingScopes(["write_orders", "read_locations"], ["read_orders", "read_locations", "read_inventory"])).toEqual(["read_inventory"]);
    expect(missingScopes(["read_orders"], ["write_orders"])).toEqual(["write_orders"]);
  });
});

describe("Home in local mode", () => {
  let started: Partial<AppWithDatabase> = {};
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "access-data-"));
    started = await startAppWithDatabase("access", { SEED_DEMO_DATA: "0", DATA_DIR: dataDir });
  }, 120_000);
  afterAll(async () => {
    await stopAppWithDatabase(started);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("names the scopes to re-approve and what waits meanwhile", async () => {
    await grant(standInUrlOf(started.app!), withoutStock);
    const html = await (await fetch(`${started.app!.url}/`)).text();
    expect(html).toContain("Shopify access to approve");
    expect(html).toContain("This shop has not granted the app all the Shopify access it needs: write_inventory, write_merchant_managed_fulfillment_orders.");
    expect(html).toContain("vendors&#x27; stock is not sent to Shopify");
    expect(html).toContain("are not moved to their source&#x27;s location");
  });
});

describe("Home in embedded mode", () => {
  let database: TestDatabase;
  let app: EmbeddedApp;
  beforeAll(async () => {
    database = await createTestDatabase("access_embedded");
    app = await startEmbeddedApp({ databaseUrl: database.url });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await database?.dispose();
  });

  /** Home as the admin frames it: a document request with the session token. */
  const home = async () => {
    const answer = await fetch(`${app.url}/?embedded=1&shop=${EMBEDDED.shop}&host=${hostParam()}&id_token=${sessionToken()}`, {
      headers: { "user-agent": BROWSER },
    });
    expect(answer.status).toBe(200);
    return answer.text();
  };

  it("shows what an older install lacks, and nothing once the merchant approved it (app/scopes_update)", async () => {
    app.standIn.grant(withoutStock);
    const short = await home();
    expect(short).toContain("Shopify access to approve");
    expect(short).toContain("all the Shopify access it needs: write_inventory, write_merchant_managed_fulfillment_orders.");

    // The merchant approves; Shopify tells the app with app/scopes_update.
    app.standIn.grant(APP_SCOPES);
    const body = JSON.stringify({ id: 1, previous: withoutStock, current: APP_SCOPES, updated_at: new Date().toISOString() });
    const webhook = await fetch(`${app.url}/webhooks/app/scopes_update`, { method: "POST", headers: webhookHeaders(body, "app/scopes_update"), body });
    expect(webhook.status).toBe(200);
    expect(await home()).not.toContain("Shopify access to approve");
    expect(EMBEDDED.scopes.split(",")).toEqual([...APP_SCOPES]);
  });
});
