// GET /api/attention: the open Needs attention items (list params: page, sort, sort_dir, kind, vendor_name,
// reason, since = 1h|24h|3d|7d for "older than", queryValue) → data, columns; oldest first.
import { listAttention } from "~/attention/queue.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listAttention(url.searchParams));
