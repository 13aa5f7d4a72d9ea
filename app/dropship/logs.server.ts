// Drop Shipping Logs: the page loader and GET /api/dropship_log both answer here.
import { runGrid } from "~/grid/grid.server";
import type { Translate } from "~/i18n/i18n.server";
import { dropshipLogGrid } from "./grids.server";

export function listDropshipLogs(params: URLSearchParams, t: Translate) {
  return runGrid(dropshipLogGrid, params, t);
}
