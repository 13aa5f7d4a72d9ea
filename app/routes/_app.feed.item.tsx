// Feed Logs (spec 001 §2): /feed/item[?feed_name=&page=]. Titled 'Feed Logs',
// or 'Feed Logs for {name}' while a feed name filters the list; Back to the
// summary, and View Logs For All Feeds while filtered.
import { useLoaderData, useLocation, useSearchParams } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { feedLogGridAnswer } from "~/feeds/feeds.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { withLocale } from "~/lib/format";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(feedLogGridAnswer, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function FeedLogs() {
  const { t } = useTranslation();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const feedName = searchParams.get("feed_name")?.trim() ?? "";
  const filtered = Boolean(feedName || searchParams.get("type")?.trim());
  return (
    <AppPage
      fullWidth
      title={feedName ? t("feeds.logs_title_for", { name: feedName }) : t("feeds.logs_title")}
      backAction={{ content: t("buttons.back"), url: withLocale("/feed", location.search) }}
      primaryAction={filtered ? { content: t("feeds.view_logs_all"), url: withLocale("/feed/item", location.search) } : undefined}
    >
      <DataGrid
        endpoint="/api/feed_item"
        answerShape="flat"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "created_at", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: t("feeds.log_resource.singular"), plural: t("feeds.log_resource.plural") }}
        loadErrorText={t("feeds.logs_load_error")}
        emptyState={{ heading: t("feeds.logs_empty") }}
      />
    </AppPage>
  );
}
