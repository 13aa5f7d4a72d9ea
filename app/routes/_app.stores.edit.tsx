// Edit a store: /stores/edit?id= (the Edit link of /stores). Only the AS400
// source code is editable; name and location are Shopify's (D49, D50).
import { reviseRecordScreen } from "~/forms/ReviseRecordPage";
import { recordLoader } from "~/http/record-loader.server";
import { STORES_PATH } from "~/sales/store-paths";
import { getStoreForm } from "~/sales/stores.server";

export const loader = recordLoader(getStoreForm);

export default reviseRecordScreen((t) => ({
  title: t("stores.edit.title"),
  fields: [
    { name: "name", readOnly: true },
    { name: "shopify_location_id", readOnly: true },
    { name: "default_source_code", readOnly: true },
    { name: "source_code", required: true },
  ],
  labels: "stores.fields",
  api: "/api/store",
  listUrl: STORES_PATH,
  texts: { loadError: t("stores.edit.load_error"), saved: t("stores.edit.saved"), saveError: t("stores.edit.save_error") },
}));
