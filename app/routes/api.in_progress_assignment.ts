// GET /api/in_progress_assignment: list params → data (data, last_page, total), columns (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { listInProgress } from "~/sales/grids.server";

export const loader = apiRoute(({ url }) => listInProgress(url.searchParams));
