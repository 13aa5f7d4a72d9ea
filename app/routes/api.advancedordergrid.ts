// GET /api/advancedordergrid: page, sort, sort_dir, per_page, globalFilter / queryValue
// and the named filters of spec 000 §7 → { data, current_page, per_page, last_page, total, total_exact }.
import { apiRoute } from "~/http/route.server";
import { listOrderGrid } from "~/orders/order-grid.server";

export const loader = apiRoute(({ url }) => listOrderGrid(url.searchParams));
