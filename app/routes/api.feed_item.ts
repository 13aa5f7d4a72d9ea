// GET /api/feed_item: page, sort, sort_dir, feed_name, type → data, last_page, total
// (spec 001 §7), plus columns; meta as JSON text.
import { listFeedLogs } from "~/feeds/feeds.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listFeedLogs(url.searchParams));
