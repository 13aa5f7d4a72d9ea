// GET /api/feed/{id}: the feed's name, cron_expression and enabled flag.
// POST /api/feed/{id} with _method PUT: cron_expression (and enabled); an
// expression the scheduler could not run is a 422 that says why.
import { feedForm, findFeed, getFeedForm, updateFeed } from "~/feeds/feeds.server";
import { recordAction } from "~/http/record-loader.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ params }) => getFeedForm(Number(params.id)));
export const action = recordAction({
  find: findFeed,
  schema: feedForm,
  save: updateFeed,
  wrongMethod: "Use POST with _method PUT to change a feed",
  activity: { action: "feed.save", record: "feed", detail: ["cron_expression", "enabled"] },
});
