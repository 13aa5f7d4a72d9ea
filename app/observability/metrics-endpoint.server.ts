// Who may read GET /metrics (D88), for the web server (server/main.ts, before
// Remix) and the jobs worker's own listener on METRICS_PORT (D89):
// - METRICS_TOKEN set (any mode): only `Authorization: Bearer <token>`,
//   compared in constant time; anything else is 401.
// - embedded mode without METRICS_TOKEN: 404, as if there were no such path:
//   an app on the internet does not publish its internals to everyone.
// - local mode without it: answered; the server listens on loopback only and
//   refuses foreign Host headers (app/lib/request-guard.server.ts).
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { RequestHandler } from "express";
import { refusalOf } from "~/lib/request-guard.server";
import { logger } from "./logger.server";
import { metricsText } from "./metrics.server";

export interface MetricsAccess {
  mode: "local" | "embedded";
  token?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const digest = (value: string) => createHash("sha256").update(value).digest();
const text = (status: number, body: string, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers },
  body,
});

/** The answer to GET /metrics with this Authorization header. */
export async function answerMetrics(authorization: string | undefined, access: MetricsAccess): Promise<Answer> {
  if (access.token) {
    const given = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1]?.trim();
    // Over digests: neither the token's content nor its length shows in the time taken.
    if (given === undefined || !timingSafeEqual(digest(given), digest(access.token))) {
      return text(401, "A metrics token is required: Authorization: Bearer <METRICS_TOKEN>.\n", { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
  } else if (access.mode === "embedded") {
    return text(404, "Not Found\n");
  }
  const metrics = await metricsText();
  return { status: 200, headers: { "Content-Type": metrics.contentType, "Cache-Control": "no-store" }, body: metrics.body };
}

/** GET /metrics for Express (after the request guard). */
export function metricsRoute(access: MetricsAccess): RequestHandler {
  return (req, res, next) => {
    res.locals.route = "metrics";
    answerMetrics(req.headers.authorization, access).then((answer) => {
      res.status(answer.status).set(answer.headers).send(answer.body);
    }, next);
  };
}

/**
 * The jobs worker's listener (D89): GET /metrics only, with the same access
 * rule; in local mode on loopback and for loopback Host headers only, like
 * the web server.
 */
export async function startMetricsListener(options: MetricsAccess & { port: number; host: string }): Promise<{ port: number; stop(): Promise<void> }> {
  const log = logger("metrics");
  const server: Server = createServer((req, res) => {
    const refusal = refusalOf(
      { method: req.method ?? "GET", host: req.headers.host, origin: req.headers.origin, referer: req.headers.referer, localPort: req.socket.localPort },
      { mode: options.mode },
    );
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const answered = refusal
      ? Promise.resolve(text(refusal.status, `${refusal.message}\n`))
      : path !== "/metrics"
        ? Promise.resolve(text(404, "Not Found\n"))
        : req.method !== "GET" && req.method !== "HEAD"
          ? Promise.resolve(text(405, "Use GET.\n", { Allow: "GET" }))
          : answerMetrics(req.headers.authorization, options);
    answered.then(
      (answer) => {
        res.writeHead(answer.status, answer.headers);
        res.end(req.method === "HEAD" ? undefined : answer.body);
      },
      (error: unknown) => {
        log.error({ err: error }, "metrics could not be collected");
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics could not be collected.\n");
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
