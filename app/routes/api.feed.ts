// GET /api/feed: page, sort, sort_dir, name → data, last_page, total (spec 001 §7), plus columns.
import { gridApiRoute } from "~/http/grid-route.server";
import { listFeeds, feedGrid } from "~/feeds/feeds.server";

export const loader = gridApiRoute(feedGrid, ({ url }) => listFeeds(url.searchParams));
