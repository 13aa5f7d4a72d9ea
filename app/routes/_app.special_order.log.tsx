// Special Order Logs (spec 001 §2): every pulled file, id descending; Download gives the file.
import { useLoaderData } from "@remix-run/react";
import { useLocation } from "@remix-run/react";
import { Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import type { GridColumn, GridRow } from "~/grid/types";
import { withLocale } from "~/lib/format";
import { pageLoader } from "~/lib/route.server";
import { listSpecialOrderLogs } from "~/special-orders/special-orders.server";

export const loader = pageLoader(({ url, t }) =>
  gridPageData(async (params) => {
    const { columns, data, ...page } = await listSpecialOrderLogs(params, t);
    return { data: { ...page, data }, columns };
  }, url.searchParams),
);
export const shouldRevalidate = gridShouldRevalidate;

export default function SpecialOrderLogs() {
  const { t } = useTranslation();
  const { search } = useLocation();
  // A download is a plain link (no client-side navigation), so the browser saves the file.
  const renderCell = (column: GridColumn, row: GridRow) =>
    column.key === "actions" ? (
      <a className="Polaris-Link" href={withLocale(`/api/special_order_log_download?id=${encodeURIComponent(String(row.id))}`, search)} download>
        {t("special_orders.download")}
      </a>
    ) : undefined;
  return (
    <Page fullWidth title={t("special_orders.log_title")} backAction={{ content: t("buttons.back"), url: "/special_order" }}>
      <DataGrid
        endpoint="/api/special_order_log"
        answerShape="flat"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "log", plural: "logs" }}
        loadErrorText={t("special_orders.log_load_error")}
        emptyState={{ heading: t("special_orders.empty_logs"), description: t("special_orders.empty_description") }}
        renderCell={renderCell}
      />
    </Page>
  );
}
