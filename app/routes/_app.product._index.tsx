// Products (spec 001 §2): the generic grid over GET /api/product, sku ascending;
// Back, API Errors, API Operations and Category-Tags Mappings.
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { formatMoney } from "~/lib/format";
import { productGrid } from "~/products/grids.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(productGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("products.title"),
  back: "/",
  secondaryActions: [
    { content: t("products.buttons.api_errors"), url: "/product/api/error/" },
    { content: t("products.buttons.api_operations"), url: "/product/api/operation/" },
    { content: t("products.buttons.mappings"), url: "/product/category_tags_mapping" },
  ],
  resourceName: resourceNames(t, "product"),
  loadErrorText: t("products.load_error"),
  emptyState: { heading: t("products.empty") },
  renderCell: (column, row) => (column.key === "price" ? formatMoney(row.price as string | null) : undefined),
}));
