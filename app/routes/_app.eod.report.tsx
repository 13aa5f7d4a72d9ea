// EOD Report (spec 001 §2): the report rows over the generic grid (sales_date
// asc, 'No entries found'), and the buttons Past Batches, Retry Previous,
// Export CSV, Export to AS400 and Run Report (primary). Each action answers
// { error, message, detail }: the banner shows the message (the spec's text,
// §8) over the detail. After a successful run the screen goes to /eod/report/
// after 1 s (spec 001 §4).
import { useLoaderData, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { Banner, BlockStack, Page, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { listEodReport } from "~/eod/grids.server";
import { readSubmitResult, REDIRECT_AFTER_SUCCESS_MS, type SubmitOutcome } from "~/forms/submit-result";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { downloadFile } from "~/lib/download";
import { withLocale } from "~/lib/format";
import { renderEodCell } from "~/eod/cells";
import { pageLoader } from "~/lib/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData((params) => listEodReport(params, t), url.searchParams));
export const shouldRevalidate = gridShouldRevalidate;

type EodAction = "run" | "retry" | "export";
const ENDPOINTS: Record<EodAction, string> = { run: "/api/eod_report_run", retry: "/api/eod_report_retry", export: "/api/eod_report_export" };
// List parameters that are not filters of the CSV.
const NOT_FOR_CSV = ["page", "per_page"];

export default function EodReport() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [running, setRunning] = useState<EodAction | null>(null);
  const [outcome, setOutcome] = useState<SubmitOutcome | null>(null);
  const [reloadToken, setReloadToken] = useState(0);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const act = async (action: EodAction) => {
    setRunning(action);
    setOutcome(null);
    const texts = { success: t(`eod.banners.${action}_success`), error: t(`eod.banners.${action}_error`) };
    const locale = new URLSearchParams(location.search).get("locale");
    let result: SubmitOutcome;
    try {
      const response = await fetch(`${ENDPOINTS[action]}${locale ? `?locale=${encodeURIComponent(locale)}` : ""}`, { method: "POST", headers: { accept: "application/json" } });
      result = readSubmitResult(response.status, await response.text(), texts);
    } catch {
      result = readSubmitResult(0, "", texts);
    }
    setOutcome(result);
    setRunning(null);
    // An export or retry changes the rows' export status, a run their figures.
    setReloadToken((token) => token + 1);
    if (result.ok && action === "run") {
      // The grid reloaded above; the navigation loads it again from the URL it goes to.
      redirectTimer.current = setTimeout(() => navigate(withLocale("/eod/report/", location.search)), REDIRECT_AFTER_SUCCESS_MS);
    }
  };

  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const exportCsv = async () => {
    const query = new URLSearchParams(searchParams);
    for (const key of NOT_FOR_CSV) query.delete(key);
    setDownloading(true);
    setDownloadFailed(false);
    // Through fetch, not a navigation: inside the admin only fetch carries the session token.
    await downloadFile(`/api/eod_report_export_csv?${query.toString()}`, "eod_report.csv").catch(() => setDownloadFailed(true));
    setDownloading(false);
  };

  const detail = (outcome?.body as { detail?: unknown } | null)?.detail;
  return (
    <Page
      fullWidth
      title={t("eod.report_title")}
      primaryAction={{ content: t("eod.buttons.run"), onAction: () => void act("run"), loading: running === "run", disabled: Boolean(running) }}
      secondaryActions={[
        { content: t("eod.buttons.past_batches"), url: "/eod/batch" },
        { content: t("eod.buttons.retry"), onAction: () => void act("retry"), loading: running === "retry", disabled: Boolean(running) },
        { content: t("eod.buttons.export_csv"), onAction: () => void exportCsv(), loading: downloading },
        { content: t("eod.buttons.export_as400"), onAction: () => void act("export"), loading: running === "export", disabled: Boolean(running) },
      ]}
    >
      <BlockStack gap="400">
        {downloadFailed && (
          <Banner tone="critical" onDismiss={() => setDownloadFailed(false)}>
            <p>{t("eod.banners.csv_error")}</p>
          </Banner>
        )}
        {outcome && (
          <Banner tone={outcome.tone} title={outcome.title} onDismiss={() => setOutcome(null)}>
            {typeof detail === "string" && detail !== "" && <Text as="p">{detail}</Text>}
            {outcome.messages.length > 0 && (
              <ul>
                {outcome.messages.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </Banner>
        )}
        <DataGrid
          endpoint="/api/eod_report"
          initial={initial}
          defaultSort={{ key: "sales_date", dir: "asc" }}
          rowKey="id"
          resourceName={{ singular: t("eod.row_singular"), plural: t("eod.row_plural") }}
          loadErrorText={t("eod.banners.load_error")}
          emptyState={{ heading: t("eod.empty_report") }}
          renderCell={renderEodCell}
          reloadKey={reloadToken}
        />
      </BlockStack>
    </Page>
  );
}
