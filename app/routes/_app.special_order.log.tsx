// Special Order Logs (spec 001 §2): every pulled file, id descending; Download gives the file.
import { useLoaderData, useLocation } from "@remix-run/react";
import { useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { ErrorBanner } from "~/forms/FormBanner";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import type { GridColumn, GridRow } from "~/grid/types";
import { downloadFile } from "~/lib/download";
import { withLocale } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { specialOrderLogGrid } from "~/special-orders/special-orders.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(specialOrderLogGrid, url.searchParams, t, { answerShape: "flat" }));
export const shouldRevalidate = gridShouldRevalidate;

export default function SpecialOrderLogs() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [failed, setFailed] = useState(false);
  const renderCell = (column: GridColumn, row: GridRow) => {
    if (column.key !== "actions") return undefined;
    const url = withLocale(`/api/special_order_log_download?id=${encodeURIComponent(String(row.id))}`, search);
    const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
      event.preventDefault();
      setFailed(false);
      downloadFile(
        url,
        String(row.file_path ?? "")
          .split("/")
          .pop() || `special_order_log_${row.id}.csv`,
      ).catch(() => setFailed(true));
    };
    return (
      <a className="Polaris-Link" href={url} download onClick={onClick}>
        {t("special_orders.download")}
      </a>
    );
  };
  return (
    <GridScreen
      data={useLoaderData<typeof loader>()}
      title={t("special_orders.log_title")}
      back="/special_order"
      resourceName={resourceNames(t, "log")}
      loadErrorText={t("special_orders.log_load_error")}
      emptyState={{ heading: t("special_orders.empty_logs"), description: t("special_orders.empty_description") }}
      renderCell={renderCell}
    >
      <ErrorBanner text={failed && t("special_orders.download_error")} onDismiss={() => setFailed(false)} />
    </GridScreen>
  );
}
