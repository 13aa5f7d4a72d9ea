// Product API Errors (spec 001 §2): every failed Shopify call, newest first (GET /api/product_api_error).
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { jsonCell } from "~/products/JsonCell";
import { listProductApiErrors } from "~/products/products.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listProductApiErrors, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

const renderCell = jsonCell(["payload"]);

export default function ProductApiErrors() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage fullWidth title={t("products.api_errors.title")} backAction={{ content: t("buttons.back"), url: "/product" }}>
      <DataGrid
        endpoint="/api/product_api_error"
        initial={initial}
        defaultSort={{ key: "created_at", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "error", plural: "errors" }}
        loadErrorText={t("products.api_errors.load_error")}
        emptyState={{ heading: t("products.api_errors.empty") }}
        renderCell={renderCell}
      />
    </AppPage>
  );
}
