// The table half of every list screen: an IndexTable with rows not selectable,
// headings that sort, cells at most 200px wide (spec 000 §9, .grid-cell), the
// empty state and the footer 'Page X of Y - Total Items: N' (listPagination).
import { EmptySearchResult, IndexTable } from "@shopify/polaris";
import type { IndexTableProps } from "@shopify/polaris";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { SortDir } from "./types";

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

/**
 * A cell's content, at most 200px wide and scrolling sideways (spec 000 §9). A cell whose
 * content overflows, and that holds nothing focusable, is a tab stop, so that the keyboard
 * can reach and scroll it (WCAG 2.1.1, axe's scrollable-region-focusable, D112); cells that
 * fit stay out of the tab order. Measured after every render and on every resize.
 */
function GridCell({ columnKey, children }: { columnKey: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  const measure = () => {
    const element = ref.current;
    if (!element) return;
    const focusableInside = [...element.querySelectorAll(FOCUSABLE)].some((each) => each !== element);
    setScrolls(element.scrollWidth > element.clientWidth && !focusableInside);
  };
  useEffect(measure);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => measure());
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    // A cell that scrolls takes keyboard focus, so keyboard users can scroll it (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- see above
    <div ref={ref} className="grid-cell" data-column={columnKey} tabIndex={scrolls ? 0 : undefined}>
      {children}
    </div>
  );
}

export interface ListTableProps<Row> {
  resourceName: { singular: string; plural: string };
  columns: ReadonlyArray<{ key: string; title: string; sortable: boolean }>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  cell: (columnKey: string, row: Row) => ReactNode;
  sort: { key: string; dir: SortDir };
  onSort: (key: string, dir: SortDir) => void;
  loading: boolean;
  emptyState: { heading: string; description?: string };
  pagination: IndexTableProps["pagination"];
}

export function ListTable<Row>({ resourceName, columns, rows, rowKey, cell, sort, onSort, loading, emptyState, pagination }: ListTableProps<Row>) {
  const sortColumnIndex = columns.findIndex((column) => column.key === sort.key);
  const headings = columns.map((column) => ({ title: column.title, id: `col-${column.key}` })) as IndexTableProps["headings"];
  return (
    <IndexTable
      resourceName={resourceName}
      itemCount={rows.length}
      headings={headings}
      selectable={false}
      loading={loading}
      sortable={columns.map((column) => column.sortable)}
      sortColumnIndex={sortColumnIndex >= 0 ? sortColumnIndex : undefined}
      sortDirection={sort.dir === "asc" ? "ascending" : "descending"}
      onSort={(index, direction) => onSort(columns[index].key, direction === "ascending" ? "asc" : "desc")}
      emptyState={<EmptySearchResult title={emptyState.heading} description={emptyState.description} withIllustration />}
      pagination={pagination}
    >
      {rows.map((row, index) => (
        <IndexTable.Row id={rowKey(row)} key={rowKey(row)} position={index}>
          {columns.map((column) => (
            <IndexTable.Cell key={column.key}>
              <GridCell columnKey={column.key}>{cell(column.key, row)}</GridCell>
            </IndexTable.Cell>
          ))}
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
