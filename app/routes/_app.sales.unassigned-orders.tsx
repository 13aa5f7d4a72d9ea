// Unassigned Orders (spec 001 §2): increment_id ascending; Manually Assign per row;
// Order ID links to the Shopify admin when the order has a Shopify id; Generate
// Auto-Assignments File writes the eligible orders to the AS400, in the
// background (D93): the page follows the run to its result.
import { useLoaderData } from "@remix-run/react";
import { InlineStack, Link } from "@shopify/polaris";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { useConfirmSend } from "~/components/ConfirmSend";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { shopifyAdminOrderUrl } from "~/orders/order-grid";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";
import { unassignedOrderGrid } from "~/sales/grids.server";
import { reloadableGridShouldRevalidate, useGridReload } from "~/sales/use-grid-reload";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(async (context) => ({
  initial: await gridScreenData(unassignedOrderGrid, context.url.searchParams, context.t, { answerShape: "flat" }),
  shop: context.staff.shop,
  run: await pageRun("auto_assignment", context),
}));
export const shouldRevalidate = reloadableGridShouldRevalidate;

export default function UnassignedOrders() {
  const { t } = useTranslation();
  const { initial, shop, run } = useLoaderData<typeof loader>();
  const { mode } = useAppSettings();
  // The eligibility column changes with a new file: the rows are read again.
  const grid = useGridReload(initial);
  const texts = useMemo(() => ({ error: t("sales.unassigned.generate_error") }), [t]);
  const generate = useBackgroundRun(run, texts, { onEnded: (ended) => !ended.error && grid.reload() });
  const confirmSend = useConfirmSend();

  return (
    <GridScreen
      data={initial}
      gridKey={grid.key}
      title={t("sales.unassigned.title")}
      back="/sales"
      primaryAction={{
        content: t("sales.unassigned.generate"),
        loading: generate.running,
        disabled: generate.running,
        onAction: () =>
          confirmSend.ask(
            { title: t("confirm.auto_assignments.title"), body: t("confirm.auto_assignments.body"), action: t("sales.unassigned.generate") },
            () => void generate.start({ url: "/api/generate_auto_assignment_file" }),
          ),
      }}
      resourceName={resourceNames(t, "order")}
      loadErrorText={t("sales.unassigned.load_error")}
      emptyState={{ heading: t("sales.unassigned.empty_heading"), description: t("sales.unassigned.empty_description") }}
      renderCell={(column, row) => {
        if (column.key !== "increment_id" || !row.shopify_order_id) return undefined;
        // The spec's link to the Shopify admin stays; beside it, the order's page in the app (D261).
        return (
          <InlineStack gap="200" wrap={false}>
            <Link url={shopifyAdminOrderUrl(String(row.shopify_order_id), mode, shop)} external>
              {String(row.increment_id)}
            </Link>
            <Link url={`/order/${encodeURIComponent(String(row.increment_id))}`}>{t("order_story.open_link")}</Link>
          </InlineStack>
        );
      }}
    >
      {confirmSend.modal}
      <BackgroundRun state={generate} label={() => t("sales.unassigned.generate")} />
    </GridScreen>
  );
}
