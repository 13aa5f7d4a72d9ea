// POST /api/feed_run?feed_name=: runs the feed now on this instance → error, message
// (spec 001 §7's path, §8; POST, not its GET: D54), plus status, detail (the
// run's own message) and log_id.
import { runFeedNow } from "~/feeds/run-now.server";
import { apiRoute, onlyPost, postRoute } from "~/lib/route.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(({ url, t }) => runFeedNow(url.searchParams, t)));
