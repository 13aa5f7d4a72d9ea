// Current Special Orders (spec 001 §2): order_id descending, totals in USD, View Order
// (the order in the Shopify admin, new tab), and Pull New Special Orders, which
// runs in the background (D93): the page follows the run to its result.
import { useLoaderData } from "@remix-run/react";
import { Link } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { useConfirmSend } from "~/components/ConfirmSend";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import type { GridColumn, GridRow } from "~/grid/types";
import { formatMoney } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { shopifyAdminOrderUrl } from "~/orders/order-grid";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";
import { listCurrentSpecialOrders, specialOrderCurrentGrid } from "~/special-orders/special-orders.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(async (context) => {
  const { url, t, staff } = context;
  const [initial, run] = await Promise.all([
    // The rows as GET /api/special_order_current has them (totals as decimal text).
    gridScreenData(specialOrderCurrentGrid, url.searchParams, t, {
      answerShape: "flat",
      load: async (params) => {
        const { columns, data, ...page } = await listCurrentSpecialOrders(params);
        return { data: { ...page, data }, columns };
      },
    }),
    pageRun("special_order_pull", context),
  ]);
  return { initial, shop: staff.shop, run };
});
export const shouldRevalidate = gridShouldRevalidate;

export default function CurrentSpecialOrders() {
  const { t } = useTranslation();
  const { mode } = useAppSettings();
  const { initial, shop, run } = useLoaderData<typeof loader>();
  const [reloadKey, setReloadKey] = useState(0);
  const texts = useMemo(() => ({ error: t("special_orders.pull_error") }), [t]);
  // New orders show in the grid once the pull has ended.
  const pull = useBackgroundRun(run, texts, { onEnded: () => setReloadKey((key) => key + 1) });

  const renderCell = (column: GridColumn, row: GridRow) => {
    if (column.key === "grand_total_base" || column.key === "grand_total_purchased") return formatMoney(row[column.key] as string | null);
    if (column.key === "actions") {
      const id = row.shopify_order_id ? String(row.shopify_order_id) : "";
      return id ? (
        <Link url={shopifyAdminOrderUrl(id, mode, shop)} external>
          {t("special_orders.view_order")}
        </Link>
      ) : null;
    }
    return undefined;
  };

  const confirmSend = useConfirmSend();

  return (
    <GridScreen
      data={initial}
      title={t("special_orders.current_title")}
      back="/special_order"
      primaryAction={{
        content: t("special_orders.pull"),
        loading: pull.running,
        disabled: pull.running,
        onAction: () =>
          confirmSend.ask(
            { title: t("confirm.special_order_pull.title"), body: t("confirm.special_order_pull.body"), action: t("special_orders.pull") },
            () => void pull.start({ url: "/api/special_order_pull" }),
          ),
      }}
      resourceName={resourceNames(t, "special_order")}
      loadErrorText={t("special_orders.load_error")}
      emptyState={{ heading: t("special_orders.empty_current"), description: t("special_orders.empty_description") }}
      renderCell={renderCell}
      reloadKey={reloadKey}
    >
      {confirmSend.modal}
      <BackgroundRun state={pull} label={() => t("special_orders.pull")} />
    </GridScreen>
  );
}
