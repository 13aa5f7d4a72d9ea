// POST /api/eod_report_retry → { error, message, detail, batch } (spec 001 §7's
// path; POST, not its GET: D54): sends the newest failed or unsent batch to the
// AS400 again, the same file.
import { parseEodRequest } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { eodRun } from "~/eod/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();
// In the background (D93): 202 with the run at once, 409 while an EOD action runs; GET /api/run/{id} ends with the answer.
export const action = postRoute(
  apiRoute(
    async ({ request, url, t }) => {
      parseEodRequest("retry", url); // bad sales_date or days: a 422 at once
      return startRunAnswer(eodRun("retry", url), request, t);
    },
    { action: "eod.retry", detail: ["sales_date", "days"] },
  ),
);
