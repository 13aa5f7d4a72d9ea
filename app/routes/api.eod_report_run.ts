// POST /api/eod_report_run[?sales_date=YYYY-MM-DD&days=N] → { error, message, detail, result }
// (spec 001 §7's path; POST, not its GET: D54): builds the report rows of the
// day and the day before again (D31).
import { eodActionAnswer } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/lib/route.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(({ url, t }) => eodActionAnswer("run", url, t)));
