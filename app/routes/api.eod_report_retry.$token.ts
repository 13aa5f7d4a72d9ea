// POST /api/eod_report_retry/{token}: the same retry for a caller without a
// staff session, allowed only with the configured EOD_API_TOKEN (D32; POST: D54).
import { eodTokenRoute } from "~/eod/actions.server";
import { onlyPost, postRoute } from "~/http/route.server";

export const loader = onlyPost();
export const action = postRoute(eodTokenRoute("retry"));
