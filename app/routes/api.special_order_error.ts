// GET /api/special_order_error: list params → data, last_page, total, columns (spec 001 §7).
// The errors not yet answered by a revision.
import { apiRoute } from "~/http/route.server";
import { listSpecialOrderErrors } from "~/special-orders/special-orders.server";

export const loader = apiRoute(({ url }) => listSpecialOrderErrors(url.searchParams));
