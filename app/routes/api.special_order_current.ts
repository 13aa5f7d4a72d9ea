// GET /api/special_order_current: page, sort, sort_dir, queryValue, one parameter per
// filterable column → data, last_page, total, columns (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listCurrentSpecialOrders, specialOrderCurrentGrid } from "~/special-orders/special-orders.server";

export const loader = gridApiRoute(specialOrderCurrentGrid, ({ url }) => listCurrentSpecialOrders(url.searchParams));
