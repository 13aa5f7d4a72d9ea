// GET /api/attention: the open Needs attention items (list params: page, sort, sort_dir, kind, vendor_name,
// reason, since = 1h|24h|3d|7d for "older than", queryValue) → data, columns; oldest first.
import { gridApiRoute } from "~/http/grid-route.server";
import { listAttention, attentionGrid } from "~/attention/queue.server";

export const loader = gridApiRoute(attentionGrid, ({ url }) => listAttention(url.searchParams));
