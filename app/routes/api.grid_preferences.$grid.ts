// GET /api/grid_preferences/{grid}: the columns the staff member hides in that grid → { grid, hidden_columns }.
// PUT (or POST with _method PUT) {hidden_columns: [keys]}: saves them; 404 for a grid that does not exist,
// 422 for an unknown column or none left shown (D268).
import { staffName } from "~/auth.server";
import { attentionGrid } from "~/attention/queue.server";
import { dropshipLogGrid, dropshipRequestGrid, dropshipResponseGrid } from "~/dropship/grids.server";
import { vendorGrid } from "~/dropship/vendors.server";
import { eodBatchGrid, eodReportGrid } from "~/eod/grids.server";
import { feedGrid, feedLogGrid } from "~/feeds/feeds.server";
import type { GridDefinition } from "~/grid/grid.server";
import { gridPreferenceOf, saveGridPreference } from "~/grid/preferences.server";
import { apiRoute } from "~/http/route.server";
import { intendedMethod, readBody } from "~/lib/validation.server";
import { ORDER_COLUMNS, ORDER_GRID } from "~/orders/order-grid";
import { categoryTagsMappingGrid, productApiErrorGrid, productApiOperationGrid, productGrid } from "~/products/grids.server";
import { assignmentGrid, inProgressGrid, unassignedOrderGrid } from "~/sales/grids.server";
import { realtimeSalesLogGrid, realtimeShippingLogGrid } from "~/sales/realtime-logs.server";
import { storeGrid } from "~/sales/stores.server";
import { staffActivityGrid } from "~/staff-activity/grid.server";
import { specialOrderCurrentGrid, specialOrderErrorGrid, specialOrderLogGrid } from "~/special-orders/special-orders.server";

const GRIDS: GridDefinition[] = [
  attentionGrid,
  dropshipLogGrid,
  dropshipRequestGrid,
  dropshipResponseGrid,
  vendorGrid,
  eodBatchGrid,
  eodReportGrid,
  feedGrid,
  feedLogGrid,
  categoryTagsMappingGrid,
  productApiErrorGrid,
  productApiOperationGrid,
  productGrid,
  assignmentGrid,
  inProgressGrid,
  unassignedOrderGrid,
  realtimeSalesLogGrid,
  realtimeShippingLogGrid,
  storeGrid,
  specialOrderCurrentGrid,
  specialOrderErrorGrid,
  specialOrderLogGrid,
  staffActivityGrid,
];

const columnsOf = (gridId: string): readonly string[] | null => {
  if (gridId === ORDER_GRID) return ORDER_COLUMNS;
  return GRIDS.find((grid) => grid.id === gridId)?.columns.map((column) => column.key) ?? null;
};

const gridOf = (params: Record<string, string | undefined>) => params.grid ?? "";

export const loader = apiRoute(({ params, staff }) => gridPreferenceOf(staffName(staff), gridOf(params), columnsOf));

export const action = apiRoute(async ({ request, params, staff }) => {
  const body = await readBody(request);
  const method = intendedMethod(request, body);
  if (method !== "PUT" && method !== "POST") return Response.json({ error: true, message: "Use PUT to save the columns" }, { status: 405 });
  return saveGridPreference(staffName(staff), gridOf(params), body, columnsOf);
});
