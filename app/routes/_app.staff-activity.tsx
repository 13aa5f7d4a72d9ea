// Staff Activity (issue 32 items 5, 8): who did what, when, to which record and
// order, and how it ended; the generic grid over GET /api/staff_activity.
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { staffActivityGrid } from "~/staff-activity/grid.server";

export const loader = pageLoader(({ url, t }) => gridScreenData(staffActivityGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("staff_activity.title"),
  back: "/",
  resourceName: { singular: t("staff_activity.resource.singular"), plural: t("staff_activity.resource.plural") },
  loadErrorText: t("staff_activity.load_error"),
  emptyState: { heading: t("staff_activity.empty_heading"), description: t("staff_activity.empty_description") },
}));
