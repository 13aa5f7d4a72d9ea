// GET /api/advancedordergrid: page, sort, sort_dir, per_page, globalFilter / queryValue
// and the named filters of spec 000 §7 → { data, current_page, per_page, last_page, total, total_exact }.
import { csvResponse } from "~/grid/csv.server";
import { wantsCsv } from "~/grid/grid-csv.server";
import { apiRoute } from "~/http/route.server";
import { listOrderGrid, orderGridCsv } from "~/orders/order-grid.server";

// format=csv: every matching order, as the one CSV writer writes it (D265).
export const loader = apiRoute(async ({ url, t }) =>
  wantsCsv(url.searchParams) ? csvResponse(orderGridCsv(url.searchParams), t) : listOrderGrid(url.searchParams),
);
