// Who did what (issue 32 item 5, D255): an /api route that acts declares its
// `activity` (apiRoute's second argument): the action's name, the record it
// acts on and the request fields worth keeping. This file turns the request and
// its answer into one staff_activity row. A recording that fails is logged;
// it never fails the staff member's action.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { Prisma } from "@prisma/client";
import { intendedMethod, readBody } from "~/lib/validation.server";
import { logger } from "~/observability/logger.server";
import { orderOfRecord, recordStaffActivity, type ActivityOutcome } from "~/staff-activity/activity.server";

const log = logger("staff-activity");

export interface RecordRef {
  type: string;
  id: string | number;
}

/** What a route's activity is worked out from: the request, and after it ran, its answer. */
export interface ActivityFacts {
  /** The intended method (`_method` or the HTTP method). */
  method: string;
  params: LoaderFunctionArgs["params"];
  url: URL;
  body: Record<string, unknown>;
  /** The JSON answer; null before the route ran (or when it answered no JSON). */
  answer: Record<string, unknown> | null;
}

type Found<T> = T | null | undefined | Promise<T | null | undefined>;

export interface RouteActivity {
  /** "<area>.<verb>"; or from the request, null when the request is no action (a wrong method). */
  action: string | ((facts: ActivityFacts) => string | null);
  /**
   * The record acted on. A type alone: its id is the path's {id}, else the body's or query's `id`, else the
   * answer's (`id`, `request_id`, `data.id`). A function is asked before the route runs (answer null: a record
   * about to be deleted still has its order then) and, when it found nothing, again with the answer.
   */
  record?: string | ((facts: ActivityFacts) => Found<RecordRef>);
  /** The order's increment id when the record alone does not lead to it (records of orders are looked up). */
  order?: (facts: ActivityFacts) => Found<string>;
  /** Body or query fields kept in detail. Never a secret: fields named like one are dropped whatever is listed. */
  detail?: readonly string[];
}

/** Who the EOD token routes' caller is in Staff Activity: a system with the configured EOD_API_TOKEN, not a person. */
export const EOD_TOKEN_CALLER = "eod-api-token";

const SECRET_FIELD = /pass|secret|token|private|credential/i;
const DETAIL_TEXT_MAX = 200;

/** "done" for 2xx (unless the answer says error), "refused" when the app said no to the input (422, 409: already running), else "failed". */
function outcomeOf(status: number, answer: Record<string, unknown> | null): ActivityOutcome {
  if (status === 422 || status === 409) return "refused";
  if (status >= 200 && status < 300) return answer?.error === true ? "failed" : "done";
  return "failed";
}

function idOf(facts: ActivityFacts): string | number | null {
  const fromRequest = facts.params.id ?? facts.body.id ?? facts.url.searchParams.get("id");
  if (typeof fromRequest === "string" && fromRequest.trim()) return fromRequest.trim();
  if (typeof fromRequest === "number") return fromRequest;
  const answer = facts.answer;
  if (!answer) return null;
  const data = answer.data as Record<string, unknown> | undefined;
  for (const value of [answer.id, answer.request_id, data && typeof data === "object" ? data.id : undefined]) {
    if (typeof value === "number" || (typeof value === "string" && value)) return value;
  }
  return null;
}

async function recordFrom(activity: RouteActivity, facts: ActivityFacts): Promise<RecordRef | null> {
  if (!activity.record) return null;
  if (typeof activity.record === "function") return (await activity.record(facts)) ?? null;
  const id = idOf(facts);
  return id === null ? null : { type: activity.record, id };
}

function detailFrom(activity: RouteActivity, facts: ActivityFacts, status: number): Prisma.InputJsonObject {
  const detail: Record<string, Prisma.InputJsonValue> = {};
  for (const field of activity.detail ?? []) {
    if (SECRET_FIELD.test(field)) continue;
    const value = facts.body[field] ?? facts.url.searchParams.get(field);
    if (typeof value === "string" && value !== "") detail[field] = value.slice(0, DETAIL_TEXT_MAX);
    else if (typeof value === "number" || typeof value === "boolean") detail[field] = value;
  }
  const answer = facts.answer;
  if (typeof answer?.run_id === "number") detail.run_id = answer.run_id;
  if (status === 422 && answer?.errors && typeof answer.errors === "object") {
    // The fields refused, not what was typed into them (a password may be among them).
    detail.fields = Object.keys(answer.errors).slice(0, 20);
  }
  if (status < 200 || status >= 300) detail.status = status;
  return detail;
}

/** `order` of a route whose body names a record of an order by another field: `orderOf("assignment", "assignment_id")`. */
export const orderOf =
  (type: string, field: string) =>
  (facts: ActivityFacts): Promise<string | null> => {
    const id = facts.body[field] ?? facts.url.searchParams.get(field);
    return typeof id === "string" || typeof id === "number" ? orderOfRecord({ type, id: String(id).trim() }) : Promise.resolve(null);
  };

async function jsonOf(response: Response): Promise<Record<string, unknown> | null> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return null;
  try {
    const parsed: unknown = await response.clone().json();
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export interface ActivityCall {
  request: Request;
  params: LoaderFunctionArgs["params"];
  url: URL;
  staff: string;
}

/**
 * Runs `respond` (the route) and records what the staff member did. What is
 * found before the route runs (the record, its order) is found first; the
 * row is written after the answer is ready, before it is sent.
 */
export async function withActivity(activity: RouteActivity, call: ActivityCall, respond: () => Promise<Response>): Promise<Response> {
  let prepared: { facts: ActivityFacts; action: string; record: RecordRef | null; order: string | null } | null = null;
  try {
    const body = await readBody(call.request).catch(() => ({}));
    const facts: ActivityFacts = { method: intendedMethod(call.request, body), params: call.params, url: call.url, body, answer: null };
    const action = typeof activity.action === "function" ? activity.action(facts) : activity.action;
    if (action) {
      const record = await recordFrom(activity, facts);
      const order = (activity.order ? await activity.order(facts) : null) ?? (await orderOfRecord(record));
      prepared = { facts, action, record, order };
    }
  } catch (error) {
    log.error({ err: error }, `${call.request.method} ${call.url.pathname}: the staff member's action could not be prepared for the record`);
  }
  const response = await respond();
  if (prepared) await record(activity, call, prepared, response);
  return response;
}

async function record(
  activity: RouteActivity,
  call: ActivityCall,
  prepared: { facts: ActivityFacts; action: string; record: RecordRef | null; order: string | null },
  response: Response,
) {
  try {
    const facts = { ...prepared.facts, answer: await jsonOf(response) };
    const record = prepared.record ?? (await recordFrom(activity, facts));
    const order = prepared.order ?? (activity.order ? await activity.order(facts) : null) ?? (await orderOfRecord(record));
    await recordStaffActivity({
      staff: call.staff,
      action: prepared.action,
      record,
      orderIncrementId: order ?? null,
      outcome: outcomeOf(response.status, facts.answer),
      detail: detailFrom(activity, facts, response.status),
    });
  } catch (error) {
    log.error({ err: error }, `${call.request.method} ${call.url.pathname}: ${prepared.action} by ${call.staff} was not recorded`);
  }
}

/**
 * The action of a route called without a staff session (the EOD token routes, D32), recorded as made by `who`.
 * A caller refused for its token is recorded too (failed, 403): someone tried.
 */
export function recordedAs(who: string, activity: RouteActivity, handler: (args: ActionFunctionArgs) => Promise<Response>) {
  return (args: ActionFunctionArgs): Promise<Response> =>
    withActivity(activity, { request: args.request, params: args.params, url: new URL(args.request.url), staff: who }, () => handler(args));
}
