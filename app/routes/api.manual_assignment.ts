// GET /api/manual_assignment?order_id= → unassigned_order_items, available_stores, available_qtys.
// POST /api/manual_assignment (assignments[n][item_id|store_id|qty_assigned], order_id) → error, message;
// a broken rule is a 422 naming the row and field (spec 001 §5, §7; D21).
import { apiRoute } from "~/lib/route.server";
import { readBody } from "~/lib/validation.server";
import { createManualAssignments, manualAssignmentData } from "~/sales/assignments.server";

export const loader = apiRoute(({ url, t }) => manualAssignmentData(url.searchParams.get("order_id") ?? "", t));

export const action = apiRoute(async ({ request, t }) => createManualAssignments(await readBody(request), t));
