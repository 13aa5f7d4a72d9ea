// GET /api/eod_report_retry/{token}: the same retry for a caller without a
// staff session, allowed only with the configured EOD_API_TOKEN (D32).
import { eodTokenRoute } from "~/eod/actions.server";

export const loader = eodTokenRoute("retry");
