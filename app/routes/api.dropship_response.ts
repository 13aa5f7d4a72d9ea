// GET /api/dropship_response: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { listResponses } from "~/dropship/revisions.server";
import { apiRoute } from "~/lib/route.server";

export const loader = apiRoute(({ url, t }) => listResponses(url.searchParams, t));

// Responses are created by the drop-ship steps, not by hand; the form revises them.
export const action = apiRoute(async () =>
  Response.json({ error: true, message: "Drop-ship responses are created by the drop-ship steps; revise one with POST /api/dropship_response/{id}" }, { status: 405 }),
);
