// GET /api/product_api_operation: list params → the generic grid answer (spec 001 §7). Default sort created_at desc.
import { productApiOperationGrid } from "~/products/grids.server";
import { gridApiRoute } from "~/http/grid-route.server";
import { listProductApiOperations } from "~/products/products.server";

export const loader = gridApiRoute(productApiOperationGrid, ({ url }) => listProductApiOperations(url.searchParams));
