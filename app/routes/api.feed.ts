// GET /api/feed: page, sort, sort_dir, name → data, last_page, total (spec 001 §7), plus columns.
import { listFeeds } from "~/feeds/feeds.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listFeeds(url.searchParams));
