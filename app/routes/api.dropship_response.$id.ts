// GET /api/dropship_response/{id}: the revise form's fields.
// POST /api/dropship_response/{id} (multipart, _method=PUT): save; processed again at the next run.
import { responseForm } from "~/dropship/revise-forms";
import { findResponse, getResponseForm, updateResponse } from "~/dropship/revisions.server";
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";

export const loader = apiRoute(({ params }) => getResponseForm(Number(params.id)));

export const action = apiRoute(async ({ request, params }) => {
  const body = await readBody(request);
  if (!["PUT", "PATCH"].includes(intendedMethod(request, body))) {
    return Response.json({ error: true, message: "Use POST with _method=PUT to revise" }, { status: 405 });
  }
  const record = await findResponse(Number(params.id));
  return updateResponse(record, parseInput(responseForm, body));
});
