// GET /api/staff_activity: page, sort, sort_dir, queryValue, one parameter per
// filterable column (staff, action, record_type, record_id, order_increment_id,
// outcome) → the generic grid answer of Staff Activity (issue 32 items 5, 8).
import { apiRoute } from "~/http/route.server";
import { listStaffActivity } from "~/staff-activity/grid.server";

export const loader = apiRoute(({ url }) => listStaffActivity(url.searchParams));
