// A request, answer or payload summary in a grid cell: its JSON text, on one
// line (the cell scrolls past 200 px like every cell). A summary cut short
// when it was recorded (`{ truncated, chars, text }`, call-records.server.ts)
// shows the start it kept, marked as cut, not the wrapper around it.
import type { GridColumn, GridRow } from "~/grid/types";

type Truncated = { truncated: true; text: string };
const isTruncated = (value: unknown): value is Truncated =>
  typeof value === "object" && value !== null && (value as Truncated).truncated === true && typeof (value as Truncated).text === "string";

export function jsonCell(keys: string[]) {
  return function renderJsonCell(column: GridColumn, row: GridRow) {
    if (!keys.includes(column.key)) return undefined;
    const value = row[column.key];
    if (value === null || value === undefined) return "";
    const text = isTruncated(value) ? `${value.text}…` : typeof value === "string" ? value : JSON.stringify(value);
    return <code style={{ whiteSpace: "nowrap", fontSize: "12px" }}>{text}</code>;
  };
}
