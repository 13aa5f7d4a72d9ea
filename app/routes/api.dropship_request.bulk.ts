// POST /api/dropship_request/bulk {action: resend | cancel, ids}: the grid's bulk action, row by row
// (app/bulk/bulk.server.ts) → {error, message, counts, results: [{id, outcome, message}]}; 422 for a bad body.
import { staffName } from "~/auth.server";
import { bulkRequests } from "~/bulk/bulk.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(async ({ request, staff }) => bulkRequests(await readBody(request), staffName(staff))));
