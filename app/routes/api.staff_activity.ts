// GET /api/staff_activity: page, sort, sort_dir, queryValue, one parameter per
// filterable column (created_at as a date range, staff, action, record_type,
// record_id, order_increment_id, outcome) → the generic grid answer of Staff
// Activity (issue 32 items 5, 8); format=csv for its CSV.
import { gridApiRoute } from "~/http/grid-route.server";
import { listStaffActivity, staffActivityGrid } from "~/staff-activity/grid.server";

export const loader = gridApiRoute(staffActivityGrid, ({ url }) => listStaffActivity(url.searchParams));
