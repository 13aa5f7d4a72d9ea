// The five drop-ship steps: each is a feed (scheduled by jobs/, run now by the
// Test page), so a step never runs twice at once anywhere. A scheduled step, or one
// the minute watch starts, that did work starts the next one at once (D250):
// Populate Ship Requests → Send Ship Requests, Populate Ship Responses (Take) → Process.
import prisma from "~/db.server";
import { withFeedProgress } from "~/feeds/progress.server";
import { runFeed, type FeedJob, type FeedJobDefinition, type FeedRunResult, type WhenBusy } from "~/feeds/runner.server";
import { clearCompletedShipRequests } from "./clear-completed.server";
import type { StepResult } from "./context.server";
import { populateShipRequests } from "./populate-requests.server";
import { populateShipResponses } from "./populate-responses.server";
import { processShipResponses } from "./process-responses.server";
import { sendShipRequests } from "./send-requests.server";

type StepName = "populateRequests" | "sendRequests" | "populateResponses" | "processResponses" | "clearCompletedRequests";

export interface DropshipStep {
  feed: string;
  defaultCron: string;
  run: () => Promise<StepResult>;
  /** The step started at once after a scheduled or watched run of this one that did this work (its meta's count > 0, D250). */
  next?: { action: StepName; when: string };
}

/** Keyed by the Test page's action names (spec 000 §7). */
export const DROPSHIP_STEPS = {
  populateRequests: {
    feed: "populate_ship_requests",
    defaultCron: "*/15 * * * *",
    run: populateShipRequests,
    next: { action: "sendRequests", when: "created" },
  },
  sendRequests: { feed: "send_ship_requests", defaultCron: "5,20,35,50 * * * *", run: () => sendShipRequests() },
  populateResponses: {
    feed: "populate_ship_responses",
    defaultCron: "*/10 * * * *",
    run: () => populateShipResponses(),
    next: { action: "processResponses", when: "files_stored" },
  },
  processResponses: { feed: "process_ship_responses", defaultCron: "2,12,22,32,42,52 * * * *", run: () => processShipResponses() },
  clearCompletedRequests: { feed: "clear_completed_ship_requests", defaultCron: "0 2 * * *", run: clearCompletedShipRequests },
} satisfies Record<StepName, DropshipStep>;

export type DropshipStepAction = keyof typeof DROPSHIP_STEPS;
export const DROPSHIP_STEP_ACTIONS = Object.keys(DROPSHIP_STEPS) as DropshipStepAction[];

/** A step as a feed job: its result becomes the feed log's meta. */
export function stepJob(step: DropshipStep): FeedJob {
  return async ({ progress }) => {
    const result = await withFeedProgress(progress, step.run);
    return { message: result.message, messageCode: result.messageCode, error: result.error, meta: result.meta };
  };
}

/** Runs a step now, through its feed (skipped when it is already running); the one step only, not what follows it (D250). */
export async function runDropshipStep(action: DropshipStepAction, trigger: "manual" | "schedule" = "manual") {
  const step = DROPSHIP_STEPS[action];
  const result = await runFeed(step.feed, stepJob(step), { trigger, defaultCron: step.defaultCron });
  return { error: result.error, message: result.message };
}

/** Whether the feed may be started by another feed: its row is not disabled (no row yet: the scheduler has not made it, so it is). */
export async function feedEnabled(feed: string): Promise<boolean> {
  const row = await prisma.feed.findUnique({ where: { name: feed }, select: { enabled: true } });
  return row === null || row.enabled !== 0;
}

export interface StepRun {
  action: DropshipStepAction;
  /** null: not run, its feed is disabled. */
  result: FeedRunResult | null;
}

/**
 * Runs a step for another feed (the minute watch, or the step before it), then the step after it when this
 * one did that work: each through its own feed (lock and logs), trigger "chain"; a disabled feed is not run.
 * Answers every step that was looked at, in order.
 */
export async function runStepChain(action: DropshipStepAction, options: { signal?: AbortSignal; whenBusy: WhenBusy }): Promise<StepRun[]> {
  const step: DropshipStep = DROPSHIP_STEPS[action];
  if (!(await feedEnabled(step.feed))) return [{ action, result: null }];
  const result = await runFeed(step.feed, stepJob(step), {
    trigger: "chain",
    signal: options.signal,
    defaultCron: step.defaultCron,
    whenBusy: options.whenBusy,
  });
  return [{ action, result }, ...(await chainAfter(action, result, options.signal))];
}

/**
 * The next step after a run of `action`, when it finished having done its work: waiting for it when it is
 * running elsewhere (that run may have started before this one's work was committed), so the wake-up is not lost (D251).
 */
export async function chainAfter(action: DropshipStepAction, result: FeedRunResult, signal?: AbortSignal): Promise<StepRun[]> {
  const next = (DROPSHIP_STEPS[action] as DropshipStep).next;
  if (!next || result.status !== "finished" || signal?.aborted) return [];
  const done = result.meta?.[next.when];
  if (typeof done !== "number" || done <= 0) return [];
  return runStepChain(next.action, { signal, whenBusy: "wait" });
}

/** A step as the scheduler's job: its cron, its run, and the next step after a scheduled run (D250). */
export function stepFeedJob(action: DropshipStepAction): FeedJobDefinition {
  const step: DropshipStep = DROPSHIP_STEPS[action];
  return {
    defaultCron: step.defaultCron,
    run: stepJob(step),
    ...(step.next ? { then: (result, { signal }) => chainAfter(action, result, signal) } : {}),
  };
}
