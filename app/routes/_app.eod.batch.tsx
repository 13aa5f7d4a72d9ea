// EOD Batches (spec 001 §2): the files exported to the AS400 over the generic
// grid, id desc, 'No batches found'; Back to Report goes to /eod/report.
import { renderEodCell } from "~/eod/cells";
import { eodBatchGrid } from "~/eod/grids.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridScreenData(eodBatchGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("eod.batch_title"),
  secondaryActions: [{ content: t("eod.buttons.back_to_report"), url: "/eod/report" }],
  resourceName: { singular: t("eod.batch_singular"), plural: t("eod.batch_plural") },
  loadErrorText: t("eod.banners.batches_load_error"),
  emptyState: { heading: t("eod.empty_batches") },
  renderCell: renderEodCell,
}));
