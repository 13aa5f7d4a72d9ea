// POST /api/dropship_test_submit (multipart): action = populateRequests |
// sendRequests | populateResponses | processResponses | clearCompletedRequests.
// Starts that step through its feed in the background and answers at once
// (202 with the run, 409 when it is already running: D93); GET /api/run/{id}
// then tells its progress and, at its end, { error, message } (spec 000 §7).
import { z } from "zod";
import { DROPSHIP_STEP_ACTIONS, type DropshipStepAction } from "~/dropship/flow/steps.server";
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { dropshipStepRun } from "~/dropship/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

const StepRequest = z.object({
  action: z.enum(DROPSHIP_STEP_ACTIONS as [string, ...string[]], { message: `action must be one of: ${DROPSHIP_STEP_ACTIONS.join(", ")}` }),
});

export const action = apiRoute(
  async ({ request, t }) => {
    const { action } = parseInput(StepRequest, await readBody(request));
    return startRunAnswer(dropshipStepRun(action as DropshipStepAction), request, t);
  },
  { action: "dropship_test.run", detail: ["action"] },
);
