// Dropship Vendors (spec 000 §2): the generic grid over GET /api/dropship_vendor.
import { vendorGrid } from "~/dropship/vendors.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(vendorGrid, url.searchParams, t, { answerShape: "flat" }));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("vendor.title"),
  back: "/dropship",
  primaryAction: { content: t("vendor.new"), url: "/dropship/vendor/edit" },
  resourceName: resourceNames(t, "vendor"),
  emptyState: { heading: t("vendor.empty") },
}));
