// Request bodies are bounded before they are read (server/body-limit.ts): a
// webhook or form that declares more than its route takes is answered 413
// while most of it has not even been sent, so the app never holds it; a
// webhook is refused before its HMAC. Bodies of no declared length get 411.
import { request as httpRequest } from "node:http";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client.server";
import { EMBEDDED, sessionToken, startEmbeddedApp, webhookHeaders, type EmbeddedApp } from "../support/embedded-app";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
let app: EmbeddedApp;

beforeAll(async () => {
  if (!existsSync("build/server/index.js")) throw new Error("Build the app first (npm test does).");
  database = await createTestDatabase("body_limits");
  app = await startEmbeddedApp({ databaseUrl: database.url });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await database?.dispose();
});

/**
 * Sends the headers and only `sent` bytes of a body, then waits for the answer:
 * an answer at all proves the app decided without the rest.
 */
function partialPost(path: string, headers: Record<string, string>, sent: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, app.url);
    const request = httpRequest(url, { method: "POST", headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.write(Buffer.alloc(sent, 0x20));
    // Not ended: the rest of the declared body never comes.
  });
}

describe("request body limits", () => {
  it("refuses a webhook declaring over 1 MB before reading it or checking its HMAC", async () => {
    const db = createPrismaClient(database.url);
    const before = await db.webhookEvent.count();
    const declared = 2 * 1024 * 1024;
    const headers = { ...webhookHeaders("{}", "orders/create"), "content-length": String(declared) };
    const answer = await partialPost("/webhooks/orders/create", headers, 64 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: true, message: "The request body is larger than this route takes (1 MB)." });
    expect(await db.webhookEvent.count()).toBe(before);
    await db.$disconnect();
  });

  it("refuses an /api body declaring 50 MB at once, even with a valid session", async () => {
    const headers = { "content-type": "application/json", "content-length": String(50 * 1024 * 1024), authorization: `Bearer ${sessionToken()}` };
    const answer = await partialPost("/api/dropship_vendor", headers, 16 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).message).toContain("(4 MB)");
  });

  it("refuses a body of no declared length with 411", async () => {
    const response = await fetch(`${app.url}/webhooks/orders/create`, {
      method: "POST",
      headers: webhookHeaders("{}", "orders/create"),
      body: new ReadableStream({ start: (controller) => (controller.enqueue(new TextEncoder().encode("{}")), controller.close()) }),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(411);
  });

  it("still takes a webhook within the limit", async () => {
    const body = JSON.stringify({ id: 1, note: "x".repeat(500_000) });
    const response = await fetch(`${app.url}/webhooks/app/scopes_update`, {
      method: "POST",
      body,
      headers: webhookHeaders(body, "app/scopes_update", { shop: EMBEDDED.shop }),
    });
    expect(response.status).toBe(200);
  });
});
