// Product API Operations (spec 001 §2): every Shopify call the app made, newest first (GET /api/product_api_operation).
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { productApiOperationGrid } from "~/products/grids.server";
import { jsonCell } from "~/products/JsonCell";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(productApiOperationGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("products.api_operations.title"),
  back: "/product",
  resourceName: resourceNames(t, "operation"),
  loadErrorText: t("products.api_operations.load_error"),
  emptyState: { heading: t("products.api_operations.empty") },
  renderCell: jsonCell(["request", "response"]),
}));
