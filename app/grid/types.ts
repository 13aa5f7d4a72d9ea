// The grid contract shared by server and browser (spec 000 §3, "Generic grid
// column definition"; §7 answer shapes).

export type GridDataType = "text" | "datetime" | "select" | "links" | "textOnly";
export type GridFilterKind = "text" | "select" | "date_range" | "none";
export type SortDir = "asc" | "desc";

export interface GridLinkCondition {
  operator: "notempty" | "=";
  field: string;
  value?: string;
}

export interface GridLink {
  /** Path of the target; absolute URLs open in a new tab. With {field}s it is filled from the row, no query added. */
  path: string;
  /** Row field whose value is passed to the target. */
  field: string;
  /** Query parameter that carries it. */
  field_request_name: string;
  label: string;
  target?: "_self" | "_blank";
  condition?: GridLinkCondition;
}

/** A status's Badge tone, by what the status means (Polaris Badge). */
export type StatusTone = "success" | "critical" | "warning" | "attention" | "info";

/** `Text` is the words' type: strings as the browser gets them, ReaderTexts before the edge renders them (D136). */
export interface GridColumn<Text = string> {
  key: string;
  label: Text;
  dataType: GridDataType;
  filter: GridFilterKind;
  sortable: boolean;
  options?: Record<string, Text>;
  /** A status column: each value shows as a Badge, with this tone (none for a value not listed). */
  tones?: Record<string, StatusTone | null>;
  settings?: { links?: Array<Omit<GridLink, "label"> & { label: Text }> };
  /** The value opens this path, filled from the row: "/order/{order_increment_id}" (app/grid/cell-link.ts). */
  cellLink?: string;
}

export type GridRow = Record<string, unknown>;

export interface GridPage<Row = GridRow> {
  data: Row[];
  current_page: number;
  per_page: number;
  last_page: number;
  total: number;
}

/** The answer of server-defined grids: `data.data`, `data.last_page`, `data.total`, `columns`. */
export interface GridAnswer<Row = GridRow, Text = string> {
  data: GridPage<Row>;
  columns: Array<GridColumn<Text>>;
}

/** A list request as the browser sends it. */
export interface ListState {
  page: number;
  sort: string;
  sort_dir: SortDir;
  queryValue: string;
  filters: Record<string, string>;
}
