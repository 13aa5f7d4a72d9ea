// POST /api/dropship_test_submit (multipart): action = populateRequests |
// sendRequests | populateResponses | processResponses | clearCompletedRequests.
// Runs that step now, through its feed, and answers { error, message }.
import { z } from "zod";
import { DROPSHIP_STEP_ACTIONS, runDropshipStep } from "~/dropship/flow/steps.server";
import { apiRoute } from "~/lib/route.server";
import { fieldErrorsFromZod, readBody, ValidationError } from "~/lib/validation.server";

const StepRequest = z.object({
  action: z.enum(DROPSHIP_STEP_ACTIONS as [string, ...string[]], { message: `action must be one of: ${DROPSHIP_STEP_ACTIONS.join(", ")}` }),
});

export const action = apiRoute(async ({ request, t }) => {
  const parsed = StepRequest.safeParse(await readBody(request));
  if (!parsed.success) throw new ValidationError(fieldErrorsFromZod(parsed.error.issues), t("errors.unprocessable"));
  return runDropshipStep(parsed.data.action as (typeof DROPSHIP_STEP_ACTIONS)[number]);
});
