// GET /api/eod_report_export_csv (spec 001 §7, a browser navigation): the rows
// the report's filters and sort select, as a streamed CSV download (D33), in
// the reader's language (D136).
import { eodReportCsv } from "~/eod/csv.server";
import { csvResponse } from "~/grid/csv.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(async ({ url, t }) => csvResponse(await eodReportCsv(url.searchParams), t));
