// GET /api/unassigned_orders: list params and one filter per column → data, last_page, total (spec 001 §7), and columns.
import { apiRoute } from "~/http/route.server";
import { flatAnswer, listUnassignedOrders } from "~/sales/grids.server";

export const loader = apiRoute(async ({ url }) => flatAnswer(await listUnassignedOrders(url.searchParams)));
