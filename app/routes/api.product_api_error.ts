// GET /api/product_api_error: list params → the generic grid answer (spec 001 §7). Default sort created_at desc.
import { productApiErrorGrid } from "~/products/grids.server";
import { gridApiRoute } from "~/http/grid-route.server";
import { listProductApiErrors } from "~/products/products.server";

export const loader = gridApiRoute(productApiErrorGrid, ({ url }) => listProductApiErrors(url.searchParams));
