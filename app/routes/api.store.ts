// GET /api/store: list params → the generic grid answer of the Stores screen (D48–D50).
import { apiRoute } from "~/http/route.server";
import { listStores } from "~/sales/stores.server";

export const loader = apiRoute(({ url }) => listStores(url.searchParams));
