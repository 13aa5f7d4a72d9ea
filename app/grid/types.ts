// The grid contract shared by server and browser (spec 000 §3, "Generic grid
// column definition"; §7 answer shapes).

export type GridDataType = "text" | "datetime" | "select" | "links" | "textOnly";
export type GridFilterKind = "text" | "select" | "none";
export type SortDir = "asc" | "desc";

export interface GridLinkCondition {
  operator: "notempty" | "=";
  field: string;
  value?: string;
}

export interface GridLink {
  /** Path of the target; absolute URLs open in a new tab. */
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

export interface GridColumn {
  key: string;
  label: string;
  dataType: GridDataType;
  filter: GridFilterKind;
  sortable: boolean;
  options?: Record<string, string>;
  /** A status column: each value shows as a Badge, with this tone (none for a value not listed). */
  tones?: Record<string, StatusTone | null>;
  settings?: { links?: GridLink[] };
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
export interface GridAnswer<Row = GridRow> {
  data: GridPage<Row>;
  columns: GridColumn[];
}

/** A list request as the browser sends it. */
export interface ListState {
  page: number;
  sort: string;
  sort_dir: SortDir;
  queryValue: string;
  filters: Record<string, string>;
}
