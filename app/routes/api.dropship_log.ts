// GET /api/dropship_log: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { listDropshipLogs } from "~/dropship/logs.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listDropshipLogs(url.searchParams));
