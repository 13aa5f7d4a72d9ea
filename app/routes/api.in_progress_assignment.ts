// GET /api/in_progress_assignment: list params → data (data, last_page, total), columns (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listInProgress, inProgressGrid } from "~/sales/grids.server";

export const loader = gridApiRoute(inProgressGrid, ({ url }) => listInProgress(url.searchParams));
