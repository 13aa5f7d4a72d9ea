// Realtime Shipping Logs (spec 001 §2): the generic grid over GET /api/realtime_shipping_log.
import { useLoaderData } from "@remix-run/react";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { RealtimeLogPage } from "~/sales/RealtimeLogPage";
import { listRealtimeShippingLogs } from "~/sales/realtime-logs.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listRealtimeShippingLogs, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function RealtimeShippingLog() {
  return <RealtimeLogPage kind="shipping" initial={useLoaderData<typeof loader>()} />;
}
