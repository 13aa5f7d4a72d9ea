// Edit a store: /stores/edit?id= (the Edit link of /stores). Only the AS400
// source code is editable; name and location are Shopify's (D49, D50).
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReviseRecordPage, type RecordField } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";
import { STORES_PATH } from "~/sales/store-paths";
import { getStoreForm } from "~/sales/stores.server";

const FIELDS: RecordField[] = [
  { name: "name", readOnly: true },
  { name: "shopify_location_id", readOnly: true },
  { name: "default_source_code", readOnly: true },
  { name: "source_code", required: true },
];

export const loader = recordLoader(getStoreForm);

export default function EditStore() {
  const { t } = useTranslation();
  const { id, record } = useLoaderData<typeof loader>();
  return (
    <ReviseRecordPage
      title={t("stores.edit.title")}
      record={
        record
          ? {
              name: record.name,
              shopify_location_id: record.shopify_location_id,
              default_source_code: record.default_source_code,
              source_code: record.source_code,
            }
          : null
      }
      fields={FIELDS}
      labels="stores.fields"
      saveUrl={`/api/store/${id}`}
      listUrl={STORES_PATH}
      texts={{ loadError: t("stores.edit.load_error"), saved: t("stores.edit.saved"), saveError: t("stores.edit.save_error") }}
    />
  );
}
