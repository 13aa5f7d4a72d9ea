// Advanced Order Summary (spec 000 §2; design: /advancedorder, 'View All Orders'
// clears the filters and comes back here). The loader renders the first page
// from the URL with the same server function as GET /api/advancedordergrid.
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { listPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { ORDER_GRID } from "~/orders/order-grid";
import { listOrderGrid } from "~/orders/order-grid.server";
import { OrderGrid } from "~/orders/OrderGrid";
import { listSavedViews } from "~/orders/saved-views.server";

export const loader = pageLoader(async ({ url, staff }) => {
  const [initial, views] = await Promise.all([
    // The order grid fails silently to an empty list (spec 000 §8).
    listPageData(
      (params) => listOrderGrid(params),
      url.searchParams,
      (answer) => ({ ...answer, data: [], total: 0, last_page: 1, current_page: 1 }),
    ),
    listSavedViews(staff.shop, ORDER_GRID),
  ]);
  return { initial, views: views.data, shop: staff.shop };
});

export const shouldRevalidate = gridShouldRevalidate;

export default function AdvancedOrderSummary() {
  const { t } = useTranslation();
  const { initial, views, shop } = useLoaderData<typeof loader>();
  return (
    <AppPage fullWidth title={t("orders.title")} primaryAction={{ content: t("orders.view_all"), url: "/advancedorder" }}>
      <OrderGrid initial={initial} views={views} shop={shop} />
    </AppPage>
  );
}
