// GET /api/dropship_request: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { listRequests } from "~/dropship/revisions.server";
import { apiRoute } from "~/lib/route.server";

export const loader = apiRoute(({ url, t }) => listRequests(url.searchParams, t));

// Requests are created by the drop-ship steps, not by hand; the form revises them.
export const action = apiRoute(async () =>
  Response.json({ error: true, message: "Drop-ship requests are created by the drop-ship steps; revise one with POST /api/dropship_request/{id}" }, { status: 405 }),
);
