// GET /api/dropship_vendor/{id}: the vendor (never its password).
// POST /api/dropship_vendor/{id} with _method PUT: update; a changed connection starts its test in the background
// (connection_test_run_id, D280). DELETE: delete, or archive when it has history.
import { updateVendorAndTest } from "~/dropship/background-runs.server";
import { deleteVendor, getVendor } from "~/dropship/vendors.server";
import { localeFromUrl } from "~/i18n/config";
import { apiRoute } from "~/http/route.server";
import { message } from "~/i18n/messages";
import { intendedMethod, readBody } from "~/lib/validation.server";
import type { RouteActivity } from "~/http/activity.server";

// Recorded without the form's values: the password is never kept (D255).
const VENDOR_ACTIVITY: RouteActivity = {
  action: ({ method }) => (method === "PUT" || method === "PATCH" ? "dropship_vendor.save" : method === "DELETE" ? "dropship_vendor.delete" : null),
  record: "dropship_vendor",
  detail: ["name"],
};

const vendorId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params }) => getVendor(vendorId(params)));

export const action = apiRoute(async ({ request, params, t }) => {
  const body = await readBody(request);
  switch (intendedMethod(request, body)) {
    case "PUT":
    case "PATCH":
      // A changed connection is tested at once, in the background (D280).
      return updateVendorAndTest(vendorId(params), body, t, localeFromUrl(request.url));
    case "DELETE": {
      // One with history is archived, not deleted: the answer says which (issue 18).
      const { deleted, archived, name } = await deleteVendor(vendorId(params));
      return { error: false, deleted, archived, message: archived ? message("vendor.archived", { name }) : message("vendor.deleted") };
    }
    default:
      return Response.json({ error: true, message: "Use POST with _method PUT to update, or DELETE" }, { status: 405 });
  }
}, VENDOR_ACTIVITY);
