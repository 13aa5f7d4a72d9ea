// Product API Operations (spec 001 §2): every Shopify call the app made, newest first (GET /api/product_api_operation).
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { jsonCell } from "~/products/JsonCell";
import { listProductApiOperations } from "~/products/products.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listProductApiOperations, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

const renderCell = jsonCell(["request", "response"]);

export default function ProductApiOperations() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage fullWidth title={t("products.api_operations.title")} backAction={{ content: t("buttons.back"), url: "/product" }}>
      <DataGrid
        endpoint="/api/product_api_operation"
        initial={initial}
        defaultSort={{ key: "created_at", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "operation", plural: "operations" }}
        loadErrorText={t("products.api_operations.load_error")}
        emptyState={{ heading: t("products.api_operations.empty") }}
        renderCell={renderCell}
      />
    </AppPage>
  );
}
