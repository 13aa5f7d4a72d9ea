// GET /api/eod_report: list params → { data: { data, last_page, total, … }, columns } (spec 001 §7).
import { listEodReport } from "~/eod/grids.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ url }) => listEodReport(url.searchParams));
