// POST /api/eod_report_retry → { error, message, detail, batch } (spec 001 §7's
// path; POST, not its GET: D54): sends the newest failed or unsent batch to the
// AS400 again, the same file.
import { eodActionAnswer } from "~/eod/actions.server";
import { apiRoute, onlyPost, postRoute } from "~/lib/route.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(({ url, t }) => eodActionAnswer("retry", url, t)));
