// Products (spec 001 §2): the generic grid over GET /api/product, sku ascending;
// Back, API Errors, API Operations and Category-Tags Mappings.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { formatMoney } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { listProducts } from "~/products/products.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listProducts, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function Products() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage
      fullWidth
      title={t("products.title")}
      backAction={{ content: t("buttons.back"), url: "/" }}
      secondaryActions={[
        { content: t("products.buttons.api_errors"), url: "/product/api/error/" },
        { content: t("products.buttons.api_operations"), url: "/product/api/operation/" },
        { content: t("products.buttons.mappings"), url: "/product/category_tags_mapping" },
      ]}
    >
      <DataGrid
        endpoint="/api/product"
        initial={initial}
        defaultSort={{ key: "sku", dir: "asc" }}
        rowKey="id"
        resourceName={{ singular: "product", plural: "products" }}
        loadErrorText={t("products.load_error")}
        emptyState={{ heading: t("products.empty") }}
        renderCell={(column, row) => (column.key === "price" ? formatMoney(row.price as string | null) : undefined)}
      />
    </AppPage>
  );
}
