// AS400 Category to Shopify Tags Mappings (spec 001 §2): the generic grid over
// GET /api/category_tags_mapping, as400_category_id ascending; Back and Create Mapping.
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { gridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { categoryTagsMappingGrid } from "~/products/grids.server";
import { MAPPING_FORM_PATH } from "~/products/paths";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(categoryTagsMappingGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default gridScreen((t) => ({
  title: t("products.mappings.title"),
  back: "/product",
  primaryAction: { content: t("products.mappings.create"), url: MAPPING_FORM_PATH },
  resourceName: resourceNames(t, "mapping"),
  loadErrorText: t("products.mappings.load_error"),
  emptyState: { heading: t("products.mappings.empty") },
}));
