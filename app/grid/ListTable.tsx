// The table half of every list screen: an IndexTable with rows not selectable,
// headings that sort, cells at most 200px wide (spec 000 §9, .grid-cell), the
// empty state and the footer 'Page X of Y - Total Items: N' (listPagination).
import { EmptySearchResult, IndexTable } from "@shopify/polaris";
import type { IndexTableProps } from "@shopify/polaris";
import type { ReactNode } from "react";
import type { SortDir } from "./types";

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
              <div className="grid-cell" data-column={column.key}>
                {cell(column.key, row)}
              </div>
            </IndexTable.Cell>
          ))}
        </IndexTable.Row>
      ))}
    </IndexTable>
  );
}
