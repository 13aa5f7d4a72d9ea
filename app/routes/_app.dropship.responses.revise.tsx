// Revise Drop Shipping Response (spec 000 §2, route decided in design.md): /dropship/responses/revise?id=
import { RESPONSE_FIELDS } from "~/dropship/revise-fields";
import { getResponseForm } from "~/dropship/revisions.server";
import { ResponseReviseSummary } from "~/dropship/ReviseSummary";
import { reviseRecordScreen } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";

export const loader = recordLoader(getResponseForm);

export default reviseRecordScreen((t) => ({
  title: t("responses.revise_title"),
  fields: RESPONSE_FIELDS,
  labels: "revise.fields",
  api: "/api/dropship_response",
  listUrl: "/dropship/responses/",
  summary: (record) => <ResponseReviseSummary record={record} />,
  texts: { loadError: t("responses.form_load_error"), saved: t("responses.saved"), saveError: t("responses.save_error") },
}));
