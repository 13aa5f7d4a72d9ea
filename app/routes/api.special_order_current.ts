// GET /api/special_order_current: page, sort, sort_dir, queryValue, one parameter per
// filterable column → data, last_page, total, columns (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { listCurrentSpecialOrders } from "~/special-orders/special-orders.server";

export const loader = apiRoute(({ url }) => listCurrentSpecialOrders(url.searchParams));
