// GET /api/special_order_log: list params → data, last_page, total, columns (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listSpecialOrderLogs, specialOrderLogGrid } from "~/special-orders/special-orders.server";

export const loader = gridApiRoute(specialOrderLogGrid, ({ url }) => listSpecialOrderLogs(url.searchParams));
