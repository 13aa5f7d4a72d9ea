// The one grid every list screen uses: server-defined columns, filters (text
// ones applied 500 ms after typing stops), sort per column, paging with the
// footer 'Page X of Y - Total Items: N', empty state, and the screen's error
// banner when a load fails (page 1, total 0, empty list). The first page comes
// from the route loader; later pages from the /api twin, with retries.
import { useSearchParams } from "@remix-run/react";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Card, ChoiceList, Filters, InlineStack, Link, TextField } from "@shopify/polaris";
import { memo, useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { formatDateTime, titleCase, withLocale } from "~/lib/format";
import { ClearFiltersButton, GridTools } from "./GridTools";
import { useHiddenColumns } from "./grid-preferences";
import { fillPath, pathFields } from "./cell-link";
import { PAGE_KEYS } from "./KeyboardShortcuts";
import { ListTable, type ListBulkAction } from "./ListTable";
import { rowLinkUrl, type RowLink } from "./row-link";
import { useGridKeys } from "./use-grid-keys";
import { currentSearch } from "./list-url";
import { apiQueryForListState, listStateFromSearch, searchForListState } from "./list-state";
import { AnswerShapeError, TEXT_FILTER_DEBOUNCE_MS, listPagination, useDebounced, useListLoader } from "./use-list-loader";
import type { GridAnswer, GridColumn, GridLink, GridRow, ListState, SortDir } from "./types";

export { TEXT_FILTER_DEBOUNCE_MS };

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
  /** The banner when an answer came but cannot be read (spec 001 §8's "Failed to parse … data"); loadErrorText otherwise. */
  parseErrorText?: string;
  /** "nested" (default): data.data, data.last_page…; "flat": data, last_page… at the top level. */
  answerShape?: "nested" | "flat";
  emptyState: { heading: string; description?: string };
  /** A screen's own rendering of a cell; undefined falls back to the data type. */
  renderCell?: (column: GridColumn, row: GridRow) => ReactNode | undefined;
  /** Changing it loads the current page again (e.g. after a screen's action added rows). */
  reloadKey?: number;
  /** false: no Export CSV of the grid's own (a screen with its own export, the EOD report). */
  csvExport?: boolean;
  /** What staff can do to the rows they select (D272); without them rows are not selectable. Keep it stable. */
  bulkActions?: ReadonlyArray<ListBulkAction>;
  /** Each row's own page (D273). */
  rowLink?: RowLink;
}

/** A date range filter's value, "from..to" (D266), as its two days. */
function daysOf(value: string | undefined): { from: string; to: string } {
  const [from = "", to = ""] = (value ?? "").split("..");
  return { from, to };
}

const rangeValue = (from: string, to: string) => (from || to ? `${from}..${to}` : "");

const NO_ROWS: GridRow[] = [];

/** Grid screens re-query through the API; a change of their search alone needs no loader run. */
export const gridShouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) =>
  !formMethod && currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;

type FlatAnswer = Omit<GridAnswer["data"], "data"> & { data: GridRow[]; columns: GridAnswer["columns"] };

function fromFlatAnswer({ data, columns, ...page }: FlatAnswer): GridAnswer {
  return { data: { ...page, data }, columns };
}

/** The answer as the grid keeps it; an AnswerShapeError when it is not a grid's answer. */
function readAnswer(json: unknown, shape: "nested" | "flat"): GridAnswer {
  const answer = shape === "flat" && json && typeof json === "object" ? fromFlatAnswer(json as FlatAnswer) : (json as GridAnswer);
  if (!answer || typeof answer !== "object" || !Array.isArray(answer.columns) || !answer.data || !Array.isArray(answer.data.data))
    throw new AnswerShapeError("not a grid answer");
  return answer;
}

function linkHref(link: GridLink, row: GridRow) {
  if (pathFields(link.path).length) return fillPath(link.path, row) ?? link.path;
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
    case "select": {
      if (value === null || value === undefined) return null;
      const label = column.options?.[String(value)] ?? titleCase(String(value));
      // A status: a Badge toned by what it means (its tone is also read out, in the staff member's language).
      return column.tones ? <Badge tone={column.tones[String(value)] ?? undefined}>{label}</Badge> : <>{label}</>;
    }
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
    default: {
      const text = value === null || value === undefined ? "" : String(value);
      const href = column.cellLink && text ? fillPath(column.cellLink, row) : null;
      return href ? <Link url={href}>{text}</Link> : <>{text}</>;
    }
  }
}

/** Rendered again only when its props change: a navigation starting elsewhere on the page passes it by. */
export const DataGrid = memo(function DataGrid(props: DataGridProps) {
  const {
    endpoint,
    initial,
    defaultSort,
    rowKey,
    resourceName,
    loadErrorText,
    parseErrorText,
    emptyState,
    renderCell,
    answerShape = "nested",
    reloadKey,
    csvExport = true,
    bulkActions,
    rowLink,
  } = props;
  const { t } = useTranslation();
  const { timeZone, locale } = useAppSettings();
  // Each staff member's columns (D268), the grid known by its /api twin's name.
  const gridId = endpoint.replace(/^\/api\//, "");
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns(gridId, locale);

  const [columns, setColumns] = useState<GridColumn[]>(initial.answer.columns);
  const [bannerVisible, setBannerVisible] = useState(initial.failed && Boolean(loadErrorText));
  const [failedToParse, setFailedToParse] = useState(false);
  const [searchParams] = useSearchParams();
  const [initialState] = useState<ListState>(() => {
    // The address bar, which may be ahead of the router (./list-url.ts), as the loader that answered read it.
    const fromUrl = listStateFromSearch(currentSearch(searchParams), initial.answer.columns, defaultSort);
    return initial.failed ? { ...fromUrl, page: 1 } : fromUrl;
  });
  const { state, setState, setStateInTransition, answer, failed, loading, reload } = useListLoader<ListState, GridAnswer>({
    initialState,
    initialAnswer: initial.answer,
    initialFailed: initial.failed,
    fromSearch: (search) => listStateFromSearch(search, columns, defaultSort),
    toSearch: (next, current) => searchForListState(next, current, columns),
    apiUrl: (next) => `${endpoint}?${apiQueryForListState(next, locale)}`,
    parse: (json) => readAnswer(json, answerShape),
    firstPage: (current) => ({ ...current, page: 1 }),
    onNavigate: (next) => {
      setQueryInput(next.queryValue);
      setTextInputs({ ...next.filters });
    },
    onLoaded: (loaded) => {
      setColumns(loaded.columns);
      setBannerVisible(false);
    },
    onFailed: (reason) => {
      setFailedToParse(reason === "parse" && Boolean(parseErrorText));
      setBannerVisible(reason === "parse" ? Boolean(parseErrorText || loadErrorText) : Boolean(loadErrorText));
    },
  });
  const page = answer.data;
  useEffect(() => {
    if (reloadKey) reload();
  }, [reloadKey, reload]);

  // What the text inputs show right now; applied to `state` after the debounce.
  const [queryInput, setQueryInput] = useState(state.queryValue);
  const [textInputs, setTextInputs] = useState<Record<string, string>>(() => ({ ...state.filters }));

  const update = useCallback((change: (current: ListState) => ListState) => setState(change), [setState]);
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

  const rows = failed ? NO_ROWS : page.data;
  const total = failed ? 0 : page.total;
  const lastPage = failed ? 1 : page.last_page;
  // The footer describes the rows shown: the loaded page, not the one being asked for.
  const currentPage = failed ? 1 : page.current_page;

  const filters = useMemo(
    () =>
      columns
        .filter((column) => column.filter !== "none")
        .map((column) => ({
          key: column.key,
          label: column.label,
          shortcut: true,
          filter:
            column.filter === "date_range" ? (
              <InlineStack gap="200" wrap={false}>
                {(["from", "to"] as const).map((side) => (
                  <TextField
                    key={side}
                    type="date"
                    label={t(`grid.date_${side}`)}
                    autoComplete="off"
                    value={daysOf(state.filters[column.key])[side]}
                    onChange={(value) => {
                      const days = { ...daysOf(state.filters[column.key]), [side]: value };
                      applyFilter(column.key, rangeValue(days.from, days.to));
                    }}
                  />
                ))}
              </InlineStack>
            ) : column.filter === "select" ? (
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

  // Stable between renders, so a sort or the loading bar does not render every cell again (ListTable).
  const tableColumns = useMemo(
    () =>
      columns.filter((column) => !hiddenColumns.includes(column.key)).map((column) => ({ key: column.key, title: column.label, sortable: column.sortable })),
    [columns, hiddenColumns],
  );
  const rowKeyOf = useCallback((row: GridRow) => String(row[rowKey]), [rowKey]);
  const cell = useCallback(
    (key: string, row: GridRow) => {
      const column = columns.find((candidate) => candidate.key === key)!;
      return renderCell?.(column, row) ?? <DefaultCell column={column} row={row} timeZone={timeZone} />;
    },
    [columns, renderCell, timeZone],
  );

  // Filters that hide every row say so, not the screen's "nothing yet" (D269).
  const filtered = Boolean(state.queryValue.trim()) || Object.keys(state.filters).length > 0;
  const filteredEmpty = filtered && !failed && rows.length === 0 && total === 0;
  const shownEmptyState = useMemo(
    () => (filtered ? { heading: t("grid.filtered_empty"), description: t("grid.filtered_empty_description") } : emptyState),
    [filtered, emptyState, t],
  );
  const clearAll = useCallback(() => {
    setQueryInput("");
    setTextInputs({});
    update((current) => ({ ...current, queryValue: "", filters: {}, page: 1 }));
  }, [update]);
  // A row opens its page in the language the list is read in.
  const pageLocale = searchParams.get("locale");
  const rowUrl = useMemo(() => {
    if (!rowLink) return undefined;
    return (row: GridRow) => {
      const url = rowLinkUrl(rowLink, row);
      return url && pageLocale ? withLocale(url, `?locale=${encodeURIComponent(pageLocale)}`) : url;
    };
  }, [rowLink, pageLocale]);
  const rowLinkLabel = useCallback(
    (row: GridRow) => t("shortcuts.open_record", { record: resourceName.singular, id: String(row[rowKey] ?? "") }),
    [t, resourceName.singular, rowKey],
  );
  const gridRoot = useGridKeys();

  // The table as an element kept between renders: a keystroke in the search field renders the field, not the table.
  const footer = t("grid.footer", { page: currentPage, lastPage, total });
  const table = useMemo(
    () => (
      <ListTable
        resourceName={resourceName}
        columns={tableColumns}
        rows={rows}
        rowKey={rowKeyOf}
        cell={cell}
        sort={{ key: state.sort, dir: state.sort_dir }}
        onSort={(sort, sortDir) => setStateInTransition((current) => ({ ...current, sort, sort_dir: sortDir, page: 1 }))}
        loading={loading}
        emptyState={shownEmptyState}
        pagination={{ ...listPagination(setStateInTransition, { currentPage, lastPage, label: footer }), ...PAGE_KEYS }}
        bulkActions={bulkActions}
        rowUrl={rowUrl}
        rowLinkLabel={rowLinkLabel}
      />
    ),
    [
      resourceName,
      tableColumns,
      rows,
      rowKeyOf,
      cell,
      state.sort,
      state.sort_dir,
      setStateInTransition,
      loading,
      shownEmptyState,
      currentPage,
      lastPage,
      footer,
      bulkActions,
      rowUrl,
      rowLinkLabel,
    ],
  );

  const appliedFilters = columns
    .filter((column) => state.filters[column.key])
    .map((column) => {
      const value = state.filters[column.key];
      const days = daysOf(value);
      const shown =
        column.filter === "select"
          ? (column.options?.[value] ?? value)
          : column.filter === "date_range"
            ? t("grid.date_range_applied", { from: days.from || "…", to: days.to || "…" })
            : value;
      return {
        key: column.key,
        label: `${column.label}: ${shown}`,
        onRemove: () => {
          setTextInputs((inputs) => ({ ...inputs, [column.key]: "" }));
          applyFilter(column.key, "");
        },
      };
    });

  const chooserColumns = useMemo(() => columns.map((column) => ({ key: column.key, title: column.label })), [columns]);
  // The CSV of what the grid shows: its filters, search and sort, every page, the columns shown (D265).
  const csvQuery = apiQueryForListState(state, locale);
  csvQuery.delete("page");
  csvQuery.set("format", "csv");
  if (hiddenColumns.length) {
    const shownKeys = columns.filter((column) => column.dataType !== "links" && !hiddenColumns.includes(column.key)).map((column) => column.key);
    csvQuery.set("columns", shownKeys.join(","));
  }
  const csvUrl = `${endpoint}?${csvQuery.toString()}`;

  return (
    <div ref={gridRoot} className="data-grid">
      <BlockStack gap="400">
        {bannerVisible && (
          <Banner tone="critical" onDismiss={() => setBannerVisible(false)}>
            <p>{failedToParse ? parseErrorText : loadErrorText}</p>
          </Banner>
        )}
        <Card padding="0">
          <Box paddingBlockStart="200" paddingInline="200">
            <GridTools
              columns={chooserColumns}
              hidden={hiddenColumns}
              onHiddenChange={(hidden) => void setHiddenColumns(hidden)}
              csvUrl={csvExport ? csvUrl : undefined}
              csvFallbackName={`${gridId}.csv`}
            />
          </Box>
          <Filters
            queryValue={queryInput}
            queryPlaceholder={t("grid.search")}
            filters={filters}
            appliedFilters={appliedFilters}
            onQueryChange={setQueryInput}
            onQueryClear={() => setQueryInput("")}
            onClearAll={clearAll}
            loading={loading}
          />
          {table}
          {filteredEmpty && <ClearFiltersButton onClear={clearAll} />}
        </Card>
      </BlockStack>
    </div>
  );
});
