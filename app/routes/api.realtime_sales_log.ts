// GET /api/realtime_sales_log: page, sort, sort_dir, queryValue, one parameter
// per filterable column → the generic grid answer (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { listRealtimeSalesLogs } from "~/sales/realtime-logs.server";

export const loader = apiRoute(({ url }) => listRealtimeSalesLogs(url.searchParams));
