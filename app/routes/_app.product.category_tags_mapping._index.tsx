// AS400 Category to Shopify Tags Mappings (spec 001 §2): the generic grid over
// GET /api/category_tags_mapping, as400_category_id ascending; Back and Create Mapping.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { MAPPING_FORM_PATH } from "~/products/paths";
import { listCategoryTagsMappings } from "~/products/products.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listCategoryTagsMappings, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function CategoryTagsMappings() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage
      fullWidth
      title={t("products.mappings.title")}
      backAction={{ content: t("buttons.back"), url: "/product" }}
      primaryAction={{ content: t("products.mappings.create"), url: MAPPING_FORM_PATH }}
    >
      <DataGrid
        endpoint="/api/category_tags_mapping"
        initial={initial}
        defaultSort={{ key: "as400_category_id", dir: "asc" }}
        rowKey="id"
        resourceName={{ singular: "mapping", plural: "mappings" }}
        loadErrorText={t("products.mappings.load_error")}
        emptyState={{ heading: t("products.mappings.empty") }}
      />
    </AppPage>
  );
}
