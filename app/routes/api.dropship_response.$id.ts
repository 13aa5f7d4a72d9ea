// GET /api/dropship_response/{id}: the revise form's fields.
// POST /api/dropship_response/{id} (multipart, _method=PUT): save; processed again at the next run.
import { responseForm } from "~/dropship/revise-forms";
import { findResponse, getResponseForm, updateResponse } from "~/dropship/revisions.server";
import { recordAction } from "~/http/record-loader.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ params }) => getResponseForm(Number(params.id)));
export const action = recordAction({
  find: findResponse,
  schema: responseForm,
  save: updateResponse,
  wrongMethod: "Use POST with _method=PUT to revise",
  activity: { action: "dropship_response.save", record: "dropship_response" },
});
