// GET /api/feed/{id}: the feed's name, cron_expression and enabled flag.
// POST /api/feed/{id} with _method PUT: cron_expression (and enabled); an
// expression the scheduler could not run is a 422 that says why.
import { feedForm, findFeed, getFeedForm, updateFeed } from "~/feeds/feeds.server";
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";

const feedId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params }) => getFeedForm(feedId(params)));

export const action = apiRoute(async ({ request, params }) => {
  const body = await readBody(request);
  const method = intendedMethod(request, body);
  if (method !== "PUT" && method !== "PATCH") {
    return Response.json({ error: true, message: "Use POST with _method PUT to change a feed" }, { status: 405 });
  }
  const feed = await findFeed(feedId(params)); // an unknown feed is a 404 before its form is read
  return updateFeed(feed, parseInput(feedForm, body));
});
