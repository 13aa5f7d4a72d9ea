// GET /api/store/{id}: the store, its Shopify location and its default source code.
// POST /api/store/{id} with _method PUT: source_code → { error, message, data };
// 422 per field (required, format, taken, or the old code already used).
import { apiRoute } from "~/http/route.server";
import { intendedMethod, parseInput, readBody } from "~/lib/validation.server";
import { findStore, getStoreForm, storeForm, updateStore } from "~/sales/stores.server";

const storeId = (params: Record<string, string | undefined>) => Number(params.id);

export const loader = apiRoute(({ params }) => getStoreForm(storeId(params)));

export const action = apiRoute(async ({ request, params }) => {
  const body = await readBody(request);
  const method = intendedMethod(request, body);
  if (method !== "PUT" && method !== "PATCH") {
    return Response.json({ error: true, message: "Use POST with _method PUT to change a store" }, { status: 405 });
  }
  await findStore(storeId(params)); // an unknown store is a 404 before its form is read
  return updateStore(storeId(params), parseInput(storeForm, body));
});
