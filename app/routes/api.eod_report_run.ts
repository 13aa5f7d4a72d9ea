// GET /api/eod_report_run[?sales_date=YYYY-MM-DD&days=N] → { error, message, detail, result }
// (spec 001 §7): builds the report rows of the day and the day before again (D31).
import { eodActionAnswer } from "~/eod/actions.server";
import { apiRoute } from "~/lib/route.server";

export const loader = apiRoute(({ url, t }) => eodActionAnswer("run", url, t));
