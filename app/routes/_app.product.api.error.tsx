// Product API Errors (spec 001 §2): every failed Shopify call, newest first (GET /api/product_api_error).
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { productApiErrorGrid } from "~/products/grids.server";
import { jsonCell } from "~/products/JsonCell";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(productApiErrorGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("products.api_errors.title"),
  back: "/product",
  resourceName: resourceNames(t, "error"),
  loadErrorText: t("products.api_errors.load_error"),
  emptyState: { heading: t("products.api_errors.empty") },
  renderCell: jsonCell(["payload"]),
}));
