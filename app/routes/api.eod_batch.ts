// GET /api/eod_batch: list params → { data: { data, last_page, total, … }, columns } (spec 001 §7).
import { listEodBatches } from "~/eod/grids.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listEodBatches(url.searchParams));
