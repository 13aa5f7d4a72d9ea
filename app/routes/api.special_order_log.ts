// GET /api/special_order_log: list params → data, last_page, total, columns (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { listSpecialOrderLogs } from "~/special-orders/special-orders.server";

export const loader = apiRoute(({ url }) => listSpecialOrderLogs(url.searchParams));
