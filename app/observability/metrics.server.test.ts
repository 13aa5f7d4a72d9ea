// Who may read /metrics, and what a request's route label is: the functions
// the web server and the worker's listener use, called directly.
import { describe, expect, it } from "vitest";
import { answerMetrics } from "./metrics-endpoint.server";
import { routeBranches, routeLabel } from "./http.server";
import { countVendorFile, metricsText } from "./metrics.server";

const TOKEN = "t".repeat(40);

describe("GET /metrics access", () => {
  it("answers in local mode without a token", async () => {
    const answer = await answerMetrics(undefined, { mode: "local" });
    expect(answer.status).toBe(200);
    expect(answer.headers["Content-Type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it("is not there (404) in embedded mode without METRICS_TOKEN, whatever is sent", async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const answer = await answerMetrics(authorization, { mode: "embedded" });
      expect(answer.status).toBe(404);
      expect(answer.body).not.toContain("# HELP");
    }
  });

  it("with METRICS_TOKEN, answers only the bearer of that token, in either mode", async () => {
    for (const mode of ["embedded", "local"] as const) {
      for (const authorization of [undefined, "", `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`, TOKEN]) {
        const answer = await answerMetrics(authorization, { mode, token: TOKEN });
        expect(answer.status).toBe(401);
        expect(answer.headers["WWW-Authenticate"]).toBe('Bearer realm="metrics"');
      }
      expect((await answerMetrics(`Bearer ${TOKEN}`, { mode, token: TOKEN })).status).toBe(200);
    }
  });

  it("counts vendor files per vendor", async () => {
    countVendorFile("set_aside", 424242);
    expect((await metricsText()).body).toMatch(/^vendor_files_set_aside_total\{vendor="424242"\} 1$/m);
  });
});

describe("route labels", () => {
  // A table of the build's shape (id, parentId, path, index), as the middleware gets it.
  const routes = {
    root: { id: "root", path: "" },
    "routes/_app": { id: "routes/_app", parentId: "root" },
    "routes/_app._index": { id: "routes/_app._index", parentId: "routes/_app", index: true },
    "routes/_app.$": { id: "routes/_app.$", parentId: "routes/_app", path: "*" },
    "routes/_app.feed._index": { id: "routes/_app.feed._index", parentId: "routes/_app", path: "feed", index: true },
    "routes/api.feed.$id": { id: "routes/api.feed.$id", parentId: "root", path: "api/feed/:id" },
    "routes/api.eod_report_run.$token": { id: "routes/api.eod_report_run.$token", parentId: "root", path: "api/eod_report_run/:token" },
    "routes/healthz": { id: "routes/healthz", parentId: "root", path: "healthz" },
  };
  const label = (pathname: string) => routeLabel(pathname, routeBranches(routes));

  it("names the Remix route, never the ids or tokens in the path", () => {
    expect(label("/api/feed/123")).toBe("routes/api.feed.$id");
    expect(label("/api/feed/456")).toBe("routes/api.feed.$id");
    expect(label("/api/eod_report_run/secret-token-value")).toBe("routes/api.eod_report_run.$token");
    expect(label("/healthz")).toBe("routes/healthz");
    expect(label("/")).toBe("routes/_app._index");
  });

  it("counts single-fetch data requests as their page, built files as assets, the rest as the catch-all", () => {
    expect(label("/feed.data")).toBe("routes/_app.feed._index");
    expect(label("/_root.data")).toBe("routes/_app._index");
    expect(label("/assets/entry.client-abc123.js")).toBe("assets");
    expect(label("/no/such/page/42")).toBe("routes/_app.$");
  });
});
