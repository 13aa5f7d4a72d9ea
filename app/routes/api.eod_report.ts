// GET /api/eod_report: list params → { data: { data, last_page, total, … }, columns } (spec 001 §7).
import { gridApiRoute } from "~/http/grid-route.server";
import { listEodReport, eodReportGrid } from "~/eod/grids.server";

export const loader = gridApiRoute(eodReportGrid, ({ url }) => listEodReport(url.searchParams));
