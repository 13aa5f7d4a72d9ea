// The one grid every list screen uses: server-defined columns, filters (text
// ones applied 500 ms after typing stops), sort per column, paging with the
// footer 'Page X of Y - Total Items: N', empty state, and the screen's error
// banner when a load fails (page 1, total 0, empty list). The first page comes
// from the route loader; later pages from the /api twin, with retries.
import { useSearchParams } from "@remix-run/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Card,
  ChoiceList,
  EmptySearchResult,
  Filters,
  IndexTable,
  InlineStack,
  Link,
  TextField,
} from "@shopify/polaris";
import type { IndexTableProps } from "@shopify/polaris";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { formatDateTime, titleCase } from "~/lib/format";
import { fetchJsonWithRetry } from "./fetch-with-retry";
import { apiQueryForListState, listStateFromSearch, searchForListState } from "./list-state";
import type { GridAnswer, GridColumn, GridLink, GridRow, ListState, SortDir } from "./types";

export const TEXT_FILTER_DEBOUNCE_MS = 500;

export interface GridPageData {
  answer: GridAnswer;
  /** The loader could not answer the URL's list request. */
  failed: boolean;
}

export interface DataGridProps {
  /** The /api twin, e.g. "/api/dropship_log". */
  endpoint: string;
  initial: GridPageData;
  defaultSort: { key: string; dir: SortDir };
  rowKey: string;
  resourceName: { singular: string; plural: string };
  /** The screen's banner when a load fails; without one the grid fails silently to an empty list (spec 000 §8). */
  loadErrorText?: string;
  /** "nested" (default): data.data, data.last_page…; "flat": data, last_page… at the top level. */
  answerShape?: "nested" | "flat";
  emptyState: { heading: string; description?: string };
  /** A screen's own rendering of a cell; undefined falls back to the data type. */
  renderCell?: (column: GridColumn, row: GridRow) => ReactNode | undefined;
}

/** Grid screens re-query through the API; a change of their search alone needs no loader run. */
export const gridShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

type FlatAnswer = Omit<GridAnswer["data"], "data"> & { data: GridRow[]; columns: GridAnswer["columns"] };

function fromFlatAnswer({ data, columns, ...page }: FlatAnswer): GridAnswer {
  return { data: { ...page, data }, columns };
}

function linkHref(link: GridLink, row: GridRow) {
  const value = row[link.field];
  const separator = link.path.includes("?") ? "&" : "?";
  return `${link.path}${separator}${encodeURIComponent(link.field_request_name)}=${encodeURIComponent(String(value ?? ""))}`;
}

function linkApplies(link: GridLink, row: GridRow) {
  const condition = link.condition;
  if (!condition) return true;
  const value = row[condition.field];
  if (condition.operator === "notempty") return value !== null && value !== undefined && String(value) !== "";
  return String(value ?? "") === String(condition.value ?? "");
}

function DefaultCell({ column, row, timeZone }: { column: GridColumn; row: GridRow; timeZone: string }) {
  const value = row[column.key];
  switch (column.dataType) {
    case "datetime":
      return <>{formatDateTime(value as string | null, timeZone)}</>;
    case "select":
      return <>{value === null || value === undefined ? "" : (column.options?.[String(value)] ?? titleCase(String(value)))}</>;
    case "links":
      return (
        <InlineStack gap="200" wrap={false}>
          {(column.settings?.links ?? [])
            .filter((link) => linkApplies(link, row))
            .map((link) => (
              <Link key={link.label} url={linkHref(link, row)} target={link.target === "_blank" ? "_blank" : undefined}>
                {link.label}
              </Link>
            ))}
        </InlineStack>
      );
    default:
      return <>{value === null || value === undefined ? "" : String(value)}</>;
  }
}

function useDebounced<T>(value: T, delayMs: number, onSettle: (value: T) => void) {
  const settle = useRef(onSettle);
  settle.current = onSettle;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => settle.current(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
}

export function DataGrid(props: DataGridProps) {
  const { endpoint, initial, defaultSort, rowKey, resourceName, loadErrorText, emptyState, renderCell, answerShape = "nested" } = props;
  const { t } = useTranslation();
  const { timeZone, locale } = useAppSettings();
  const [searchParams, setSearchParams] = useSearchParams();

  const [columns, setColumns] = useState<GridColumn[]>(initial.answer.columns);
  const [page, setPage] = useState(initial.answer.data);
  const [failed, setFailed] = useState(initial.failed);
  const [bannerVisible, setBannerVisible] = useState(initial.failed && Boolean(loadErrorText));
  const [loading, setLoading] = useState(false);
  const [state, setState] = useState<ListState>(() => {
    const fromUrl = listStateFromSearch(searchParams, initial.answer.columns, defaultSort);
    return initial.failed ? { ...fromUrl, page: 1 } : fromUrl;
  });

  // What the text inputs show right now; applied to `state` after the debounce.
  const [queryInput, setQueryInput] = useState(state.queryValue);
  const [textInputs, setTextInputs] = useState<Record<string, string>>(() => ({ ...state.filters }));

  const update = useCallback((change: (current: ListState) => ListState) => setState(change), []);
  const applyFilter = useCallback(
    (key: string, value: string) =>
      update((current) => {
        const filters = { ...current.filters };
        if (value.trim()) filters[key] = value;
        else delete filters[key];
        // Changing a filter goes back to page 1 (spec 000 §4).
        return { ...current, filters, page: 1 };
      }),
    [update],
  );

  useDebounced(queryInput, TEXT_FILTER_DEBOUNCE_MS, (value) =>
    update((current) => (current.queryValue === value ? current : { ...current, queryValue: value, page: 1 })),
  );
  useDebounced(textInputs, TEXT_FILTER_DEBOUNCE_MS, (inputs) => {
    for (const column of columns) {
      if (column.filter !== "text") continue;
      const value = inputs[column.key] ?? "";
      if ((state.filters[column.key] ?? "") !== value) applyFilter(column.key, value);
    }
  });

  // A navigation to this screen with another URL (a menu link, back/forward)
  // starts over from that URL; the grid's own URL updates do not.
  const ownSearch = useRef(searchParams.toString());
  useEffect(() => {
    const search = searchParams.toString();
    if (search === ownSearch.current) return;
    ownSearch.current = search;
    const next = listStateFromSearch(searchParams, columns, defaultSort);
    setQueryInput(next.queryValue);
    setTextInputs({ ...next.filters });
    setState(next);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchParams]);

  // Load whenever the list state changes (the first state came with the page).
  const loadedKey = useRef(JSON.stringify(state));
  useEffect(() => {
    const key = JSON.stringify(state);
    if (key === loadedKey.current) return;
    loadedKey.current = key;
    const nextSearch = searchForListState(state, new URLSearchParams(window.location.search), columns);
    ownSearch.current = nextSearch.toString();
    setSearchParams(nextSearch, { replace: true, preventScrollReset: true });
    const controller = new AbortController();
    setLoading(true);
    fetchJsonWithRetry<unknown>(`${endpoint}?${apiQueryForListState(state, locale)}`, { signal: controller.signal })
      .then((json) => {
        const answer = answerShape === "flat" ? fromFlatAnswer(json as FlatAnswer) : (json as GridAnswer);
        setColumns(answer.columns);
        setPage(answer.data);
        setFailed(false);
        setBannerVisible(false);
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        // spec 000 §4: on a load error the page resets to 1, total to 0, the list to empty.
        setPage((current) => ({ ...current, data: [], total: 0, last_page: 1, current_page: 1 }));
        loadedKey.current = JSON.stringify({ ...state, page: 1 });
        setState((current) => ({ ...current, page: 1 }));
        setFailed(true);
        setBannerVisible(Boolean(loadErrorText));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);

  const rows = failed ? [] : page.data;
  const total = failed ? 0 : page.total;
  const lastPage = failed ? 1 : page.last_page;
  // The footer describes the rows shown: the loaded page, not the one being asked for.
  const currentPage = failed ? 1 : page.current_page;

  const sortColumnIndex = columns.findIndex((column) => column.key === state.sort);
  const headings = columns.map((column) => ({ title: column.label, id: `col-${column.key}` })) as IndexTableProps["headings"];

  const filters = useMemo(
    () =>
      columns
        .filter((column) => column.filter !== "none")
        .map((column) => ({
          key: column.key,
          label: column.label,
          shortcut: true,
          filter:
            column.filter === "select" ? (
              <ChoiceList
                title={column.label}
                titleHidden
                choices={Object.entries(column.options ?? {}).map(([value, label]) => ({ value, label }))}
                selected={state.filters[column.key] ? [state.filters[column.key]] : []}
                onChange={(selected) => applyFilter(column.key, selected[0] ?? "")}
              />
            ) : (
              <TextField
                label={column.label}
                labelHidden
                autoComplete="off"
                placeholder={t("grid.filter_placeholder", { label: column.label })}
                value={textInputs[column.key] ?? ""}
                onChange={(value) => setTextInputs((inputs) => ({ ...inputs, [column.key]: value }))}
              />
            ),
        })),
    [columns, state.filters, textInputs, applyFilter, t],
  );

  const appliedFilters = columns
    .filter((column) => state.filters[column.key])
    .map((column) => {
      const value = state.filters[column.key];
      const shown = column.filter === "select" ? (column.options?.[value] ?? value) : value;
      return {
        key: column.key,
        label: `${column.label}: ${shown}`,
        onRemove: () => {
          setTextInputs((inputs) => ({ ...inputs, [column.key]: "" }));
          applyFilter(column.key, "");
        },
      };
    });

  return (
    <BlockStack gap="400">
      {bannerVisible && (
        <Banner tone="critical" onDismiss={() => setBannerVisible(false)}>
          <p>{loadErrorText}</p>
        </Banner>
      )}
      <Card padding="0">
        <Filters
          queryValue={queryInput}
          queryPlaceholder={t("grid.search")}
          filters={filters}
          appliedFilters={appliedFilters}
          onQueryChange={setQueryInput}
          onQueryClear={() => setQueryInput("")}
          onClearAll={() => {
            setQueryInput("");
            setTextInputs({});
            update((current) => ({ ...current, queryValue: "", filters: {}, page: 1 }));
          }}
          loading={loading}
        />
        <IndexTable
          resourceName={resourceName}
          itemCount={rows.length}
          headings={headings}
          selectable={false}
          loading={loading}
          sortable={columns.map((column) => column.sortable)}
          sortColumnIndex={sortColumnIndex >= 0 ? sortColumnIndex : undefined}
          sortDirection={state.sort_dir === "asc" ? "ascending" : "descending"}
          onSort={(index, direction) =>
            update((current) => ({
              ...current,
              sort: columns[index].key,
              sort_dir: direction === "ascending" ? "asc" : "desc",
              page: 1,
            }))
          }
          emptyState={<EmptySearchResult title={emptyState.heading} description={emptyState.description} withIllustration />}
          pagination={{
            hasPrevious: currentPage > 1,
            hasNext: currentPage < lastPage,
            onPrevious: () => update((current) => ({ ...current, page: Math.max(1, current.page - 1) })),
            onNext: () => update((current) => ({ ...current, page: current.page + 1 })),
            label: t("grid.footer", { page: currentPage, lastPage, total }),
          }}
        >
          {rows.map((row, index) => (
            <IndexTable.Row id={String(row[rowKey])} key={String(row[rowKey])} position={index}>
              {columns.map((column) => (
                <IndexTable.Cell key={column.key}>
                  <div className="grid-cell" data-column={column.key}>
                    {renderCell?.(column, row) ?? <DefaultCell column={column} row={row} timeZone={timeZone} />}
                  </div>
                </IndexTable.Cell>
              ))}
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
    </BlockStack>
  );
}
