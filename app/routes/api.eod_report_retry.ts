// GET /api/eod_report_retry → { error, message, detail, batch } (spec 001 §7):
// sends the newest failed or unsent batch to the AS400 again, the same file.
import { eodActionAnswer } from "~/eod/actions.server";
import { apiRoute } from "~/lib/route.server";

export const loader = apiRoute(({ url, t }) => eodActionAnswer("retry", url, t));
