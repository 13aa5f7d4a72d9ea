// GET /api/feed_run?feed_name=: runs the feed now on this instance → error, message
// (spec 001 §7, §8), plus status, detail (the run's own message) and log_id.
import { runFeedNow } from "~/feeds/run-now.server";
import { apiRoute } from "~/lib/route.server";

export const loader = apiRoute(({ url, t }) => runFeedNow(url.searchParams, t));
