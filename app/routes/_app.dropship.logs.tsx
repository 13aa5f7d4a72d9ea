// Drop Shipping Logs (spec 000 §2): the generic grid over GET /api/dropship_log.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { listDropshipLogs } from "~/dropship/logs.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listDropshipLogs, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function DropshipLogs() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage fullWidth title={t("dropship.logs.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      <DataGrid
        endpoint="/api/dropship_log"
        initial={initial}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "log", plural: "logs" }}
        loadErrorText={t("dropship.logs.load_error")}
        emptyState={{ heading: t("dropship.logs.empty_heading"), description: t("dropship.logs.empty_description") }}
      />
    </AppPage>
  );
}
