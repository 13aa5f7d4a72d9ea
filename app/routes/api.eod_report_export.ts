// POST /api/eod_report_export → { error, message, detail, batch }: Export to AS400
// (spec 001 §2, §8; the spec names no path for it, so it follows its siblings):
// the rows waiting go into a new batch file, stored, then uploaded. GET is a 405 (D54).
import { parseEodRequest } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { eodRun } from "~/eod/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();
// In the background (D93): 202 with the run at once, 409 while an EOD action runs; GET /api/run/{id} ends with the answer.
export const action = postRoute(
  apiRoute(
    async ({ request, url, t }) => {
      parseEodRequest("export", url); // bad sales_date or days: a 422 at once
      return startRunAnswer(eodRun("export", url), request, t);
    },
    { action: "eod.export", detail: ["sales_date", "days"] },
  ),
);
