// EOD Report (spec 001 §2): the report rows over the generic grid (sales_date
// asc, 'No entries found'), and the buttons Past Batches, Retry Previous,
// Export CSV, Export to AS400 and Run Report (primary). Run, Retry and Export
// run in the background (D93): the page follows the run and ends with
// { error, message, detail }: the banner shows the message (the spec's text,
// §8) over the detail. After a successful run the screen goes to /eod/report/
// after 1 s (spec 001 §4).
import { useLoaderData, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { currentSearch } from "~/grid/list-url";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useConfirmSend } from "~/components/ConfirmSend";
import { eodReportGrid } from "~/eod/grids.server";
import { ErrorBanner } from "~/forms/FormBanner";
import { REDIRECT_AFTER_SUCCESS_MS } from "~/forms/submit-result";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { downloadFile } from "~/lib/download";
import { useAppSettings } from "~/components/app-settings";
import { dayIn } from "~/lib/app-time";
import { withLocale } from "~/lib/format";
import { renderEodCell } from "~/eod/cells";
import { pageLoader } from "~/http/route.server";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";

export const loader = pageLoader(async (context) => {
  const [grid, run] = await Promise.all([gridScreenData(eodReportGrid, context.url.searchParams, context.t), pageRun("eod", context)]);
  return { grid, run };
});
export const shouldRevalidate = gridShouldRevalidate;

type EodAction = "run" | "retry" | "export";
const ENDPOINTS: Record<EodAction, string> = { run: "/api/eod_report_run", retry: "/api/eod_report_retry", export: "/api/eod_report_export" };
// List parameters that are not filters of the CSV.
const NOT_FOR_CSV = ["page", "per_page"];

export default function EodReport() {
  const { t } = useTranslation();
  const { timeZone } = useAppSettings();
  const loaded = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [reloadToken, setReloadToken] = useState(0);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  const texts = useMemo(() => ({ error: t("eod.banners.run_error") }), [t]);
  const eod = useBackgroundRun(loaded.run, texts, {
    onEnded: (run) => {
      // An export or retry changes the rows' export status, a run their figures.
      setReloadToken((token) => token + 1);
      if (!run.error && run.action === "run") {
        // The grid reloaded above; the navigation loads it again from the URL it goes to.
        redirectTimer.current = setTimeout(() => navigate(withLocale("/eod/report/", location.search)), REDIRECT_AFTER_SUCCESS_MS);
      }
    },
  });
  const running = eod.running ? ((eod.run?.action as EodAction | undefined) ?? null) : null;

  const act = (action: EodAction) => {
    void eod.start({ url: ENDPOINTS[action], errorText: t(`eod.banners.${action}_error`) });
  };
  // Export and retry send a file to the AS400: asked first.
  const confirmSend = useConfirmSend();
  const askThenAct = (action: "retry" | "export", label: string) =>
    confirmSend.ask({ title: t(`confirm.eod_${action}.title`), body: t(`confirm.eod_${action}.body`), action: label }, () => act(action));

  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  // The report's filters; "today": today's Sales Date alone (the app's time zone), the other filters as shown.
  const exportCsv = async (day?: string) => {
    const query = currentSearch(searchParams);
    for (const key of NOT_FOR_CSV) query.delete(key);
    if (day) {
      for (const key of ["sales_date", "sales_date_from", "sales_date_to"]) query.delete(key);
      query.set("sales_date", `${day}..${day}`);
    }
    setDownloading(true);
    setDownloadFailed(false);
    // Through fetch, not a navigation: inside the admin only fetch carries the session token.
    await downloadFile(`/api/eod_report_export_csv?${query.toString()}`, "eod_report.csv").catch(() => setDownloadFailed(true));
    setDownloading(false);
  };

  return (
    <GridScreen
      data={loaded.grid}
      title={t("eod.report_title")}
      primaryAction={{ content: t("eod.buttons.run"), onAction: () => act("run"), loading: running === "run", disabled: eod.running }}
      secondaryActions={[
        { content: t("eod.buttons.past_batches"), url: "/eod/batch" },
        { content: t("eod.buttons.retry"), onAction: () => askThenAct("retry", t("eod.buttons.retry")), loading: running === "retry", disabled: eod.running },
        { content: t("eod.buttons.export_csv"), onAction: () => void exportCsv(), loading: downloading },
        { content: t("eod.buttons.export_today_csv"), onAction: () => void exportCsv(dayIn(timeZone)), loading: downloading },
        {
          content: t("eod.buttons.export_as400"),
          onAction: () => askThenAct("export", t("eod.buttons.export_as400")),
          loading: running === "export",
          disabled: eod.running,
        },
      ]}
      resourceName={{ singular: t("eod.row_singular"), plural: t("eod.row_plural") }}
      loadErrorText={t("eod.banners.load_error")}
      emptyState={{ heading: t("eod.empty_report") }}
      renderCell={renderEodCell}
      // Its own Export CSV above (the report's filters, Sales Date among them).
      csvExport={false}
      reloadKey={reloadToken}
    >
      {confirmSend.modal}
      <ErrorBanner text={downloadFailed && t("eod.banners.csv_error")} onDismiss={() => setDownloadFailed(false)} />
      <BackgroundRun state={eod} label={(run) => t(`eod.buttons.${run.action === "export" ? "export_as400" : run.action}`)} />
    </GridScreen>
  );
}
