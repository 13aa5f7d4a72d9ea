// The table half of every list screen: an IndexTable whose rows are selectable
// where the screen has bulk actions (D272), open their record on a click or Enter
// (a primary link per row, D273), headings that sort, cells at most 200px wide (spec 000 §9, .grid-cell), the
// empty state and the footer 'Page X of Y - Total Items: N' (listPagination).
// Rows render only when they, the columns or the cell renderer change: a click
// that changes the sort or the loading bar does not render every cell again.
import { EmptySearchResult, IndexTable, Link, Text, useIndexResourceState } from "@shopify/polaris";
import type { IndexTableProps } from "@shopify/polaris";
import { useEffect, useMemo, useRef, type MouseEvent, type ReactNode } from "react";
import type { SortDir } from "./types";

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]:not(.grid-cell)";

/**
 * A cell that overflows its 200px and holds nothing focusable is a tab stop, so that the keyboard
 * can reach and scroll it (WCAG 2.1.1, axe's scrollable-region-focusable, D112); cells that fit
 * stay out of the tab order. One pass over the table after its rows change and when it is
 * resized: every width read first, then every attribute written, so the browser lays out once
 * (a measuring effect per cell cost hundreds of effects and observers per page; D248).
 */
function useScrollableCellsFocusable(table: React.RefObject<HTMLDivElement>, rows: unknown) {
  useEffect(() => {
    const root = table.current;
    if (!root) return;
    const mark = () => {
      const cells = [...root.querySelectorAll<HTMLElement>(".grid-cell")];
      const scrolls = cells.map((cell) => cell.scrollWidth > cell.clientWidth && !cell.querySelector(FOCUSABLE));
      cells.forEach((cell, index) => {
        if (scrolls[index]) cell.setAttribute("tabindex", "0");
        else cell.removeAttribute("tabindex");
      });
    };
    mark();
    if (typeof ResizeObserver === "undefined") return;
    let frame = 0;
    const observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(mark);
    });
    observer.observe(root);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [table, rows]);
}

export interface ListTableProps<Row> {
  resourceName: { singular: string; plural: string };
  columns: ReadonlyArray<{ key: string; title: string; sortable: boolean }>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Keep it stable (useCallback): a new one renders every cell again. */
  cell: (columnKey: string, row: Row) => ReactNode;
  sort: { key: string; dir: SortDir };
  onSort: (key: string, dir: SortDir) => void;
  loading: boolean;
  emptyState: { heading: string; description?: string };
  pagination: IndexTableProps["pagination"];
  /** What staff can do to the rows they select; none: rows are not selectable. */
  bulkActions?: ReadonlyArray<ListBulkAction>;
  /** The row's own page, opened by a click on the row or Enter on its link; undefined: the row opens nothing. */
  rowUrl?: (row: Row) => string | undefined;
  /** The words of a row's link for screen readers ("Open request 12"). */
  rowLinkLabel?: (row: Row) => string;
}

export interface ListBulkAction {
  content: string;
  destructive?: boolean;
  /** Called with the keys of the rows selected. */
  onAction: (keys: string[]) => void;
}

/** A click on a link, button or field inside a cell is that control's, not the row's (the row's own link excepted). */
const OWN_CLICK = "a, button, input, select, textarea, label, [role='button']";
function keepOwnClick(event: MouseEvent<HTMLDivElement>) {
  const control = (event.target as Element).closest(OWN_CLICK);
  if (control && !control.hasAttribute("data-primary-link") && event.currentTarget.contains(control)) event.stopPropagation();
}

export function ListTable<Row>({
  resourceName,
  columns,
  rows,
  rowKey,
  cell,
  sort,
  onSort,
  loading,
  emptyState,
  pagination,
  bulkActions,
  rowUrl,
  rowLinkLabel,
}: ListTableProps<Row>) {
  const table = useRef<HTMLDivElement>(null);
  const sortColumnIndex = columns.findIndex((column) => column.key === sort.key);
  // New arrays would make IndexTable measure its headings again on every render.
  const headings = useMemo(() => columns.map((column) => ({ title: column.title, id: `col-${column.key}` })) as IndexTableProps["headings"], [columns]);
  const sortable = useMemo(() => columns.map((column) => column.sortable), [columns]);
  const selectable = Boolean(bulkActions?.length);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(rows as unknown as Array<{ id: string }>, {
    resourceIDResolver: (row) => rowKey(row as unknown as Row),
  });
  // Another page, a sort, a reload: what was selected is not on screen any more.
  useEffect(() => clearSelection(), [rows, clearSelection]);
  // The cells of each row, kept while a selection changes (a click selects, it does not render every cell again).
  const cells = useMemo(
    () =>
      rows.map((row) => {
        const url = rowUrl?.(row);
        return columns.map((column, index) => (
          <IndexTable.Cell key={column.key}>
            {/* The row's own link, read out and not seen, beside the cell's content (not in it: the cell shows its value only). */}
            {index === 0 && url && (
              <span className="grid-row-link">
                <Link url={url} dataPrimaryLink removeUnderline monochrome>
                  <Text as="span" visuallyHidden>
                    {rowLinkLabel?.(row) ?? url}
                  </Text>
                </Link>
              </span>
            )}
            {/* Not a control: it only keeps a click on a link or button of the cell from also opening the row. */}
            {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
            <div className="grid-cell" data-column={column.key} onClick={keepOwnClick}>
              {cell(column.key, row)}
            </div>
          </IndexTable.Cell>
        ));
      }),
    [rows, columns, cell, rowUrl, rowLinkLabel],
  );
  const selected = useMemo(() => new Set(selectedResources), [selectedResources]);
  const body = useMemo(
    () =>
      rows.map((row, index) => (
        <IndexTable.Row id={rowKey(row)} key={rowKey(row)} position={index} selected={selected.has(rowKey(row))}>
          {cells[index]}
        </IndexTable.Row>
      )),
    [rows, rowKey, cells, selected],
  );
  const promotedBulkActions = useMemo(
    () => bulkActions?.map((action) => ({ content: action.content, destructive: action.destructive, onAction: () => action.onAction(selectedResources) })),
    [bulkActions, selectedResources],
  );
  useScrollableCellsFocusable(table, cells);
  return (
    <div ref={table}>
      <IndexTable
        resourceName={resourceName}
        itemCount={rows.length}
        headings={headings}
        selectable={selectable}
        selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
        onSelectionChange={handleSelectionChange}
        promotedBulkActions={promotedBulkActions}
        loading={loading}
        sortable={sortable}
        sortColumnIndex={sortColumnIndex >= 0 ? sortColumnIndex : undefined}
        sortDirection={sort.dir === "asc" ? "ascending" : "descending"}
        onSort={(index, direction) => onSort(columns[index].key, direction === "ascending" ? "asc" : "desc")}
        emptyState={<EmptySearchResult title={emptyState.heading} description={emptyState.description} withIllustration />}
        pagination={pagination}
      >
        {body}
      </IndexTable>
    </div>
  );
}
