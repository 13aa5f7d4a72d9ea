// Revise Drop Shipping request (spec 000 §2, route decided in design.md): /dropship/requests/revise?id=
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getRequestForm } from "~/dropship/revisions.server";
import { ReviseRecordPage, type RecordField } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";

const FIELDS: RecordField[] = [
  { name: "vendor_name", readOnly: true },
  { name: "assignment_id", readOnly: true },
  { name: "po_number", readOnly: true },
  { name: "order_increment_id", readOnly: true },
  { name: "item_sku", required: true },
  { name: "qty", required: true, type: "number" },
  { name: "ship_name_first", required: true },
  { name: "ship_name_last", required: true },
  { name: "ship_address", required: true, lines: 4 },
  { name: "ship_city", required: true },
  { name: "ship_state", required: true },
  { name: "ship_zip", required: true },
  { name: "country_id", required: true },
];

export const loader = recordLoader(getRequestForm);

export default function ReviseRequest() {
  const { t } = useTranslation();
  const { id, record } = useLoaderData<typeof loader>();
  return (
    <ReviseRecordPage
      title={t("requests.revise_title")}
      record={record}
      fields={FIELDS}
      labels="revise.fields"
      saveUrl={`/api/dropship_request/${id}`}
      listUrl="/dropship/requests/"
      texts={{ loadError: t("requests.form_load_error"), saved: t("requests.saved"), saveError: t("requests.save_error") }}
    />
  );
}
