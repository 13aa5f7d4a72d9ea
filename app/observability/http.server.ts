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
import { matchRoutes } from "@remix-run/react";
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import { withLogContext, type LogContext } from "./context.server";
import { logger } from "./logger.server";
import { observeHttpRequest } from "./metrics.server";

/** What a client may send as X-Request-Id and have echoed: short, and nothing a log line or header could choke on. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;
/** Paths whose successful answers are logged at debug only: load balancers and scrapers call them every few seconds. */
const QUIET_ROUTES = new Set(["routes/healthz", "metrics"]);

type Routes = ServerBuild["routes"];
interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: RouteNode[];
}

/** The build's flat route table as the tree react-router matches against (as Remix does). */
export function routeTreeFor(routes: Record<string, Pick<Routes[string] & object, "id" | "path" | "index" | "caseSensitive" | "parentId"> | undefined>): RouteNode[] {
  const nodes = new Map<string, RouteNode>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    nodes.set(route.id, { id: route.id, path: route.path, index: route.index, caseSensitive: route.caseSensitive, children: [] });
  }
  const roots: RouteNode[] = [];
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = nodes.get(route.id)!;
    const parent = route.parentId ? nodes.get(route.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/**
 * The label of a path: the id of the Remix route that answers it, "assets"
 * for the built files, "unmatched" when nothing matches (the app's catch-all
 * route makes that rare). Single-fetch data requests (`/feed.data`) count as
 * their page.
 */
export function routeLabel(pathname: string, tree: RouteNode[] | undefined): string {
  if (pathname.startsWith("/assets/")) return "assets";
  if (!tree) return "unmatched";
  let path = pathname;
  if (path.endsWith(".data")) path = path.slice(0, -".data".length);
  if (path === "/_root") path = "/";
  const matches = matchRoutes(tree as never, path) as Array<{ route: RouteNode }> | null;
  return matches?.at(-1)?.route.id ?? "unmatched";
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
  let tree: RouteNode[] | undefined;
  let treeOf: Routes | undefined;
  const useBuild = (build: ServerBuild | undefined) => {
    if (build && build.routes !== treeOf) {
      treeOf = build.routes;
      tree = routeTreeFor(build.routes);
    }
  };
  const observed = new WeakMap<ServerResponse, Observed>();

  /** Set once per request, at its end: handlers outside Remix (/metrics) name themselves in res.locals.route. */
  const labelOf = (req: IncomingMessage, res: ServerResponse): string => {
    const seen = observed.get(res)!;
    seen.route ??= ((res as { locals?: { route?: string } }).locals?.route ?? routeLabel(new URL(req.url ?? "/", "http://x").pathname, tree));
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
    logger: logger("http"),
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
