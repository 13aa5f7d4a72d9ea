// POST /api/eod_report_export → { error, message, detail, batch }: Export to AS400
// (spec 001 §2, §8; the spec names no path for it, so it follows its siblings):
// the rows waiting go into a new batch file, stored, then uploaded. GET is a 405 (D54).
import { eodActionAnswer } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/lib/route.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(({ url, t }) => eodActionAnswer("export", url, t)));
