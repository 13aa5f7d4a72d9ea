// Realtime Sales/Refund Logs (spec 001 §2): the generic grid over GET /api/realtime_sales_log.
import { useLoaderData } from "@remix-run/react";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { RealtimeLogPage } from "~/sales/RealtimeLogPage";
import { listRealtimeSalesLogs } from "~/sales/realtime-logs.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listRealtimeSalesLogs, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function RealtimeSalesLog() {
  return <RealtimeLogPage kind="sales" initial={useLoaderData<typeof loader>()} />;
}
