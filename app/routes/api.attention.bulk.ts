// POST /api/attention/bulk {action: dismiss (note), ids}: the grid's bulk action, row by row
// (app/bulk/bulk.server.ts) → {error, message, counts, results: [{id, outcome, message}]}; 422 for a bad body.
import { staffName } from "~/auth.server";
import { bulkAttention } from "~/bulk/bulk.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(async ({ request, staff }) => bulkAttention(await readBody(request), staffName(staff))));
