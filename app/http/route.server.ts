// What every page loader and /api route does first: authenticate staff, pick
// the translations of the request, and answer bad input with 422, never a 500.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff, staffName, type Staff } from "~/auth.server";
import { isDatabaseTimeout, isDatabaseUnavailable } from "~/db/errors.server";
import { databaseUnavailableResponse, orDatabaseUnavailable } from "~/db/unavailable.server";
import { translatorFor, type Translate } from "~/i18n/i18n.server";
import { renderForReader } from "~/i18n/messages";
import { NotFoundError, ValidationError, renderAnswer, renderProblem, unprocessable } from "~/lib/validation.server";
import { logger } from "~/observability/logger.server";
import { withActivity, type RouteActivity } from "./activity.server";

const log = logger("api");

export interface RouteContext {
  request: Request;
  params: LoaderFunctionArgs["params"];
  url: URL;
  staff: Staff;
  t: Translate;
}

async function contextFor(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<RouteContext> {
  const staff = await requireStaff(args.request);
  const t = await translatorFor(args.request);
  return { request: args.request, params: args.params, url: new URL(args.request.url), staff, t };
}

/**
 * An /api route: JSON out, its words (ReaderTexts: a grid's titles, stored
 * messages) rendered in the request's language (D136), 422 with per-field errors for bad input, a 503 when
 * the database did not answer within the web requests' statement timeout or
 * cannot be reached at all, and a plain 500 message otherwise (the detail goes to the log, never a stack to
 * the caller); both with a reference found in the log.
 * Answers carry `Server-Timing: app;dur=<ms>`, the time spent in the app from
 * authentication to the JSON ready (the browser's network panel shows it, and
 * bench/order-grid compares it with the bare SQL).
 */
export function apiRoute<T>(handler: (context: RouteContext) => Promise<T>, activity?: RouteActivity) {
  return async (args: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const begun = performance.now();
    const context = await contextFor(args);
    if (!activity) return answer(handler, context, args, begun);
    // An action of a staff member: recorded with who, what, the record and how it ended (D255).
    const call = { request: args.request, params: args.params, url: context.url, staff: staffName(context.staff) };
    return withActivity(activity, call, () => answer(handler, context, args, begun));
  };
}

async function answer<T>(
  handler: (context: RouteContext) => Promise<T>,
  context: RouteContext,
  args: LoaderFunctionArgs | ActionFunctionArgs,
  begun: number,
): Promise<Response> {
  try {
    const result = await handler(context);
    const response = result instanceof Response ? result : jsonResponse(renderAnswer(context.t, renderForReader(context.t, result)));
    withServerTiming(response, begun);
    return response;
  } catch (error) {
    if (error instanceof Response) throw error;
    if (error instanceof ValidationError) return unprocessable(error, context.t);
    if (error instanceof NotFoundError) return Response.json({ error: true, message: renderProblem(context.t, error.problem) }, { status: 404 });
    if (isDatabaseUnavailable(error)) return databaseUnavailableResponse(args.request, error);
    const reference = crypto.randomUUID().slice(0, 8);
    if (isDatabaseTimeout(error)) {
      // The web requests' statement timeout (D67): busy, not broken; the caller may try again.
      log.error(
        { reference },
        `${args.request.method} ${context.url.pathname}: the database did not answer in time (reference ${reference}): ${(error as Error).message}`,
      );
      return Response.json(
        { error: true, message: `The database did not answer in time; try again (reference ${reference})` },
        { status: 503, headers: { "Retry-After": "5" } },
      );
    }
    log.error({ err: error, reference }, `${args.request.method} ${context.url.pathname} failed (reference ${reference})`);
    return Response.json({ error: true, message: `Internal error (reference ${reference})` }, { status: 500 });
  }
}

/**
 * JSON with its Content-Length: the answer then goes out in one write, where a
 * length-less body is sent chunked and needs a second write to end it.
 */
function jsonResponse(data: unknown): Response {
  const body = JSON.stringify(data);
  return new Response(body, { headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) } });
}

function withServerTiming(response: Response, begun: number) {
  try {
    if (!response.headers.has("Server-Timing")) response.headers.set("Server-Timing", `app;dur=${(performance.now() - begun).toFixed(2)}`);
  } catch {
    // Headers of a Response.redirect() or a fetched answer are immutable: they go out without it.
  }
}

/** A page loader: the same authentication, returning plain data for the page; a database that cannot be reached is a 503. */
export function pageLoader<T>(handler: (context: RouteContext) => Promise<T>) {
  return async (args: LoaderFunctionArgs) => {
    const context = await contextFor(args);
    return orDatabaseUnavailable(args.request, () => handler(context));
  };
}

/**
 * The loader of an /api path that changes something: a GET there is a 405
 * naming the method to use, and nothing runs (D54). Links, prefetches and
 * pages on other sites can make a browser send GETs; they must not act.
 */
export function onlyPost() {
  return () => Response.json({ error: true, message: "Use POST for this path." }, { status: 405, headers: { Allow: "POST" } });
}

/** The action of such a path: POST only (PUT and DELETE mean nothing there). */
export function postRoute(handler: (args: ActionFunctionArgs) => Promise<Response>) {
  return async (args: ActionFunctionArgs): Promise<Response> => (args.request.method === "POST" ? handler(args) : onlyPost()());
}
