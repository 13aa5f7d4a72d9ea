// GET /api/dropship_response: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { newResponseForm } from "~/dropship/revise-forms";
import { createResponse, listResponses } from "~/dropship/revisions.server";
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { orderOf } from "~/http/activity.server";

export const loader = apiRoute(({ url }) => listResponses(url.searchParams));

// POST without an id: creates a shipment by hand for a ship request (po_number and the form's fields); fulfilled at the next run.
export const action = apiRoute(async ({ request }) => createResponse(parseInput(newResponseForm, await readBody(request))), {
  action: "dropship_response.create",
  record: ({ answer }) => (typeof answer?.id === "number" ? { type: "dropship_response", id: answer.id } : null),
  order: orderOf("purchase_order", "po_number"),
  detail: ["po_number"],
});
