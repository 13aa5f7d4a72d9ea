// Feed Summary (spec 001 §2): every feed with its schedule and last runs, View
// Logs and Run Feed per row, View All Logs. Run Feed calls POST /api/feed_run,
// which starts the run in the background (D93); the page follows it (progress,
// counts) and ends with the spec's banner (the run's own message under it); the
// grid is then read again so the Last * columns show the run. A feed's cron is edited
// from its Cron Expression cell (/feed/edit, docs/decisions.md D29).
import { useLoaderData, useLocation } from "@remix-run/react";
import { BlockStack, Button, InlineStack, Link, Text } from "@shopify/polaris";
import { useEffect, useMemo, useRef, useState } from "react";
import { BulkSummary, useBulkActions } from "~/bulk/BulkActions";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { feedGrid } from "~/feeds/feeds.server";
import { gridShouldRevalidate, type GridPageData } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import type { GridAnswer, GridRow } from "~/grid/types";
import { cronInWords } from "~/lib/cron-words";
import { dayIn } from "~/lib/app-time";
import { withLocale } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";

export const loader = pageLoader(async (context) => {
  const [grid, run] = await Promise.all([gridScreenData(feedGrid, context.url.searchParams, context.t, { answerShape: "flat" }), pageRun("feed", context)]);
  return { grid, run };
});
export const shouldRevalidate = gridShouldRevalidate;

/** Feed Logs of the failed runs of `day` (the app's time zone), the date range filter's form (D266). */
const failedTodayUrl = (day: string) => `/feed/item?${new URLSearchParams({ type: "failed", created_at: `${day}..${day}` }).toString()}`;

type FlatAnswer = Omit<GridAnswer["data"], "data"> & { data: GridRow[]; columns: GridAnswer["columns"] };

export default function FeedSummary() {
  const { t } = useTranslation();
  const { locale, timeZone } = useAppSettings();
  const location = useLocation();
  const loaded = useLoaderData<typeof loader>();
  const [grid, setGrid] = useState<{ key: number; initial: GridPageData }>({ key: 0, initial: loaded.grid });
  const texts = useMemo(() => ({ error: t("feeds.run.error", { feed: "" }) }), [t]);
  const feedRun = useBackgroundRun(loaded.run, texts);
  const running = feedRun.running ? (feedRun.run?.action ?? null) : null;

  const refresh = async () => {
    const search = new URLSearchParams(window.location.search);
    const response = await fetch(`/api/feed?${search.toString()}`, { headers: { accept: "application/json" } });
    if (!response.ok) return;
    const { data, columns, ...page } = (await response.json()) as FlatAnswer;
    setGrid((current) => ({ key: current.key + 1, initial: { answer: { data: { ...page, data }, columns }, failed: false } }));
  };

  const runFeed = (name: string) => {
    const query = new URLSearchParams({ feed_name: name });
    void feedRun.start({ url: `/api/feed_run?${query.toString()}`, errorText: t("feeds.run.error", { feed: name }) });
  };

  // Run for the rows selected: each feed starts in the background as Run Feed starts it; Run Feed asks
  // nothing first, so neither does this (D272). The grid is read again for the Last Started At column.
  const bulk = useBulkActions<"run">("/api/feed/bulk", () => void refresh().catch(() => {}));
  const bulkRun = bulk.run;
  const bulkActions = useMemo(() => [{ content: t("feeds.run_feed"), onAction: (ids: string[]) => void bulkRun({}, { action: "run", ids }) }], [t, bulkRun]);

  // A run that ends while the page looks: the Last * columns show it.
  const ended = feedRun.run?.status !== "running" ? feedRun.run?.id : undefined;
  const lastRefreshed = useRef(ended);
  useEffect(() => {
    if (ended === undefined || ended === lastRefreshed.current) return;
    lastRefreshed.current = ended;
    void refresh().catch(() => {});
  }, [ended]);

  return (
    <GridScreen
      data={{ ...loaded.grid, ...grid.initial }}
      gridKey={grid.key}
      title={t("feeds.summary_title")}
      primaryAction={{ content: t("feeds.view_all_logs"), url: withLocale("/feed/item", location.search) }}
      // Today's failures with their reasons, one click away (issue 32's "which feeds failed today, and why").
      secondaryActions={[{ content: t("feeds.failed_today"), url: withLocale(failedTodayUrl(dayIn(timeZone)), location.search) }]}
      resourceName={{ singular: t("feeds.resource.singular"), plural: t("feeds.resource.plural") }}
      loadErrorText={t("feeds.load_error")}
      emptyState={{ heading: t("feeds.empty") }}
      bulkActions={bulkActions}
      renderCell={(column, row) => {
        const name = String(row.name);
        if (column.key === "cron_expression") {
          const words = cronInWords(String(row.cron_expression), locale);
          return (
            <BlockStack gap="050">
              <InlineStack gap="100" wrap={false}>
                <Link
                  url={withLocale(`/feed/edit?id=${row.id}`, location.search)}
                  accessibilityLabel={t("a11y.cron_link_label", { cron: String(row.cron_expression), feed: name })}
                >
                  {String(row.cron_expression)}
                </Link>
                {row.enabled === 0 && (
                  <Text as="span" tone="subdued">
                    ({t("feeds.disabled")})
                  </Text>
                )}
              </InlineStack>
              {/* The schedule in words, in the staff member's language (issue 18 item 3). */}
              {words && (
                <Text as="span" variant="bodySm" tone="subdued">
                  {words}
                </Text>
              )}
            </BlockStack>
          );
        }
        if (column.key !== "actions") return undefined;
        return (
          <InlineStack gap="200" wrap={false} blockAlign="center">
            <Link url={withLocale(`/feed/item?feed_name=${encodeURIComponent(name)}`, location.search)}>{t("feeds.view_logs")}</Link>
            <Button
              size="slim"
              loading={running === name}
              disabled={feedRun.running}
              accessibilityLabel={t("a11y.run_feed_label", { feed: name })}
              onClick={() => void runFeed(name)}
            >
              {t("feeds.run_feed")}
            </Button>
          </InlineStack>
        );
      }}
    >
      <BulkSummary answer={bulk.answer} outcome={bulk.outcome} onDismiss={bulk.dismiss} />
      <BackgroundRun state={feedRun} label={(run) => `${t("feeds.run_feed")}: ${run.action}`} />
    </GridScreen>
  );
}
