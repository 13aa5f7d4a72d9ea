// POST /api/generate_auto_assignment_file: eligibility computed, the eligible
// orders written to the AS400 (docs/as400-files.md), in the background: 202
// with the run at once (409 while it runs: D93); GET /api/run/{id} ends with
// { error, message }.
import { apiRoute } from "~/http/route.server";
import { autoAssignmentRun } from "~/sales/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const action = apiRoute(({ request, t }) => startRunAnswer(autoAssignmentRun(), request, t), { action: "assignment.generate_auto_file" });
