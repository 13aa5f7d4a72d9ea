// Drop Shipping Requests (spec 000 §2): request_id descending; rows link to the revise form.
import { dropshipRequestGrid } from "~/dropship/grids.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(dropshipRequestGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("requests.title"),
  back: "/dropship",
  resourceName: resourceNames(t, "request"),
  loadErrorText: t("requests.load_error"),
  emptyState: { heading: t("requests.empty_heading"), description: t("dropship.logs.empty_description") },
}));
