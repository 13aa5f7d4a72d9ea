// Checks every request before Remix sees it (D54). Local mode has no login and
// binds loopback, but any page open in the same browser can still send to it:
// - a foreign Host means a name rebound to 127.0.0.1 (DNS rebinding), whose
//   page could then read the answers: refused in local mode;
// - a POST/PUT/PATCH/DELETE whose Origin (or, without one, Referer) is another
//   site is a forged request (CSRF): refused in both modes. No Origin and no
//   Referer (curl, webhooks, the EOD token calls) is not a browser's forgery.
// Embedded mode does not check Host: a proxy in front may rewrite it, and
// every call there carries a session token that a rebound page cannot get.
import type { RequestHandler } from "express";

export interface GuardConfig {
  mode: "local" | "embedded";
  /** SHOPIFY_APP_URL in embedded mode. */
  appUrl?: string;
}

export interface GuardedRequest {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  referer: string | undefined;
  /** The port the connection came in on: the one actually bound (PORT may be 0). */
  localPort: number | undefined;
}

export interface Refusal {
  status: 403;
  message: string;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The hosts local mode answers to: loopback names with the bound port. */
export function localHosts(port: number): string[] {
  return [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
}

function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** Why the request is refused, or null when it may go on. */
export function refusalOf(request: GuardedRequest, config: GuardConfig): Refusal | null {
  let ownOrigins: string[];
  if (config.mode === "local") {
    const hosts = request.localPort === undefined ? [] : localHosts(request.localPort);
    const host = (request.host ?? "").toLowerCase();
    if (!hosts.includes(host)) return { status: 403, message: `This app answers to ${hosts[0] ?? "localhost"} only, not to "${request.host ?? ""}".` };
    ownOrigins = hosts.map((name) => `http://${name}`);
  } else {
    ownOrigins = config.appUrl ? [new URL(config.appUrl).origin] : [];
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return null;
  // "null" (a sandboxed frame, a redirect from elsewhere) or anything unparsable is foreign.
  const claimed = request.origin ?? request.referer;
  if (claimed === undefined) return null;
  const origin = originOf(claimed);
  if (origin && ownOrigins.includes(origin)) return null;
  return { status: 403, message: "Cross-site request refused: it comes from another site's page." };
}

/** The checks as express middleware, in front of the static files and Remix. */
export function requestGuard(config: GuardConfig): RequestHandler {
  return (req, res, next) => {
    const refusal = refusalOf(
      { method: req.method, host: req.headers.host, origin: req.headers.origin, referer: req.headers.referer, localPort: req.socket.localPort },
      config,
    );
    if (!refusal) return next();
    res.status(refusal.status).type("text/plain; charset=utf-8").send(refusal.message);
  };
}
