// GET /api/reassignment?id= → data (the assignment first), available_stores, available_qtys (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { reassignmentData } from "~/sales/assignment-changes.server";
import { stockRefreshFor } from "~/sales/stores.server";

// The stores' stock of the SKU is read from Shopify first (D52).
export const loader = apiRoute(({ url, staff }) => reassignmentData(Number(url.searchParams.get("id")), stockRefreshFor(staff)));
