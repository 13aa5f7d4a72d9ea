// GET /api/realtime_shipping_log: page, sort, sort_dir, queryValue, one
// parameter per filterable column → the generic grid answer (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listRealtimeShippingLogs, realtimeShippingLogGrid } from "~/sales/realtime-logs.server";

export const loader = gridApiRoute(realtimeShippingLogGrid, ({ url }) => listRealtimeShippingLogs(url.searchParams));
