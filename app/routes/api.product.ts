// GET /api/product: page, sort, sort_dir, queryValue, one parameter per filterable
// column → the generic grid answer (spec 001 §7). Default sort sku asc.
import { apiRoute } from "~/http/route.server";
import { listProducts } from "~/products/products.server";

export const loader = apiRoute(({ url }) => listProducts(url.searchParams));
