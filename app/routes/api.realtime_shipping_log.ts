// GET /api/realtime_shipping_log: page, sort, sort_dir, queryValue, one
// parameter per filterable column → the generic grid answer (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { listRealtimeShippingLogs } from "~/sales/realtime-logs.server";

export const loader = apiRoute(({ url }) => listRealtimeShippingLogs(url.searchParams));
