// A list screen: the page (title, Back, actions) around the one grid. What the
// grid needs to ask for more pages (its /api path, default sort, row key,
// answer shape) comes with the first page from the loader (gridScreenData),
// known where the grid is defined; the route declares only what is its own:
// its words, Back, actions, and cells it shows in its own way (D143).
import { useLoaderData } from "@remix-run/react";
import { BlockStack } from "@shopify/polaris";
import type { TFunction } from "i18next";
import { useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AppPage, type AppPageProps } from "~/components/AppPage";
import { DataGrid, type DataGridProps, type GridPageData } from "./DataGrid";
import { KeyboardShortcuts } from "./KeyboardShortcuts";
import type { RowLink } from "./row-link";
import type { SortDir } from "./types";

/** A grid screen's loader data: the first page, and where and how the browser reads the next ones. */
export interface GridScreenData extends GridPageData {
  /** The grid's /api twin, e.g. "/api/dropship_log". */
  endpoint: string;
  defaultSort: { key: string; dir: SortDir };
  rowKey: string;
  answerShape: "nested" | "flat";
  /** Each row's own page (D273); null: rows open nothing. */
  rowLink: RowLink | null;
}

type OwnGridProps = Pick<
  DataGridProps,
  "resourceName" | "loadErrorText" | "parseErrorText" | "emptyState" | "renderCell" | "reloadKey" | "csvExport" | "bulkActions"
>;

export interface GridScreenProps extends Pick<AppPageProps, "title" | "primaryAction" | "secondaryActions">, OwnGridProps {
  data: GridScreenData;
  /** Where Back goes; a screen without Back leaves it out. */
  back?: string;
  /** Changing it starts the grid afresh from `data` (after the loader ran again: useGridReload). */
  gridKey?: number;
  /** What stands above the grid: banners, a background run, an introduction. */
  children?: ReactNode;
}

export function GridScreen({ data, title, back, primaryAction, secondaryActions, gridKey, children, ...own }: GridScreenProps) {
  const { t } = useTranslation();
  const { endpoint, defaultSort, rowKey, answerShape, answer, failed, rowLink } = data;
  // The same object while the loader's data is: with DataGrid's memo, a navigation's renders pass the grid by.
  const initial = useMemo(() => ({ answer, failed }), [answer, failed]);
  return (
    <AppPage
      fullWidth
      title={title}
      backAction={back ? { content: t("buttons.back"), url: back } : undefined}
      primaryAction={primaryAction}
      secondaryActions={secondaryActions}
    >
      <BlockStack gap="400">
        {children}
        <DataGrid
          key={gridKey}
          endpoint={endpoint}
          answerShape={answerShape}
          initial={initial}
          defaultSort={defaultSort}
          rowKey={rowKey}
          rowLink={rowLink ?? undefined}
          {...own}
        />
        <KeyboardShortcuts rowsOpen={Boolean(rowLink)} selectable={Boolean(own.bulkActions?.length)} />
      </BlockStack>
    </AppPage>
  );
}

/** What a screen with nothing of its own but words, Back, actions and cells says, in the reader's language. */
export type GridScreenDescription = Omit<GridScreenProps, "data" | "gridKey" | "children">;

/** The page of such a screen, its route's default export: the loader's gridScreenData under `describe(t)`. */
export function gridScreen(describe: (t: TFunction) => GridScreenDescription) {
  return function Screen() {
    const { t } = useTranslation();
    const data = useLoaderData<GridScreenData>();
    // Described once per language, so its cell renderer stays the same function (ListTable's rows are kept).
    const description = useMemo(() => describe(t), [t]);
    return <GridScreen data={data} {...description} />;
  };
}
