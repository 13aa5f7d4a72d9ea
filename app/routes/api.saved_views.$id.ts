// GET /api/saved_views/{id}: one view of the shop.
// POST with _method PUT {name?, filters?}: rename and/or replace its filters.
// POST with _action duplicate {name}: a copy under a new name (201).
// DELETE, or POST with _method DELETE: remove it.
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";
import { deleteSavedView, duplicateSavedView, getSavedView, savedViewChangeForm, savedViewNameForm, updateSavedView } from "~/orders/saved-views.server";
import type { RouteActivity } from "~/http/activity.server";

const VIEW_ACTIVITY: RouteActivity = {
  action: ({ method, body }) =>
    body._action === "duplicate"
      ? "saved_view.duplicate"
      : method === "PUT" || method === "PATCH"
        ? "saved_view.save"
        : method === "DELETE"
          ? "saved_view.delete"
          : null,
  record: "saved_view",
  detail: ["name"],
};

const viewId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params, staff }) => getSavedView(staff.shop, viewId(params)));

export const action = apiRoute(async ({ request, params, staff, t }) => {
  const body = await readBody(request);
  // The All tab's name as this reader sees it: no view may take it (D128).
  const naming = { allTab: t("orders.views.all") };
  if (body._action === "duplicate") {
    const { name } = parseInput(savedViewNameForm, body);
    return Response.json(await duplicateSavedView(staff.shop, viewId(params), name, naming), { status: 201 });
  }
  switch (intendedMethod(request, body)) {
    case "PUT":
    case "PATCH":
      return updateSavedView(staff.shop, viewId(params), parseInput(savedViewChangeForm, body), naming);
    case "DELETE":
      return deleteSavedView(staff.shop, viewId(params));
    default:
      return Response.json({ error: true, message: "Use POST with _method PUT to update, _action duplicate to copy, or DELETE" }, { status: 405 });
  }
}, VIEW_ACTIVITY);
