// POST /api/assignment/bulk {action: delete | reassign (store_id), ids}: the grid's bulk action, row by row
// (app/bulk/bulk.server.ts) → {error, message, counts, results: [{id, outcome, message}]}; 422 for a bad body.
import { staffName } from "~/auth.server";
import { bulkAssignments } from "~/bulk/bulk.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(async ({ request, staff }) => bulkAssignments(await readBody(request), staffName(staff))));
