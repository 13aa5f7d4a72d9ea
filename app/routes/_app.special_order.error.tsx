// Special Order Errors (spec 001 §2): id descending; Revise opens /special_order/revise?id=.
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { specialOrderErrorGrid } from "~/special-orders/special-orders.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(specialOrderErrorGrid, url.searchParams, t, { answerShape: "flat" }));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("special_orders.error_title"),
  back: "/special_order",
  resourceName: resourceNames(t, "error"),
  loadErrorText: t("special_orders.error_load_error"),
  emptyState: { heading: t("special_orders.empty_errors"), description: t("special_orders.empty_description") },
}));
