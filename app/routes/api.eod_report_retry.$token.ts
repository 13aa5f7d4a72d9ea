// POST /api/eod_report_retry/{token}: the same retry for a caller without a
// staff session, allowed only with the configured EOD_API_TOKEN (D32; POST: D54).
import { eodTokenRoute } from "~/eod/actions.server";
import { EOD_TOKEN_CALLER, recordedAs } from "~/http/activity.server";
import { onlyPost, postRoute } from "~/http/route.server";

export const loader = onlyPost();
// Recorded as the token's caller's action (D255); the token itself is never kept.
export const action = postRoute(recordedAs(EOD_TOKEN_CALLER, { action: "eod.retry", detail: ["sales_date", "days"] }, eodTokenRoute("retry")));
