// Drop Shipping Logs (spec 000 §2): the generic grid over GET /api/dropship_log.
import { dropshipLogGrid } from "~/dropship/grids.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(dropshipLogGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("dropship.logs.title"),
  back: "/dropship",
  resourceName: resourceNames(t, "log"),
  loadErrorText: t("dropship.logs.load_error"),
  emptyState: { heading: t("dropship.logs.empty_heading"), description: t("dropship.logs.empty_description") },
}));
