// Drop Shipping Responses (spec 000 §2): id descending; rows link to the revise form.
import { dropshipResponseGrid } from "~/dropship/grids.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(dropshipResponseGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("responses.title"),
  back: "/dropship",
  resourceName: resourceNames(t, "response"),
  loadErrorText: t("responses.load_error"),
  emptyState: { heading: t("responses.empty_heading"), description: t("dropship.logs.empty_description") },
}));
