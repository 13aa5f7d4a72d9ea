// GET /api/dropship_request: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { newRequestForm } from "~/dropship/revise-forms";
import { createRequest, listRequests } from "~/dropship/revisions.server";
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { orderOf } from "~/http/activity.server";

export const loader = apiRoute(({ url }) => listRequests(url.searchParams));

// POST without an id: creates a ship request by hand for a drop-ship assignment without one (assignment_id and the form's fields).
export const action = apiRoute(async ({ request }) => createRequest(parseInput(newRequestForm, await readBody(request))), {
  action: "dropship_request.create",
  record: ({ answer }) => (typeof answer?.request_id === "number" ? { type: "dropship_request", id: answer.request_id } : null),
  order: orderOf("assignment", "assignment_id"),
  detail: ["assignment_id"],
});
