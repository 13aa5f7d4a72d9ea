// The Advanced Order Summary's table (spec 000 §2): IndexFilters with the
// saved views as tabs (All locked first), the named filters (text ones applied
// 500 ms after typing stops), the sort choices, and an IndexTable of the 23
// columns with the footer 'Page X of Y - Total Items: N'. The first page comes
// from the route loader; later ones from GET /api/advancedordergrid, through
// the shared list loader (URL state, retries). A failed load shows an empty
// list without a banner (spec 000 §8).
import { useSearchParams } from "@remix-run/react";
import { currentSearch } from "~/grid/list-url";
import {
  Banner,
  BlockStack,
  Box,
  Card,
  ChoiceList,
  IndexFilters,
  IndexFiltersMode,
  InlineStack,
  Link,
  TextField,
  useSetIndexFiltersMode,
} from "@shopify/polaris";
import type { IndexFiltersProps, TabProps } from "@shopify/polaris";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { ClearFiltersButton, GridTools } from "~/grid/GridTools";
import { useHiddenColumns } from "~/grid/grid-preferences";
import { ListTable } from "~/grid/ListTable";
import { OrderGridShortcuts, PAGE_KEYS } from "~/grid/KeyboardShortcuts";
import { TEXT_FILTER_DEBOUNCE_MS, listPagination, useDebounced, useListLoader } from "~/grid/use-list-loader";
import { NOT_AVAILABLE, titleCase } from "~/lib/format";
import {
  ORDER_COLUMNS,
  ORDER_FILTER_KEYS,
  ORDER_GRID,
  ORDER_OPTION_FILTERS,
  ORDER_SORT_KEYS,
  ORDER_TEXT_FILTERS,
  orderCellText,
  shopifyAdminOrderUrl,
  type OrderColumn,
  type OrderFilterKey,
  type OrderGridAnswer,
  type OrderGridRow,
  type OrderOptionFilter,
  type SavedView,
} from "./order-grid";
import {
  apiQueryForOrderState,
  defaultOrderState,
  isOptionFilter,
  orderStateFromSearch,
  sameSelection,
  searchForOrderState,
  stateForView,
  viewFiltersFromState,
  type OrderGridState,
} from "./order-grid-state";
import { VIEW_NAME_MAX, viewNameMessageKey, viewNameProblem } from "./saved-view-names";

export interface OrderGridProps {
  initial: { answer: OrderGridAnswer; failed: boolean };
  views: SavedView[];
  /** The shop's myshopify domain: local mode links orders to admin.shopify.com/store/<handle>. */
  shop: string;
}

/** Inputs typed into (debounced): the text filters and the grand total range. */
const TYPED_KEYS = [...(Object.keys(ORDER_TEXT_FILTERS) as OrderFilterKey[]), "grandTotalFrom", "grandTotalTo"] as OrderFilterKey[];
const SHORTCUTS = new Set<string>(["orderId", "customerEmail", "magentoOrderStatus", "marketplaceSource"]);
/** A large result's exact total is counted in the background: ask again this often, this many times. */
const NO_ROWS: OrderGridRow[] = [];
const orderRowKey = (row: OrderGridRow) => String(row.id);
const INEXACT_RELOAD_MS = 1500;
const INEXACT_RELOADS = 3;

const typedInputsOf = (state: OrderGridState) => Object.fromEntries(TYPED_KEYS.map((key) => [key, state.filters[key]?.[0] ?? ""])) as Record<string, string>;

const hasSelection = (state: OrderGridState) => Boolean(state.queryValue) || Object.keys(state.filters).length > 0;

function firstMessage(body: unknown): string | null {
  if (!body || typeof body !== "object") return null;
  const { errors, message } = body as { errors?: Record<string, string[]>; message?: string };
  const first = errors ? Object.values(errors).flat()[0] : undefined;
  return first ?? message ?? null;
}

export function OrderGrid({ initial, views: initialViews, shop }: OrderGridProps) {
  const { t } = useTranslation();
  const { timeZone, locale, mode: appMode } = useAppSettings();
  const [searchParams] = useSearchParams();
  const [views, setViews] = useState<SavedView[]>(initialViews);
  const [viewError, setViewError] = useState<string | null>(null);
  // The staff member's columns (D268): the fulfilment status can stand next to the order number.
  const [hiddenColumns, setHiddenColumns] = useHiddenColumns(ORDER_GRID, locale);
  const [initialState] = useState<OrderGridState>(() => {
    const fromUrl = orderStateFromSearch(currentSearch(searchParams));
    return initial.failed ? { ...fromUrl, page: 1 } : fromUrl;
  });
  const { mode, setMode } = useSetIndexFiltersMode(hasSelection(initialState) ? IndexFiltersMode.Filtering : IndexFiltersMode.Default);

  // What the inputs show right now; applied to the state after the debounce.
  const [queryInput, setQueryInput] = useState(initialState.queryValue);
  const [typed, setTyped] = useState<Record<string, string>>(() => typedInputsOf(initialState));
  const showInputsOf = useCallback((next: OrderGridState) => {
    setQueryInput(next.queryValue);
    setTyped(typedInputsOf(next));
  }, []);

  const { state, setState, setStateInTransition, answer, failed, loading, reload } = useListLoader<OrderGridState, OrderGridAnswer>({
    initialState,
    initialAnswer: initial.answer,
    initialFailed: initial.failed,
    fromSearch: orderStateFromSearch,
    toSearch: searchForOrderState,
    apiUrl: (next) => `/api/advancedordergrid?${apiQueryForOrderState(next, locale)}`,
    firstPage: (current) => ({ ...current, page: 1 }),
    onNavigate: (next) => {
      showInputsOf(next);
      if (!hasSelection(next)) setMode(IndexFiltersMode.Default);
    },
  });

  // Changing a filter goes back to page 1 (spec 000 §4).
  const setFilter = useCallback(
    (key: OrderFilterKey, values: string[]) =>
      setState((current) => {
        const filters = { ...current.filters };
        if (values.length) filters[key] = values;
        else delete filters[key];
        return { ...current, filters, page: 1 };
      }),
    [setState],
  );

  useDebounced(queryInput, TEXT_FILTER_DEBOUNCE_MS, (value) =>
    setState((current) => (current.queryValue === value.trim() ? current : { ...current, queryValue: value.trim(), page: 1 })),
  );
  useDebounced(typed, TEXT_FILTER_DEBOUNCE_MS, (inputs) =>
    setState((current) => {
      const filters = { ...current.filters };
      let changed = false;
      for (const key of TYPED_KEYS) {
        const value = (inputs[key] ?? "").trim();
        if ((current.filters[key]?.[0] ?? "") === value) continue;
        changed = true;
        if (value) filters[key] = [value];
        else delete filters[key];
      }
      return changed ? { ...current, filters, page: 1 } : current;
    }),
  );

  // A large result's first answer carries a lower bound; the exact total follows shortly.
  const inexactReloads = useRef({ key: "", count: 0 });
  useEffect(() => {
    if (failed || answer.total_exact !== false) return;
    const key = JSON.stringify(state);
    if (inexactReloads.current.key !== key) inexactReloads.current = { key, count: 0 };
    if (inexactReloads.current.count >= INEXACT_RELOADS) return;
    const timer = setTimeout(() => {
      inexactReloads.current.count += 1;
      reload();
    }, INEXACT_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [answer, failed, state, reload]);

  // --- saved views --------------------------------------------------------------------
  const allLabel = t("orders.views.all");
  const selectedView = views.find((view) => view.id === state.view) ?? null;
  const selectedTab = selectedView ? views.indexOf(selectedView) + 1 : 0;

  const showView = useCallback(
    (view: SavedView | null) => {
      const next = stateForView(view);
      showInputsOf(next);
      setState(next);
    },
    [setState, showInputsOf],
  );

  const nameProblem = (name: string, context: { others: SavedView[]; current?: string }) => {
    const problem = viewNameProblem(name, { others: context.others.map((view) => view.name), reserved: [allLabel], current: context.current });
    return problem ? t(viewNameMessageKey(problem), { name: name.trim(), max: VIEW_NAME_MAX }) : null;
  };

  async function send(path: string, body: Record<string, unknown>): Promise<{ data?: SavedView; message?: string } | null> {
    let response: Response;
    try {
      response = await fetch(`${path}?locale=${encodeURIComponent(locale)}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch {
      setViewError(t("orders.views.errors.save"));
      return null;
    }
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      setViewError(firstMessage(json) ?? t("orders.views.errors.save"));
      return null;
    }
    setViewError(null);
    return (json ?? {}) as { data?: SavedView };
  }

  /** Checks a name by the spec's rules (as the server does), then lets `write` save it. */
  async function named(name: string, context: { others: SavedView[]; current?: string }, write: (name: string) => ReturnType<typeof send>) {
    const problem = nameProblem(name, context);
    if (problem) {
      setViewError(problem);
      return null;
    }
    return (await write(name.trim()))?.data ?? null;
  }

  const replaceView = (saved: SavedView) => setViews((current) => current.map((item) => (item.id === saved.id ? saved : item)));

  async function createView(name: string): Promise<boolean> {
    const created = await named(name, { others: views }, (trimmed) =>
      send("/api/saved_views", { grid: ORDER_GRID, name: trimmed, filters: viewFiltersFromState(state) }),
    );
    if (!created) return false;
    setViews((current) => [...current, created]);
    setState((current) => ({ ...current, view: created.id }));
    return true;
  }

  async function saveViewFilters(view: SavedView): Promise<boolean> {
    const saved = (await send(`/api/saved_views/${view.id}`, { _method: "PUT", filters: viewFiltersFromState(state) }))?.data;
    if (saved) replaceView(saved);
    return Boolean(saved);
  }

  async function renameView(view: SavedView, name: string): Promise<boolean> {
    const others = views.filter((item) => item.id !== view.id);
    const renamed = await named(name, { others, current: view.name }, (trimmed) => send(`/api/saved_views/${view.id}`, { _method: "PUT", name: trimmed }));
    if (renamed) replaceView(renamed);
    return Boolean(renamed);
  }

  async function duplicateView(view: SavedView, name: string): Promise<boolean> {
    const copy = await named(name, { others: views }, (trimmed) => send(`/api/saved_views/${view.id}`, { _action: "duplicate", name: trimmed }));
    if (!copy) return false;
    setViews((current) => [...current, copy]);
    showView(copy);
    return true;
  }

  async function deleteView(view: SavedView): Promise<boolean> {
    const result = await send(`/api/saved_views/${view.id}`, { _method: "DELETE" });
    if (!result) return false;
    setViews((current) => current.filter((item) => item.id !== view.id));
    if (state.view === view.id) showView(null);
    return true;
  }

  const tabs: TabProps[] = [
    { id: "view-all", content: allLabel, isLocked: true, actions: [] },
    ...views.map((view): TabProps => ({
      id: `view-${view.id}`,
      content: view.name,
      actions: [
        { type: "rename", onPrimaryAction: (name) => renameView(view, name) },
        { type: "edit", onAction: () => setMode(IndexFiltersMode.Filtering) },
        { type: "duplicate", onPrimaryAction: (name) => duplicateView(view, name) },
        { type: "delete", onPrimaryAction: () => deleteView(view) },
      ],
    })),
  ];

  const changedFromView = selectedView ? !sameSelection(state, stateForView(selectedView)) : hasSelection(state);
  const primaryAction: IndexFiltersProps["primaryAction"] = selectedView
    ? { type: "save", onAction: () => saveViewFilters(selectedView), disabled: !changedFromView }
    : { type: "save-as", onAction: (name) => createView(name), disabled: !changedFromView };

  // --- filters and sort ----------------------------------------------------------------
  const filterLabel = useCallback((key: string) => t(`orders.filters.${key}`), [t]);
  const optionLabel = useCallback(
    (key: OrderOptionFilter, value: string) => {
      if (key === "giftCardUsed") return value === "1" ? t("grid.yes") : t("grid.no");
      if (key === "marketplaceSource" && value === "") return t("orders.options.houser");
      return titleCase(value);
    },
    [t],
  );

  const typedField = (key: OrderFilterKey, label: string, options: { labelHidden?: boolean; money?: boolean } = {}) => (
    <TextField
      label={label}
      labelHidden={options.labelHidden}
      autoComplete="off"
      type={options.money ? "number" : "text"}
      prefix={options.money ? "$" : undefined}
      value={typed[key] ?? ""}
      onChange={(value) => setTyped((inputs) => ({ ...inputs, [key]: value }))}
    />
  );

  const filters = useMemo(() => {
    const list: IndexFiltersProps["filters"] = [];
    for (const key of ORDER_FILTER_KEYS) {
      if (key === "grandTotalTo") continue;
      if (key === "grandTotalFrom") {
        list.push({
          key: "grandTotal",
          label: filterLabel("grandTotal"),
          filter: (
            <InlineStack gap="200" wrap={false}>
              {typedField("grandTotalFrom", filterLabel("grandTotalFrom"), { money: true })}
              {typedField("grandTotalTo", filterLabel("grandTotalTo"), { money: true })}
            </InlineStack>
          ),
        });
      } else if (isOptionFilter(key)) {
        list.push({
          key,
          label: filterLabel(key),
          shortcut: SHORTCUTS.has(key),
          filter: (
            <ChoiceList
              title={filterLabel(key)}
              titleHidden
              allowMultiple={key !== "giftCardUsed"}
              choices={ORDER_OPTION_FILTERS[key].map((value) => ({ value, label: optionLabel(key, value) }))}
              selected={state.filters[key] ?? []}
              onChange={(selected) => setFilter(key, selected)}
            />
          ),
        });
      } else {
        list.push({ key, label: filterLabel(key), shortcut: SHORTCUTS.has(key), filter: typedField(key, filterLabel(key), { labelHidden: true }) });
      }
    }
    return list;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.filters, typed, filterLabel, optionLabel, setFilter]);

  const clearTyped = (keys: OrderFilterKey[]) => setTyped((inputs) => ({ ...inputs, ...Object.fromEntries(keys.map((key) => [key, ""])) }));
  const appliedFilters: IndexFiltersProps["appliedFilters"] = [];
  for (const key of ORDER_FILTER_KEYS) {
    const values = state.filters[key];
    if (!values?.length || key === "grandTotalFrom" || key === "grandTotalTo") continue;
    const shown = isOptionFilter(key) ? values.map((value) => optionLabel(key, value)).join(", ") : values[0];
    appliedFilters.push({
      key,
      label: `${filterLabel(key)}: ${shown}`,
      onRemove: () => {
        clearTyped([key]);
        setFilter(key, []);
      },
    });
  }
  const from = state.filters.grandTotalFrom?.[0];
  const to = state.filters.grandTotalTo?.[0];
  if (from || to) {
    appliedFilters.push({
      key: "grandTotal",
      label: `${filterLabel("grandTotal")}: ${from ? `$${from}` : "…"} – ${to ? `$${to}` : "…"}`,
      onRemove: () => {
        clearTyped(["grandTotalFrom", "grandTotalTo"]);
        setState((current) => {
          const { grandTotalFrom: _from, grandTotalTo: _to, ...rest } = current.filters;
          return { ...current, filters: rest, page: 1 };
        });
      },
    });
  }

  const sortOptions: IndexFiltersProps["sortOptions"] = ORDER_SORT_KEYS.flatMap((key) => [
    { label: t(`orders.columns.${key}`), value: `${key} asc` as const, directionLabel: t("orders.sort.asc") },
    { label: t(`orders.columns.${key}`), value: `${key} desc` as const, directionLabel: t("orders.sort.desc") },
  ]);
  const sortBy = (sort: string, sortDir: "asc" | "desc") => setState((current) => ({ ...current, sort, sort_dir: sortDir, page: 1 }));
  // A heading's sort renders as a transition (the sort menu's choice shows the state, so it does not).
  const sortByHeading = (sort: string, sortDir: "asc" | "desc") => setStateInTransition((current) => ({ ...current, sort, sort_dir: sortDir, page: 1 }));

  // --- the table -----------------------------------------------------------------------
  const rows = failed ? NO_ROWS : answer.data;
  const total = failed ? 0 : answer.total;
  const lastPage = failed ? 1 : answer.last_page;
  // The footer describes the rows shown: the loaded page, not the one being asked for.
  const currentPage = failed ? 1 : answer.current_page;
  const shownTotal = failed || answer.total_exact !== false ? String(total) : `${total}+`;

  // Stable between renders, so a sort or the loading bar does not render every cell again (ListTable).
  const yes = t("grid.yes");
  const no = t("grid.no");
  const viewOrder = t("orders.columns.view_order");
  const cell = useCallback(
    (key: string, row: OrderGridRow) => {
      const column = key as OrderColumn;
      const text = orderCellText(column, row, { timeZone, yes, no, viewOrder });
      if (column === "order_id" && row.order_id) {
        // The order's page in the app (issue 32, D261); View Order keeps going to the order in the Shopify admin.
        return <Link url={`/order/${encodeURIComponent(row.order_id)}`}>{text}</Link>;
      }
      if (column === "view_order" && row.shopify_order_id) {
        // An order in the Shopify admin, in a new tab (App Bridge resolves shopify:admin/ in embedded mode).
        return (
          <Link url={shopifyAdminOrderUrl(row.shopify_order_id, appMode, shop)} external>
            {text}
          </Link>
        );
      }
      return column === "view_order" ? NOT_AVAILABLE : text;
    },
    [timeZone, yes, no, viewOrder, appMode, shop],
  );
  const allColumns = useMemo(
    () =>
      ORDER_COLUMNS.map((column) => ({
        key: column,
        title: t(`orders.columns.${column}`),
        sortable: (ORDER_SORT_KEYS as readonly string[]).includes(column),
      })),
    [t],
  );
  const tableColumns = useMemo(() => allColumns.filter((column) => !hiddenColumns.includes(column.key)), [allColumns, hiddenColumns]);

  // The CSV of what the grid shows: filters, search, sort, every page, the columns shown (D265).
  const csvQuery = apiQueryForOrderState(state, locale);
  csvQuery.delete("page");
  csvQuery.set("format", "csv");
  if (hiddenColumns.length)
    csvQuery.set(
      "columns",
      tableColumns
        .filter((column) => column.key !== "view_order")
        .map((column) => column.key)
        .join(","),
    );
  const csvUrl = `/api/advancedordergrid?${csvQuery.toString()}`;

  // Filters that hide every order say so, not "no orders yet" (D269).
  const filtered = hasSelection(state);
  const clearAll = () => {
    showInputsOf({ ...defaultOrderState(), view: state.view });
    setState((current) => ({ ...current, queryValue: "", filters: {}, page: 1 }));
  };

  return (
    <BlockStack gap="400">
      {viewError && (
        <Banner tone="critical" onDismiss={() => setViewError(null)}>
          <p>{viewError}</p>
        </Banner>
      )}
      <Card padding="0">
        <Box paddingBlockStart="200" paddingInline="200">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <GridTools
              columns={allColumns}
              hidden={hiddenColumns}
              onHiddenChange={(hidden) => void setHiddenColumns(hidden)}
              csvUrl={csvUrl}
              csvFallbackName="orders.csv"
            />
            <OrderGridShortcuts />
          </InlineStack>
        </Box>
        <IndexFilters
          tabs={tabs}
          selected={selectedTab}
          onSelect={(index) => showView(index === 0 ? null : (views[index - 1] ?? null))}
          canCreateNewView
          onCreateNewView={createView}
          sortOptions={sortOptions}
          sortSelected={[`${state.sort} ${state.sort_dir}`]}
          onSort={([value]) => {
            const [sort, sortDir] = (value ?? "").split(" ");
            if (sort && (sortDir === "asc" || sortDir === "desc")) sortBy(sort, sortDir);
          }}
          queryValue={queryInput}
          queryPlaceholder={t("orders.search_placeholder")}
          onQueryChange={setQueryInput}
          onQueryClear={() => setQueryInput("")}
          filters={filters}
          appliedFilters={appliedFilters}
          onClearAll={clearAll}
          primaryAction={primaryAction}
          cancelAction={{
            onAction: () => {
              const restored = selectedView ? stateForView(selectedView) : { ...defaultOrderState(), sort: state.sort, sort_dir: state.sort_dir };
              showInputsOf(restored);
              setState(restored);
            },
          }}
          mode={mode}
          setMode={setMode}
          loading={loading}
        />
        <ListTable
          resourceName={{ singular: t("orders.resource.singular"), plural: t("orders.resource.plural") }}
          columns={tableColumns}
          rows={rows}
          rowKey={orderRowKey}
          cell={cell}
          sort={{ key: state.sort, dir: state.sort_dir }}
          onSort={sortByHeading}
          loading={loading}
          emptyState={
            filtered
              ? { heading: t("grid.filtered_empty"), description: t("grid.filtered_empty_description") }
              : { heading: t("orders.empty_heading"), description: t("orders.empty_description") }
          }
          pagination={{
            ...listPagination(setStateInTransition, {
              currentPage,
              lastPage,
              label: t("grid.footer", { page: currentPage, lastPage, total: shownTotal }),
            }),
            ...PAGE_KEYS,
          }}
        />
        {filtered && !failed && rows.length === 0 && <ClearFiltersButton onClear={clearAll} />}
      </Card>
    </BlockStack>
  );
}
