// DELETE /api/assignment/{id} → error, message: the quantity goes back to unassigned.
// Only Pending and Processing assignments can be deleted; the 422 says why not (D21).
import { apiRoute } from "~/http/route.server";
import { intendedMethod, readBody } from "~/lib/validation.server";
import { deleteAssignment } from "~/sales/assignment-changes.server";
import type { RouteActivity } from "~/http/activity.server";

const ASSIGNMENT_DELETE: RouteActivity = { action: ({ method }) => (method === "DELETE" ? "assignment.delete" : null), record: "assignment" };

export const action = apiRoute(async ({ request, params }) => {
  const body = request.method === "DELETE" ? {} : await readBody(request);
  if (intendedMethod(request, body) !== "DELETE")
    return Response.json({ error: true, message: "Use DELETE (or POST with _method=DELETE) to delete an assignment" }, { status: 405 });
  return deleteAssignment(Number(params.id));
}, ASSIGNMENT_DELETE);
