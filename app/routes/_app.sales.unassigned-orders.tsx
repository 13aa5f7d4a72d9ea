// Unassigned Orders (spec 001 §2): increment_id ascending; Manually Assign per row;
// Order ID links to the Shopify admin when the order has a Shopify id; Generate
// Auto-Assignments File writes the eligible orders to the AS400.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Link, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { DataGrid } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/lib/route.server";
import { shopifyAdminOrderUrl } from "~/orders/order-grid";
import { listUnassignedOrders } from "~/sales/grids.server";
import { reloadableGridShouldRevalidate, useGridReload } from "~/sales/use-grid-reload";

export const loader = pageLoader(async ({ url, staff, t }) => ({
  initial: await gridPageData((params) => listUnassignedOrders(params, t), url.searchParams),
  shop: staff.shop,
}));
export const shouldRevalidate = reloadableGridShouldRevalidate;

export default function UnassignedOrders() {
  const { t } = useTranslation();
  const { initial, shop } = useLoaderData<typeof loader>();
  const { mode } = useAppSettings();
  // The eligibility column changes with a new file: the rows are read again.
  const grid = useGridReload(initial);
  const generate = useFormSubmit({ success: t("sales.unassigned.generated"), error: t("sales.unassigned.generate_error") });
  return (
    <Page
      fullWidth
      title={t("sales.unassigned.title")}
      backAction={{ content: t("buttons.back"), url: "/sales" }}
      primaryAction={{
        content: t("sales.unassigned.generate"),
        loading: generate.submitting,
        onAction: async () => {
          if ((await generate.submit({ url: "/api/generate_auto_assignment_file" })).ok) grid.reload();
        },
      }}
    >
      <BlockStack gap="400">
        <FormBanner outcome={generate.outcome} onDismiss={generate.dismiss} />
        <DataGrid
          key={grid.key}
          endpoint="/api/unassigned_orders"
          answerShape="flat"
          initial={initial}
          defaultSort={{ key: "increment_id", dir: "asc" }}
          rowKey="id"
          resourceName={{ singular: "order", plural: "orders" }}
          loadErrorText={t("sales.unassigned.load_error")}
          emptyState={{ heading: t("sales.unassigned.empty_heading"), description: t("sales.unassigned.empty_description") }}
          renderCell={(column, row) => {
            if (column.key !== "increment_id" || !row.shopify_order_id) return undefined;
            return (
              <Link url={shopifyAdminOrderUrl(String(row.shopify_order_id), mode, shop)} external>
                {String(row.increment_id)}
              </Link>
            );
          }}
        />
      </BlockStack>
    </Page>
  );
}
