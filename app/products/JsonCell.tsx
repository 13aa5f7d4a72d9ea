// A request, answer or payload summary in a grid cell: its JSON text, on one
// line (the cell scrolls past 200 px like every cell).
import type { GridColumn, GridRow } from "~/grid/types";

export function jsonCell(keys: string[]) {
  return function renderJsonCell(column: GridColumn, row: GridRow) {
    if (!keys.includes(column.key)) return undefined;
    const value = row[column.key];
    if (value === null || value === undefined) return "";
    return <code style={{ whiteSpace: "nowrap", fontSize: "12px" }}>{typeof value === "string" ? value : JSON.stringify(value)}</code>;
  };
}
