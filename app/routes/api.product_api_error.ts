// GET /api/product_api_error: list params → the generic grid answer (spec 001 §7). Default sort created_at desc.
import { apiRoute } from "~/http/route.server";
import { listProductApiErrors } from "~/products/products.server";

export const loader = apiRoute(({ url }) => listProductApiErrors(url.searchParams));
