// GET /api/feed/{id}: the feed's name, cron_expression and enabled flag.
// POST /api/feed/{id} with _method PUT: cron_expression (and enabled); an
// expression the scheduler could not run is a 422 that says why.
import { getFeedForm, updateFeed } from "~/feeds/feeds.server";
import { apiRoute } from "~/http/route.server";
import { intendedMethod, readBody } from "~/lib/validation.server";

const feedId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params }) => getFeedForm(feedId(params)));

export const action = apiRoute(async ({ request, params, t }) => {
  const body = await readBody(request);
  const method = intendedMethod(request, body);
  if (method !== "PUT" && method !== "PATCH") {
    return Response.json({ error: true, message: "Use POST with _method PUT to change a feed" }, { status: 405 });
  }
  return updateFeed(feedId(params), body, t);
});
