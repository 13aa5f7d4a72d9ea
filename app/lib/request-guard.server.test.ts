import { describe, expect, it } from "vitest";
import { refusalOf, type GuardedRequest } from "./request-guard.server";

const local = { mode: "local" as const };
const embedded = { mode: "embedded" as const, appUrl: "https://ops.example.com" };
const request = (over: Partial<GuardedRequest>): GuardedRequest => ({
  method: "GET",
  host: "localhost:4000",
  origin: undefined,
  referer: undefined,
  localPort: 4000,
  ...over,
});

describe("request guard", () => {
  it("local mode answers only to loopback names with the bound port", () => {
    for (const host of ["localhost:4000", "127.0.0.1:4000", "[::1]:4000", "LOCALHOST:4000"]) expect(refusalOf(request({ host }), local)).toBeNull();
    for (const host of ["evil.example.com", "evil.example.com:4000", "localhost:4001", "localhost", undefined])
      expect(refusalOf(request({ host }), local)?.status).toBe(403);
  });

  it("refuses writes from another origin, or with only another origin's Referer", () => {
    expect(refusalOf(request({ method: "POST", origin: "https://evil.example.com" }), local)?.status).toBe(403);
    expect(refusalOf(request({ method: "DELETE", origin: "null" }), local)?.status).toBe(403);
    expect(refusalOf(request({ method: "PUT", referer: "https://evil.example.com/page" }), local)?.status).toBe(403);
    expect(refusalOf(request({ method: "POST", origin: "http://localhost:4001" }), local)?.status).toBe(403);
    expect(refusalOf(request({ method: "POST", origin: "http://127.0.0.1:4000" }), local)).toBeNull();
    expect(refusalOf(request({ method: "POST", referer: "http://localhost:4000/feed" }), local)).toBeNull();
    // curl, webhooks, the EOD token calls: no Origin, no Referer.
    expect(refusalOf(request({ method: "POST" }), local)).toBeNull();
    expect(refusalOf(request({ method: "GET", origin: "https://evil.example.com" }), local)).toBeNull();
  });

  it("embedded mode takes SHOPIFY_APP_URL's origin, and any Host (a proxy may rewrite it)", () => {
    expect(refusalOf(request({ host: "10.0.0.7:3000" }), embedded)).toBeNull();
    expect(refusalOf(request({ method: "POST", origin: "https://ops.example.com" }), embedded)).toBeNull();
    expect(refusalOf(request({ method: "POST" }), embedded)).toBeNull();
    expect(refusalOf(request({ method: "POST", origin: "https://admin.shopify.com" }), embedded)?.status).toBe(403);
  });
});
