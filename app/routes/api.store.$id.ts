// GET /api/store/{id}: the store, its Shopify location and its default source code.
// POST /api/store/{id} with _method PUT: source_code → { error, message, data };
// 422 per field (required, format, taken, or the old code already used).
import { apiRoute } from "~/http/route.server";
import { intendedMethod, readBody } from "~/lib/validation.server";
import { getStoreForm, updateStore } from "~/sales/stores.server";

const storeId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params }) => getStoreForm(storeId(params)));

export const action = apiRoute(async ({ request, params, t }) => {
  const body = await readBody(request);
  const method = intendedMethod(request, body);
  if (method !== "PUT" && method !== "PATCH") {
    return Response.json({ error: true, message: "Use POST with _method PUT to change a store" }, { status: 405 });
  }
  return updateStore(storeId(params), body, t);
});
