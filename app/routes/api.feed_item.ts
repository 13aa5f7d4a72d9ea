// GET /api/feed_item: page, sort, sort_dir, feed_name, type → data, last_page, total
// (spec 001 §7), plus columns; meta as JSON text, meta_text the run's words (D267).
import { gridApiRoute } from "~/http/grid-route.server";
import { feedLogGrid, feedLogCsvRows, listFeedLogs } from "~/feeds/feeds.server";

export const loader = gridApiRoute(feedLogGrid, ({ url }) => listFeedLogs(url.searchParams), { shape: feedLogCsvRows });
