// Drop Shipping Logs: the page loader and GET /api/dropship_log both answer here.
import { runGrid } from "~/grid/grid.server";
import { dropshipLogGrid } from "./grids.server";

export function listDropshipLogs(params: URLSearchParams) {
  return runGrid(dropshipLogGrid, params);
}
