// GET /api/assignment: filters id, order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned,
// store_id, dropshipper_name, form_number, purchase_order (and assign_status) → data, last_page, total (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { flatAnswer, listAssignments, assignmentGrid } from "~/sales/grids.server";

export const loader = gridApiRoute(assignmentGrid, async ({ url }) => flatAnswer(await listAssignments(url.searchParams)));
