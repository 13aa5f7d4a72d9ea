// GET /api/dropship_request/{id}: the revise form's fields.
// POST /api/dropship_request/{id} (multipart, _method=PUT): save; processed again at the next run.
import { requestForm } from "~/dropship/revise-forms";
import { findRequest, getRequestForm, updateRequest } from "~/dropship/revisions.server";
import { recordAction } from "~/http/record-loader.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ params }) => getRequestForm(Number(params.id)));
export const action = recordAction({
  find: findRequest,
  schema: requestForm,
  save: updateRequest,
  wrongMethod: "Use POST with _method=PUT to revise",
  activity: { action: "dropship_request.save", record: "dropship_request" },
});
