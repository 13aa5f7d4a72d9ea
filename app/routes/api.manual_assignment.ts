// GET /api/manual_assignment?order_id= → unassigned_order_items, available_stores, available_qtys.
// POST /api/manual_assignment (assignments[n][item_id|store_id|qty_assigned], order_id) → error, message;
// a broken rule is a 422 naming the row and field (spec 001 §5, §7; D21).
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { ASSIGNMENT_FORM_SUMMARY, manualAssignmentForm } from "~/sales/assignment-forms";
import { createManualAssignments, manualAssignmentData } from "~/sales/assignments.server";
import { stockRefreshFor } from "~/sales/stores.server";

// The stores' stock of the order's SKUs is read from Shopify first (D52).
export const loader = apiRoute(({ url, staff }) => manualAssignmentData(url.searchParams.get("order_id") ?? "", stockRefreshFor(staff)));

export const action = apiRoute(
  async ({ request }) => createManualAssignments(parseInput(manualAssignmentForm, await readBody(request), ASSIGNMENT_FORM_SUMMARY.manual)),
  {
    action: "assignment.manual",
    // The order is the record staff acted on; its increment id is what the form sends.
    order: ({ body }) => (typeof body.order_id === "string" && body.order_id.trim() ? body.order_id.trim() : null),
  },
);
