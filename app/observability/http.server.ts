// Every request, seen from Express (server/main.ts), before anything else
// runs (D86): its id (a well-formed X-Request-Id, or a new one, sent back in
// the answer), a log context that code below picks up, one log line at its
// end (pino-http) and its duration in the http_request_duration_seconds
// histogram.
//
// The line and the metric name the Remix route id (`routes/api.feed.$id`),
// never the URL: paths carry ids (unbounded labels) and sometimes secrets
// (the EOD token), query strings carry id_token, hmac and session.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import { withLogContext, type LogContext } from "./context.server";
import { rootLogger } from "./logger.server";
import { observeHttpRequest } from "./metrics.server";

/** What a client may send as X-Request-Id and have echoed: short, and nothing a log line or header could choke on. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
/** Paths whose successful answers are logged at debug only: load balancers and scrapers call them every few seconds. */
const QUIET_ROUTES = new Set(["routes/healthz", "metrics"]);

type Routes = ServerBuild["routes"];
type RouteEntry = Pick<NonNullable<Routes[string]>, "id" | "path" | "index" | "caseSensitive" | "parentId">;

/** One route that can answer a path, with its whole path compiled (a "branch", as react-router calls it). */
interface Branch {
  id: string;
  pattern: RegExp;
  score: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * react-router's ranking (computeScore in @remix-run/router): more segments
 * and static ones first, a splat last, an index route above its layout.
 */
function scoreOf(segments: string[], index: boolean): number {
  let score = segments.length + (segments.includes("*") ? -2 : 0) + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === "*") continue;
    score += /^:[\w-]+\??$/.test(segment) ? 3 : segment === "" ? 1 : 10;
  }
  return score;
}

/**
 * The build's route table compiled once into ranked branches: the routes a
 * path can end at (those with a path, and index routes), each with its full
 * path as a regular expression. Matching a request is then a few regular
 * expressions, where react-router's matchRoutes flattens and ranks the whole
 * table on every call (0.5 ms for this app's 109 routes).
 */
export function routeBranches(routes: Record<string, RouteEntry | undefined>): Branch[] {
  const fullSegments = (route: RouteEntry): string[] => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = (route.path ?? "").split("/").filter(Boolean);
    return [...(parent ? fullSegments(parent) : []), ...own];
  };
  const branches: Array<Branch & { order: number }> = [];
  Object.values(routes).forEach((route, order) => {
    if (!route || (route.path === undefined && !route.index)) return;
    const segments = fullSegments(route);
    let source = "";
    for (const segment of segments) {
      if (segment === "*") source += "(?:/.*)?";
      else if (/^:[\w-]+\?$/.test(segment)) source += "(?:/[^/]+)?";
      else if (segment.startsWith(":")) source += "/[^/]+";
      else if (segment.endsWith("?")) source += `(?:/${escape(segment.slice(0, -1))})?`;
      else source += `/${escape(segment)}`;
    }
    branches.push({
      id: route.id,
      pattern: new RegExp(`^${source}/*$`, route.caseSensitive ? "" : "i"),
      score: scoreOf(segments.length ? segments : [""], Boolean(route.index)),
      order,
    });
  });
  // The table lists parents before children: a tie goes to the later (deeper) one, as in react-router.
  return branches.sort((a, b) => b.score - a.score || b.order - a.order);
}

/**
 * The label of a path: the id of the Remix route that answers it, "assets"
 * for the built files, "unmatched" when nothing matches (the app's catch-all
 * route makes that rare). Single-fetch data requests (`/feed.data`) count as
 * their page.
 */
export function routeLabel(pathname: string, branches: Branch[] | undefined): string {
  if (pathname.startsWith("/assets/")) return "assets";
  if (!branches) return "unmatched";
  let path = pathname;
  if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  if (path === "/_root") path = "/";
  if (path === "") path = "/";
  return branches.find((branch) => branch.pattern.test(path === "/" ? "" : path))?.id ?? "unmatched";
}

interface Observed {
  context: LogContext;
  began: number;
  route?: string;
}

/**
 * The middleware. `build` gives the Remix build whose routes name the
 * requests (a promise in development, where Vite loads it: the first request
 * may then be "unmatched").
 */
export function observeRequests(options: { build: () => ServerBuild | Promise<ServerBuild> | undefined }): RequestHandler {
  let branches: Branch[] | undefined;
  let branchesOf: Routes | undefined;
  const useBuild = (build: ServerBuild | undefined) => {
    if (build && build.routes !== branchesOf) {
      branchesOf = build.routes;
      branches = routeBranches(build.routes);
    }
  };
  const observed = new WeakMap<ServerResponse, Observed>();

  /** Set once per request, at its end: handlers outside Remix (/metrics) name themselves in res.locals.route. */
  const labelOf = (req: IncomingMessage, res: ServerResponse): string => {
    const seen = observed.get(res)!;
    seen.route ??= (res as { locals?: { route?: string } }).locals?.route ?? routeLabel(new URL(req.url ?? "/", "http://x").pathname, branches);
    return seen.route;
  };
  const statusOf = (res: ServerResponse) => (res.writableFinished ? res.statusCode : "aborted");
  const lineOf = (req: IncomingMessage, res: ServerResponse) => {
    const seen = observed.get(res)!;
    return {
      method: req.method,
      route: labelOf(req, res),
      status: statusOf(res),
      duration_ms: Math.round(performance.now() - seen.began),
      ...(seen.context.shop ? { shop: seen.context.shop } : {}),
    };
  };
  const messageOf = (req: IncomingMessage, res: ServerResponse) => {
    const line = lineOf(req, res);
    return `${line.method} ${line.route} ${line.status} ${line.duration_ms} ms`;
  };

  const httpLogger = pinoHttp({
    logger: rootLogger().child({ component: "http" }),
    // The line carries our fields only: no headers (cookies, tokens), no URL (query strings).
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: "request_id" },
    genReqId: (req) => req.id,
    customLogLevel: (req, res) => {
      const status = statusOf(res);
      if (typeof status === "number" && status >= 500) return "error";
      if (status === 200 && QUIET_ROUTES.has(labelOf(req, res))) return "debug";
      return "info";
    },
    customSuccessObject: (req, res) => lineOf(req, res),
    customErrorObject: (req, res) => lineOf(req, res),
    customSuccessMessage: (req, res) => messageOf(req, res),
    customErrorMessage: (req, res) => messageOf(req, res),
  });

  return (req, res, next) => {
    const given = req.headers["x-request-id"];
    const requestId = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    req.id = requestId;
    res.setHeader("X-Request-Id", requestId);
    const seen: Observed = { context: { request_id: requestId }, began: performance.now() };
    observed.set(res, seen);
    const built = options.build();
    if (built instanceof Promise) built.then(useBuild, () => {});
    else useBuild(built);

    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      observeHttpRequest({ method: req.method, route: labelOf(req, res), status: statusOf(res) }, (performance.now() - seen.began) / 1000);
    };
    res.once("finish", count);
    res.once("close", count);
    withLogContext(seen.context, () => httpLogger(req, res, next));
  };
}
