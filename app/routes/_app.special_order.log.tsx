// Special Order Logs (spec 001 §2): every pulled file, id descending; Download gives the file.
import { useLoaderData, useLocation } from "@remix-run/react";
import { Banner, BlockStack, Page } from "@shopify/polaris";
import { useState, type MouseEvent } from "react";
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

/** The file name of a content-disposition header (RFC 6266: filename* first). */
function fileNameOf(disposition: string | null, fallback: string): string {
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? "");
  if (extended) return decodeURIComponent(extended[1]);
  return /filename="([^"]+)"/i.exec(disposition ?? "")?.[1] ?? fallback;
}

/**
 * Fetches the file and saves it from memory: inside the Shopify admin, App
 * Bridge adds the session token to fetch, which a plain link would not carry.
 */
async function download(url: string, fallbackName: string) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download failed: ${response.status}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = objectUrl;
  anchor.download = fileNameOf(response.headers.get("content-disposition"), fallbackName);
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 10_000);
}

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
      download(url, String(row.file_path ?? "").split("/").pop() || `special_order_log_${row.id}.csv`).catch(() => setFailed(true));
    };
    return (
      <a className="Polaris-Link" href={url} download onClick={onClick}>
        {t("special_orders.download")}
      </a>
    );
  };
  return (
    <Page fullWidth title={t("special_orders.log_title")} backAction={{ content: t("buttons.back"), url: "/special_order" }}>
      <BlockStack gap="400">
        {failed && (
          <Banner tone="critical" onDismiss={() => setFailed(false)}>
            <p>{t("special_orders.download_error")}</p>
          </Banner>
        )}
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
      </BlockStack>
    </Page>
  );
}
