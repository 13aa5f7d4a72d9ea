// The five drop-ship steps: each is a feed (scheduled by jobs/, run now by the
// Test page), so a step never runs twice at once anywhere.
import { withFeedProgress } from "~/feeds/progress.server";
import { runFeed, type FeedJob } from "~/feeds/runner.server";
import { clearCompletedShipRequests } from "./clear-completed.server";
import type { StepResult } from "./context.server";
import { populateShipRequests } from "./populate-requests.server";
import { populateShipResponses } from "./populate-responses.server";
import { processShipResponses } from "./process-responses.server";
import { sendShipRequests } from "./send-requests.server";

export interface DropshipStep {
  feed: string;
  defaultCron: string;
  run: () => Promise<StepResult>;
}

/** Keyed by the Test page's action names (spec 000 §7). */
export const DROPSHIP_STEPS = {
  populateRequests: { feed: "populate_ship_requests", defaultCron: "*/15 * * * *", run: populateShipRequests },
  sendRequests: { feed: "send_ship_requests", defaultCron: "5,20,35,50 * * * *", run: () => sendShipRequests() },
  populateResponses: { feed: "populate_ship_responses", defaultCron: "*/10 * * * *", run: () => populateShipResponses() },
  processResponses: { feed: "process_ship_responses", defaultCron: "2,12,22,32,42,52 * * * *", run: () => processShipResponses() },
  clearCompletedRequests: { feed: "clear_completed_ship_requests", defaultCron: "0 2 * * *", run: clearCompletedShipRequests },
} satisfies Record<string, DropshipStep>;

export type DropshipStepAction = keyof typeof DROPSHIP_STEPS;
export const DROPSHIP_STEP_ACTIONS = Object.keys(DROPSHIP_STEPS) as DropshipStepAction[];

/** A step as a feed job: its result becomes the feed log's meta. */
export function stepJob(step: DropshipStep): FeedJob {
  return async ({ progress }) => {
    const result = await withFeedProgress(progress, step.run);
    return { message: result.message, messageCode: result.messageCode, error: result.error, meta: result.meta };
  };
}

/** Runs a step now, through its feed (skipped when it is already running). */
export async function runDropshipStep(action: DropshipStepAction, trigger: "manual" | "schedule" = "manual") {
  const step = DROPSHIP_STEPS[action];
  const result = await runFeed(step.feed, stepJob(step), { trigger, defaultCron: step.defaultCron });
  return { error: result.error, message: result.message };
}
