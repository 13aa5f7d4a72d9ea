// GET /api/advancedordergrid_forcesync?id=: re-reads the order from Shopify and
// updates its row. Unknown id 404, no Shopify order id 422, Shopify failing 502
// with { error: true, message }.
import { apiRoute } from "~/http/route.server";
import { renderAnswer } from "~/lib/validation.server";
import { forceSyncOrder } from "~/orders/force-sync.server";

export const loader = apiRoute(
  async ({ url, staff, t }) => {
    const { status, body } = await forceSyncOrder(url.searchParams.get("id"), staff);
    return Response.json(renderAnswer(t, body), { status });
  },
  { action: "order.force_sync", record: "order" },
);
