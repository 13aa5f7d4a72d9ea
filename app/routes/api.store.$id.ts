// GET /api/store/{id}: the store, its Shopify location and its default source code.
// POST /api/store/{id} with _method PUT: source_code → { error, message, data };
// 422 per field (required, format, taken, or the old code already used).
import { recordAction } from "~/http/record-loader.server";
import { apiRoute } from "~/http/route.server";
import { findStore, getStoreForm, storeForm, updateStore } from "~/sales/stores.server";

export const loader = apiRoute(({ params }) => getStoreForm(Number(params.id)));
export const action = recordAction({
  find: findStore,
  schema: storeForm,
  save: (store, input) => updateStore(store.id, input),
  wrongMethod: "Use POST with _method PUT to change a store",
  activity: { action: "store.save", record: "store", detail: ["source_code"] },
});
