// GET /api/special_order_error: list params → data, last_page, total, columns (spec 001 §7).
// The errors not yet answered by a revision.
import { gridApiRoute } from "~/http/grid-route.server";
import { listSpecialOrderErrors, specialOrderErrorGrid } from "~/special-orders/special-orders.server";

export const loader = gridApiRoute(specialOrderErrorGrid, ({ url }) => listSpecialOrderErrors(url.searchParams));
