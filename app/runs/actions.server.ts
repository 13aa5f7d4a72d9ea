// The long actions of the pages as background runs (D93): each builds a
// RunDefinition (what to run, under which lock key, which texts), and the API
// routes start it with startRunAnswer. Input is checked before a run starts,
// so a 422 is still answered at once and nothing runs.
import { DROPSHIP_STEPS, stepJob, type DropshipStepAction } from "~/dropship/flow/steps.server";
import type { StepResult } from "~/dropship/flow/context.server";
import type { ToolAction } from "~/dropship/tool-actions";
import { runToolOutcome, type ToolValues } from "~/dropship/tools/run.server";
import { eodOutcome, type EodAction } from "~/eod/actions.server";
import { runFeed, type FeedJob, type FeedRunContext } from "~/feeds/runner.server";
import { localeFromUrl } from "~/i18n/config";
import type { Translate } from "~/i18n/i18n.server";
import { autoAssignmentFileOutcome } from "~/sales/as400-assignment-files.server";
import { pullSpecialOrders, SPECIAL_ORDER_FEED, SPECIAL_ORDER_FEED_CRON } from "~/special-orders/pull.server";
import { joined, message, plainText, renderMessage, type RunMessage } from "./messages";
import { startRun, type RunContext, type RunDefinition, type RunKind, type RunOutcome, type RunView } from "./runs.server";

/** A feed job whose progress also goes to the run (the feed's starting log keeps its own, D28). */
function teeProgress(job: FeedJob, run: RunContext): FeedJob {
  return (context: FeedRunContext) =>
    job({
      ...context,
      progress: (meta) => {
        run.progress(meta);
        return context.progress(meta);
      },
    });
}

/** A feed run through the feed runner (its lock, logs and interrupted-run checks), as a background run's work. */
async function runFeedFor(run: RunContext, feed: string, job: FeedJob, defaultCron: string) {
  return runFeed(feed, teeProgress(job, run), { trigger: "manual", signal: run.signal, defaultCron });
}

const skippedText = (feed: string) => message("runs.feed_busy", { feed });

export function dropshipStepRun(action: DropshipStepAction): RunDefinition {
  const step = DROPSHIP_STEPS[action];
  return {
    kind: "dropship_test",
    action,
    lockKey: `dropship_step:${action}`,
    failure: message("tools.failure"),
    async work(run) {
      let stepResult: StepResult | undefined;
      const job: FeedJob = async (context) => {
        const outcome = await stepJob({ ...step, run: async () => (stepResult = await step.run()) })(context);
        return outcome;
      };
      const result = await runFeedFor(run, step.feed, job, step.defaultCron);
      if (result.status === "skipped") return { error: true, message: message("tools.failure"), detail: skippedText(step.feed) };
      if (result.status === "failed" || !stepResult) return { error: true, message: message("tools.failure"), detail: result.messageCode ?? plainText(result.message) };
      // The spec shows the server's message (spec 000 §8): the step's summary, its problems under it (codes, D114).
      const problems = stepResult.problemCodes ?? (stepResult.problems ?? []).map(plainText);
      return {
        error: stepResult.error,
        message: stepResult.summary ?? plainText(stepResult.message),
        ...(problems.length ? { detail: message("runs.problems", { problems: problems.slice(0, 5), more: Math.max(0, problems.length - 5), count: problems.length }) } : {}),
        data: { counts: stepResult.meta },
      };
    },
  };
}

export function dropshipToolRun(vendorId: number, action: ToolAction, values: ToolValues): RunDefinition {
  return {
    kind: "dropship_tools",
    action,
    // One tool at a time per vendor: they share its server and its files.
    lockKey: `dropship_tool:${vendorId}`,
    params: { vendor_id: vendorId, ...values },
    failure: message("tools.failure"),
    async work() {
      return runToolOutcome(vendorId, action, values);
    },
  };
}

export function feedRun(feed: string, job: { defaultCron: string; run: FeedJob }): RunDefinition {
  return {
    kind: "feed",
    action: feed,
    lockKey: `feed:${feed}`,
    failure: message("feeds.run.error", { feed }),
    async work(run) {
      const result = await runFeedFor(run, feed, job.run, job.defaultCron);
      const ok = result.status === "finished" && !result.error;
      // detail: the run's own message, as its log keeps it (D28): its code when the job gave one (D114).
      const detail = result.status === "skipped" ? skippedText(feed) : (result.messageCode ?? plainText(result.message));
      return { error: !ok, message: ok ? message("feeds.run.success") : message("feeds.run.error", { feed }), detail, data: { feed_status: result.status, log_id: result.logId } };
    },
  };
}

export function specialOrderPullRun(): RunDefinition {
  return {
    kind: "special_order_pull",
    action: "pull",
    lockKey: "special_order_pull",
    failure: message("special_orders.pull_error"),
    async work(run) {
      const result = await runFeedFor(run, SPECIAL_ORDER_FEED, (context) => pullSpecialOrders(context), SPECIAL_ORDER_FEED_CRON);
      if (result.status === "skipped") return { error: true, message: message("special_orders.pull_error"), detail: skippedText(SPECIAL_ORDER_FEED) };
      return { error: result.error, message: message(result.error ? "special_orders.pull_error" : "special_orders.pull_success"), detail: result.messageCode ?? plainText(result.message) };
    },
  };
}

export function eodRun(action: EodAction, url: URL): RunDefinition {
  return {
    kind: "eod",
    action,
    // Run, export and retry share the EOD lock (D31); this key keeps the staff's own to one at a time too.
    lockKey: "eod",
    params: Object.fromEntries(url.searchParams),
    failure: message(`eod.banners.${action}_error`),
    async work() {
      const { status: _status, ...outcome } = await eodOutcome(action, url);
      return outcome;
    },
  };
}

export function autoAssignmentRun(): RunDefinition {
  return {
    kind: "auto_assignment",
    action: "generate",
    lockKey: "auto_assignment_file",
    failure: message("sales.unassigned.generate_error"),
    async work() {
      const { error, message: text, ...data } = await autoAssignmentFileOutcome();
      return { error, message: text, data };
    },
  };
}

/** What the "already running" answer says, per kind (the spec's text where it has one). */
const ALREADY_RUNNING: Record<RunKind, (definition: RunDefinition) => RunMessage> = {
  dropship_test: () => message("runs.already_running"),
  dropship_tools: () => message("runs.already_running_tool"),
  feed: (definition) => message("runs.feed_busy", { feed: definition.action }),
  special_order_pull: () => message("runs.already_running"),
  eod: () => message("eod.detail.busy"),
  auto_assignment: () => message("runs.already_running"),
};

export interface StartedAnswer {
  error: boolean;
  status: "running" | "already_running";
  run_id: number | null;
  message: string;
  run: RunView | null;
}

/**
 * Starts a run for a request and answers at once: 202 with the run, or 409
 * with the run already going (its id, so the page can follow it).
 */
export async function startRunAnswer(definition: RunDefinition, request: Request, t: Translate): Promise<Response> {
  const language = localeFromUrl(request.url);
  const answer = await startRun(definition, t, language);
  if (answer.started) {
    const body: StartedAnswer = { error: false, status: "running", run_id: answer.run.id, message: t("runs.started"), run: answer.run };
    return Response.json(body, { status: 202 });
  }
  const body: StartedAnswer = {
    error: true,
    status: "already_running",
    run_id: answer.run?.id ?? null,
    message: renderMessage(t, language, ALREADY_RUNNING[definition.kind](definition)),
    run: answer.run,
  };
  return Response.json(body, { status: 409 });
}

export type { RunOutcome };
