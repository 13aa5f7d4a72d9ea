// GET /api/eod_batch: list params → { data: { data, last_page, total, … }, columns } (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listEodBatches, eodBatchGrid } from "~/eod/grids.server";

export const loader = gridApiRoute(eodBatchGrid, ({ url }) => listEodBatches(url.searchParams));
