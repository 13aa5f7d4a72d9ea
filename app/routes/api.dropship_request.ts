// GET /api/dropship_request: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { dropshipRequestGrid } from "~/dropship/grids.server";
import { gridApiRoute } from "~/http/grid-route.server";
import { newRequestForm } from "~/dropship/revise-forms";
import { createRequest, listRequests } from "~/dropship/revisions.server";
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";

export const loader = gridApiRoute(dropshipRequestGrid, ({ url }) => listRequests(url.searchParams));

// POST without an id: creates a ship request by hand for a drop-ship assignment without one (assignment_id and the form's fields).
export const action = apiRoute(async ({ request }) => createRequest(parseInput(newRequestForm, await readBody(request))));
