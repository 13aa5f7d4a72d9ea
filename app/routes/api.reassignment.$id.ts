// POST /api/reassignment/{id} (form data store_id, _method=PUT) → error, message: another store or dropshipper,
// the same quantity (spec 001 §7; D21).
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";
import { ASSIGNMENT_FORM_SUMMARY, reassignForm } from "~/sales/assignment-forms";
import { reassignAssignment } from "~/sales/assignment-changes.server";

export const action = apiRoute(
  async ({ request, params }) => {
    const body = await readBody(request);
    if (!["PUT", "PATCH"].includes(intendedMethod(request, body)))
      return Response.json({ error: true, message: "Use POST with _method=PUT to reassign" }, { status: 405 });
    return reassignAssignment(Number(params.id), parseInput(reassignForm, body, ASSIGNMENT_FORM_SUMMARY.reassign));
  },
  {
    action: ({ method }) => (["PUT", "PATCH"].includes(method) ? "assignment.reassign" : null),
    record: "assignment",
    detail: ["store_id"],
  },
);
