// POST /api/special_order_pull: starts the special_order_pull feed in the
// background (spec 001 §7's path; POST, not its GET: D54) and answers at once
// (202 with the run, 409 while it runs: D93); GET /api/run/{id} ends with
// { error, msg }.
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { specialOrderPullRun } from "~/special-orders/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(({ request, t }) => startRunAnswer(specialOrderPullRun(), request, t), { action: "special_order.pull" }));
