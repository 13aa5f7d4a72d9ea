// GET /api/product: page, sort, sort_dir, queryValue, one parameter per filterable
// column → the generic grid answer (spec 001 §7). Default sort sku asc.
import { productGrid } from "~/products/grids.server";
import { gridApiRoute } from "~/http/grid-route.server";
import { listProducts } from "~/products/products.server";

export const loader = gridApiRoute(productGrid, ({ url }) => listProducts(url.searchParams));
