// Revise Drop Shipping Response (spec 000 §2, route decided in design.md): /dropship/responses/revise?id=
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getResponseForm } from "~/dropship/revisions.server";
import { ReviseRecordPage, type RecordField } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";

const FIELDS: RecordField[] = [
  { name: "vendor_name", readOnly: true },
  { name: "assignment_id", readOnly: true },
  { name: "po_number", readOnly: true },
  { name: "order_increment_id", readOnly: true },
  { name: "item_sku", required: true },
  { name: "qty", required: true, type: "number" },
  { name: "tracking_number", required: true },
  { name: "tracking_carrier", required: true },
];

export const loader = recordLoader(getResponseForm);

export default function ReviseResponse() {
  const { t } = useTranslation();
  const { id, record } = useLoaderData<typeof loader>();
  return (
    <ReviseRecordPage
      title={t("responses.revise_title")}
      record={record}
      fields={FIELDS}
      labels="revise.fields"
      saveUrl={`/api/dropship_response/${id}`}
      listUrl="/dropship/responses/"
      texts={{ loadError: t("responses.form_load_error"), saved: t("responses.saved"), saveError: t("responses.save_error") }}
    />
  );
}
