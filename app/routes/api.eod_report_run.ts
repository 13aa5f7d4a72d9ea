// POST /api/eod_report_run[?sales_date=YYYY-MM-DD&days=N] → { error, message, detail, result }
// (spec 001 §7's path; POST, not its GET: D54): builds the report rows of the
// day and the day before again (D31).
import { parseEodRequest } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { eodRun } from "~/eod/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();
// In the background (D93): 202 with the run at once, 409 while an EOD action runs; GET /api/run/{id} ends with the answer.
export const action = postRoute(
  apiRoute(
    async ({ request, url, t }) => {
      parseEodRequest("run", url); // bad sales_date or days: a 422 at once
      return startRunAnswer(eodRun("run", url), request, t);
    },
    { action: "eod.run", detail: ["sales_date", "days"] },
  ),
);
