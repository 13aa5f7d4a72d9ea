// GET /api/product_api_operation: list params → the generic grid answer (spec 001 §7). Default sort created_at desc.
import { apiRoute } from "~/http/route.server";
import { listProductApiOperations } from "~/products/products.server";

export const loader = apiRoute(({ url }) => listProductApiOperations(url.searchParams));
