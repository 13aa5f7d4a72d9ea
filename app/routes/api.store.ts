// GET /api/store: list params → the generic grid answer of the Stores screen (D48–D50).
import { gridApiRoute } from "~/http/grid-route.server";
import { listStores, storeGrid } from "~/sales/stores.server";

export const loader = gridApiRoute(storeGrid, ({ url }) => listStores(url.searchParams));
