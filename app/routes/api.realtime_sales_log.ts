// GET /api/realtime_sales_log: page, sort, sort_dir, queryValue, one parameter
// per filterable column → the generic grid answer (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listRealtimeSalesLogs, realtimeSalesLogGrid } from "~/sales/realtime-logs.server";

export const loader = gridApiRoute(realtimeSalesLogGrid, ({ url }) => listRealtimeSalesLogs(url.searchParams));
