// The /api twin of a grid screen: its JSON page (the area's list function), or
// with `format=csv` the CSV of every row its filters, search and sort select
// (D265), streamed through the one CSV writer.
import { csvResponse } from "~/grid/csv.server";
import { gridCsv, wantsCsv, type GridCsvOptions } from "~/grid/grid-csv.server";
import type { GridDefinition } from "~/grid/grid.server";
import { apiRoute, type RouteContext } from "./route.server";

/** `loader = gridApiRoute(grid, ({ url }) => listX(url.searchParams))`: every grid list answers format=csv the same way. */
export function gridApiRoute<T>(grid: GridDefinition, list: (context: RouteContext) => Promise<T>, csv: GridCsvOptions = {}) {
  return apiRoute<T | Response>(async (context) => {
    if (wantsCsv(context.url.searchParams)) return csvResponse(gridCsv(grid, context.url.searchParams, csv), context.t);
    return list(context);
  });
}
