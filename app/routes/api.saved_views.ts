// GET /api/saved_views?grid=advancedorder: the shop's saved views of the grid, in tab order.
// POST /api/saved_views {name, filters}: a new view (422 with the naming rule it breaks).
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { createSavedView, listSavedViews, savedViewForm } from "~/orders/saved-views.server";

export const loader = apiRoute(({ url, staff }) => listSavedViews(staff.shop, url.searchParams.get("grid")));

export const action = apiRoute(
  async ({ request, staff, t }) => {
    if (request.method !== "POST") return Response.json({ error: true, message: "Use POST to create a saved view" }, { status: 405 });
    const input = parseInput(savedViewForm, await readBody(request));
    return Response.json(await createSavedView(staff.shop, input, { allTab: t("orders.views.all") }), { status: 201 });
  },
  { action: ({ method }) => (method === "POST" ? "saved_view.create" : null), record: "saved_view", detail: ["name"] },
);
