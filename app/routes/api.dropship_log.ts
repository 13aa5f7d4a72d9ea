// GET /api/dropship_log: page, sort, sort_dir, queryValue, one parameter per
// filterable column → { data: { data, last_page, total, … }, columns } (spec 000 §7).
import { dropshipLogGrid } from "~/dropship/grids.server";
import { gridApiRoute } from "~/http/grid-route.server";
import { listDropshipLogs } from "~/dropship/logs.server";

export const loader = gridApiRoute(dropshipLogGrid, ({ url }) => listDropshipLogs(url.searchParams));
