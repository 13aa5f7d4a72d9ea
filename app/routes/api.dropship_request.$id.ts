// GET /api/dropship_request/{id}: the revise form's fields.
// POST /api/dropship_request/{id} (multipart, _method=PUT): save; processed again at the next run.
import { requestForm } from "~/dropship/revise-forms";
import { findRequest, getRequestForm, updateRequest } from "~/dropship/revisions.server";
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";

export const loader = apiRoute(({ params }) => getRequestForm(Number(params.id)));

export const action = apiRoute(async ({ request, params }) => {
  const body = await readBody(request);
  if (!["PUT", "PATCH"].includes(intendedMethod(request, body))) {
    return Response.json({ error: true, message: "Use POST with _method=PUT to revise" }, { status: 405 });
  }
  const record = await findRequest(Number(params.id));
  return updateRequest(record, parseInput(requestForm, body));
});
