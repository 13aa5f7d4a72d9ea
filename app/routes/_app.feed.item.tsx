// Feed Logs (spec 001 §2): /feed/item[?feed_name=&page=]. Titled 'Feed Logs',
// or 'Feed Logs for {name}' while a feed name filters the list; Back to the
// summary, and View Logs For All Feeds while filtered.
import { useLoaderData, useLocation } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import { useListSearch } from "~/grid/list-url";
import { useTranslation } from "react-i18next";
import { feedLogGrid, feedLogGridAnswer } from "~/feeds/feeds.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { withLocale } from "~/lib/format";
import type { GridColumn, GridRow } from "~/grid/types";

export const loader = pageLoader(({ url, t }) => gridScreenData(feedLogGrid, url.searchParams, t, { load: feedLogGridAnswer, answerShape: "flat" }));
export const shouldRevalidate = gridShouldRevalidate;

/** Meta: the run's words in the reader's language first, its JSON text below as the detail (D267). */
function renderFeedLogCell(column: GridColumn, row: GridRow) {
  if (column.key !== "meta") return undefined;
  const words = typeof row.meta_text === "string" && row.meta_text ? row.meta_text : null;
  const json = typeof row.meta === "string" ? row.meta : "";
  if (!words) return <>{json}</>;
  return (
    <BlockStack gap="050">
      <Text as="span" fontWeight="medium">
        {words}
      </Text>
      <Text as="span" tone="subdued" variant="bodySm">
        {json}
      </Text>
    </BlockStack>
  );
}

export default function FeedLogs() {
  const { t } = useTranslation();
  const location = useLocation();
  // The grid's filters as the address bar has them (the grid writes them there, not through the router).
  const searchParams = useListSearch();
  const feedName = searchParams.get("feed_name")?.trim() ?? "";
  const filtered = Boolean(feedName || searchParams.get("type")?.trim());
  return (
    <GridScreen
      data={useLoaderData<typeof loader>()}
      title={feedName ? t("feeds.logs_title_for", { name: feedName }) : t("feeds.logs_title")}
      back={withLocale("/feed", location.search)}
      primaryAction={filtered ? { content: t("feeds.view_logs_all"), url: withLocale("/feed/item", location.search) } : undefined}
      resourceName={{ singular: t("feeds.log_resource.singular"), plural: t("feeds.log_resource.plural") }}
      loadErrorText={t("feeds.logs_load_error")}
      emptyState={{ heading: t("feeds.logs_empty") }}
      renderCell={renderFeedLogCell}
    />
  );
}
