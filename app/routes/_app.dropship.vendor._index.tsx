// Dropship Vendors (spec 000 §2): the generic grid over GET /api/dropship_vendor.
// After a save that changed a vendor's connection (?connection_test=<run id>), the
// list follows that connection's test and says how it ended (D280).
import { useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { vendorGrid } from "~/dropship/vendors.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";
import { localeFromUrl } from "~/i18n/config";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { readRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";

const RUN_ID = /^[1-9]\d{0,9}$/;

export const loader = pageLoader(async ({ url, t }) => {
  const runId = url.searchParams.get("connection_test") ?? "";
  const [grid, run] = await Promise.all([
    gridScreenData(vendorGrid, url.searchParams, t, { answerShape: "flat" }),
    RUN_ID.test(runId) ? readRun(Number(runId), t, localeFromUrl(url)) : null,
  ]);
  return { grid, connectionTest: run?.kind === "dropship_vendor_test" ? run : null };
});
export const shouldRevalidate = gridShouldRevalidate;

export default function Vendors() {
  const { t } = useTranslation();
  const { grid, connectionTest } = useLoaderData<typeof loader>();
  const test = useBackgroundRun(
    connectionTest,
    useMemo(() => ({ error: t("vendor.test_connection.failed") }), [t]),
  );
  return (
    <GridScreen
      data={grid}
      title={t("vendor.title")}
      back="/dropship"
      primaryAction={{ content: t("vendor.new"), url: "/dropship/vendor/edit" }}
      resourceName={resourceNames(t, "vendor")}
      emptyState={useMemo(() => ({ heading: t("vendor.empty") }), [t])}
    >
      {connectionTest && <BackgroundRun state={test} label={() => t("vendor.test_connection.button")} />}
    </GridScreen>
  );
}
