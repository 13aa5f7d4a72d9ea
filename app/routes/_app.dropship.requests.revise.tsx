// Revise Drop Shipping request (spec 000 §2, route decided in design.md): /dropship/requests/revise?id=
// Above the fields: its status, the vendor's reason, what Save does and its related records (issue 32).
// Below the fields, read-only: the status, the vendor's answer and the request's cancellations (D231).
import { REQUEST_FIELDS } from "~/dropship/revise-fields";
import { RequestVendorSide, sendElsewhereActions } from "~/dropship/RequestVendorSide";
import { getRequestForm } from "~/dropship/revisions.server";
import { RequestReviseSummary } from "~/dropship/ReviseSummary";
import { reviseRecordScreen } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";

export const loader = recordLoader(getRequestForm);

export default reviseRecordScreen((t) => ({
  title: t("requests.revise_title"),
  fields: REQUEST_FIELDS,
  labels: "revise.fields",
  api: "/api/dropship_request",
  listUrl: "/dropship/requests/",
  summary: (record) => <RequestReviseSummary record={record} />,
  texts: { loadError: t("requests.form_load_error"), saved: t("requests.saved"), saveError: t("requests.save_error") },
  extra: (record) => <RequestVendorSide record={record} />,
  actions: (record) => sendElsewhereActions(t, record),
}));
