// GET /api/unassigned_orders: list params and one filter per column → data, last_page, total (spec 001 §7), and columns.
import { gridApiRoute } from "~/http/grid-route.server";
import { flatAnswer, listUnassignedOrders, unassignedOrderGrid } from "~/sales/grids.server";

export const loader = gridApiRoute(unassignedOrderGrid, async ({ url }) => flatAnswer(await listUnassignedOrders(url.searchParams)));
