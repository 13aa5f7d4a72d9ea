// Bulk work on the grids (issue 32 item 3, D270–D273): POST /api/<grid>/bulk
// {action, ids, …} runs the single action's own domain function once per row,
// under the same rules (a row the single action would answer 422 or 404 is
// "refused" with the same words), records each row as staff activity, and
// answers a result per row and the counts. Nothing here takes minutes: a feed's
// run goes to the background as Run Feed does.
import { z } from "zod";
import prisma from "~/db.server";
import { queueCancellation } from "~/dropship/tools/cancellations.server";
import { ToolRefusal } from "~/dropship/tools/outcome.server";
import { findRequest, resendRequest } from "~/dropship/revisions.server";
import { DismissBody, dismissAttentionItem } from "~/attention/queue.server";
import type { FeedRegistry } from "~/feeds/runner.server";
import { message, plainText, ReaderText, type MessageTranslate, type RunMessage } from "~/i18n/messages";
import { coded, NotFoundError, parseInput, ValidationError, type Problem } from "~/lib/validation.server";
import { logger } from "~/observability/logger.server";
import { feedRun } from "~/runs/feed-runs.server";
import { startRun } from "~/runs/runs.server";
import { deleteAssignment, reassignAssignments } from "~/sales/assignment-changes.server";
import { recordStaffActivity, type ActivityOutcome } from "~/staff-activity/activity.server";

const log = logger("bulk");

/** At most this many rows in one bulk request (a grid's page holds far fewer). */
export const BULK_MAX_IDS = 300;

export type RowOutcome = ActivityOutcome;

export interface BulkRowResult {
  id: number;
  outcome: RowOutcome;
  message: ReaderText;
}

export interface BulkAnswer {
  error: boolean;
  message: RunMessage;
  counts: Record<RowOutcome, number>;
  results: BulkRowResult[];
}

const ids = z
  .array(
    z.coerce
      .number({ message: coded("bulk.errors.ids") })
      .int(coded("bulk.errors.ids"))
      .positive(coded("bulk.errors.ids")),
    {
      message: coded("bulk.errors.ids"),
    },
  )
  .min(1, coded("bulk.errors.ids"))
  .max(BULK_MAX_IDS, coded("bulk.errors.ids_max", { max: BULK_MAX_IDS }))
  // The same row twice is done once.
  .transform((list) => [...new Set(list)]);

function bodySchema<A extends string>(actions: readonly [A, ...A[]]) {
  return z.object({
    action: z.enum(actions, { message: coded("bulk.errors.action", { allowed: actions.join(", ") }) }),
    ids,
  });
}

/** The first words of a refusal: the field's problem, else the summary. */
function reasonOf(error: ValidationError): Problem {
  return Object.values(error.errors).flat()[0] ?? error.summary;
}

const readerText = (problem: Problem): ReaderText => new ReaderText(typeof problem === "string" ? plainText(problem) : problem);

/** A row this action cannot do, in words (a feed already running). */
class RowRefusal extends Error {
  constructor(readonly problem: RunMessage) {
    super("refused");
  }
}

interface RowRun {
  staff: string;
  /** "<record type>.<verb>": the staff activity's action. */
  action: string;
  recordType: string;
  /** Each row's order (recorded with the activity), read before anything changes. */
  orders?: Map<number, string | null>;
}

/** A row's error as its outcome: the single action's 422 or 404 is a refusal in its words; anything else failed. */
function failureOf(id: number, error: unknown, run: RowRun): BulkRowResult {
  if (error instanceof ValidationError) return { id, outcome: "refused", message: readerText(reasonOf(error)) };
  if (error instanceof NotFoundError) return { id, outcome: "refused", message: readerText(error.problem) };
  if (error instanceof RowRefusal) return { id, outcome: "refused", message: new ReaderText(error.problem) };
  if (error instanceof ToolRefusal) return { id, outcome: "refused", message: new ReaderText(error.text) };
  log.error({ err: error }, `bulk ${run.action} of ${run.recordType} ${id} failed`);
  return { id, outcome: "failed", message: new ReaderText(message("bulk.row_failed", { id })) };
}

/** The answer, and each row recorded as the staff member's activity. */
async function finish(results: BulkRowResult[], run: RowRun): Promise<BulkAnswer> {
  const counts: Record<RowOutcome, number> = { done: 0, refused: 0, failed: 0 };
  for (const result of results) counts[result.outcome]++;
  await recordStaffActivity(
    results.map((result) => ({
      staff: run.staff,
      action: run.action,
      record: { type: run.recordType, id: result.id },
      orderIncrementId: run.orders?.get(result.id) ?? null,
      outcome: result.outcome,
      detail: { bulk: true, message: result.message.message as never },
    })),
  ).catch((error: unknown) => log.error({ err: error }, `recording bulk ${run.action} failed`));
  return {
    error: counts.done < results.length,
    message: message("bulk.summary", { done: counts.done, refused: counts.refused, failed: counts.failed }),
    counts,
    results,
  };
}

/** Each row in turn through `act`, its own transaction and rules. */
async function eachRow(list: number[], run: RowRun, act: (id: number) => Promise<{ message: RunMessage }>): Promise<BulkAnswer> {
  const results: BulkRowResult[] = [];
  for (const id of list) {
    try {
      const answer = await act(id);
      results.push({ id, outcome: "done", message: new ReaderText(answer.message) });
    } catch (error) {
      results.push(failureOf(id, error, run));
    }
  }
  return finish(results, run);
}

// --- drop-ship requests ------------------------------------------------------------

export const REQUEST_BULK_ACTIONS = ["resend", "cancel"] as const;

/** POST /api/dropship_request/bulk {action: resend | cancel, ids}. */
export async function bulkRequests(body: unknown, staff: string): Promise<BulkAnswer> {
  const { action, ids: list } = parseInput(bodySchema(REQUEST_BULK_ACTIONS), body);
  const rows = await prisma.dropshipRequest.findMany({ where: { request_id: { in: list } }, select: { request_id: true, order_increment_id: true } });
  const orders = new Map(rows.map((row) => [row.request_id, row.order_increment_id]));
  const run = { staff, action: `dropship_request.${action}`, recordType: "dropship_request", orders };
  if (action === "resend") return eachRow(list, run, resendRequest);
  return eachRow(list, run, async (id) => {
    const request = await findRequest(id);
    const { queuedNow } = await queueCancellation(request);
    return { message: message(queuedNow ? "bulk.done.cancel_queued" : "bulk.done.cancel_waiting", { po: request.po_number, vendor: request.vendor_name }) };
  });
}

// --- assignments -------------------------------------------------------------------

export const ASSIGNMENT_BULK_ACTIONS = ["delete", "reassign"] as const;

const AssignmentBody = bodySchema(ASSIGNMENT_BULK_ACTIONS).extend({
  store_id: z
    .string({ message: coded("bulk.errors.store_id") })
    .trim()
    .max(64)
    .optional(),
});

/** POST /api/assignment/bulk {action: delete | reassign, ids, store_id (reassign)}: Awaiting and In Progress Assignment. */
export async function bulkAssignments(body: unknown, staff: string): Promise<BulkAnswer> {
  const input = parseInput(
    AssignmentBody.superRefine((value, context) => {
      if (value.action === "reassign" && !value.store_id) context.addIssue({ code: "custom", path: ["store_id"], message: coded("bulk.errors.store_id") });
    }),
    body,
  );
  const rows = await prisma.assignment.findMany({ where: { id: { in: input.ids } }, select: { id: true, order_increment_id: true } });
  const run = { staff, action: `assignment.${input.action}`, recordType: "assignment", orders: new Map(rows.map((row) => [row.id, row.order_increment_id])) };
  if (input.action === "delete") return eachRow(input.ids, run, deleteAssignment);
  const byId = new Map<number, BulkRowResult>();
  await reassignAssignments(input.ids, { store_id: input.store_id! }, (id, result) =>
    byId.set(id, "answer" in result ? { id, outcome: "done", message: new ReaderText(result.answer.message) } : failureOf(id, result.error, run)),
  );
  return finish(
    input.ids.map((id) => byId.get(id)!),
    run,
  );
}

// --- feeds ------------------------------------------------------------------------

export const FEED_BULK_ACTIONS = ["run"] as const;

/**
 * POST /api/feed/bulk {action: run, ids}: each feed started in the background as Run Feed starts it
 * (its own run, followed on the Feed Summary); a feed already running, or with no job in this build, is refused.
 */
export async function bulkFeeds(body: unknown, staff: string, jobs: FeedRegistry, t: MessageTranslate, language: string): Promise<BulkAnswer> {
  const { action, ids: list } = parseInput(bodySchema(FEED_BULK_ACTIONS), body);
  const feeds = new Map(
    (await prisma.feed.findMany({ where: { id: { in: list } }, select: { id: true, name: true } })).map((feed) => [feed.id, feed.name] as const),
  );
  return eachRow(list, { staff, action: `feed.${action}`, recordType: "feed" }, async (id) => {
    const name = feeds.get(id);
    if (!name) throw new NotFoundError(message("bulk.refused.no_feed", { id }));
    const job = jobs[name];
    if (!job) throw new RowRefusal(message("feeds.run.no_job", { feed: name }));
    const started = await startRun(feedRun(name, job), t, language);
    if (!started.started) throw new RowRefusal(message("runs.feed_busy", { feed: name }));
    return { message: message("bulk.done.feed_started", { feed: name }) };
  });
}

// --- Needs attention --------------------------------------------------------------

export const ATTENTION_BULK_ACTIONS = ["dismiss"] as const;

const AttentionBody = bodySchema(ATTENTION_BULK_ACTIONS).extend({ note: z.unknown() });

/** POST /api/attention/bulk {action: dismiss, ids, note}: one note for every item, checked once (the single Dismiss's rule). */
export async function bulkAttention(body: unknown, staff: string): Promise<BulkAnswer> {
  const input = parseInput(AttentionBody, body);
  // The note's 422 before any row: the same words as one Dismiss.
  parseInput(DismissBody, { note: input.note });
  return eachRow(input.ids, { staff, action: `attention.${input.action}`, recordType: "attention_item" }, (id) =>
    dismissAttentionItem(id, { note: input.note }, staff),
  );
}
