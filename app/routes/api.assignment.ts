// GET /api/assignment: filters id, order_increment_id, shopify_order_id, item_id, product_sku, qty_assigned,
// store_id, dropshipper_name, form_number, purchase_order (and assign_status) → data, last_page, total (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { flatAnswer, listAssignments } from "~/sales/grids.server";

export const loader = apiRoute(async ({ url }) => flatAnswer(await listAssignments(url.searchParams)));
