// Special Order Errors (spec 001 §2): id descending; Revise opens /special_order/revise?id=.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { listSpecialOrderErrors } from "~/special-orders/special-orders.server";

export const loader = pageLoader(({ url, t }) =>
  gridPageData(
    async (params) => {
      const { columns, data, ...page } = await listSpecialOrderErrors(params);
      return { data: { ...page, data }, columns };
    },
    url.searchParams,
    t,
  ),
);
export const shouldRevalidate = gridShouldRevalidate;

export default function SpecialOrderErrors() {
  const { t } = useTranslation();
  return (
    <AppPage fullWidth title={t("special_orders.error_title")} backAction={{ content: t("buttons.back"), url: "/special_order" }}>
      <DataGrid
        endpoint="/api/special_order_error"
        answerShape="flat"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "error", plural: "errors" }}
        loadErrorText={t("special_orders.error_load_error")}
        emptyState={{ heading: t("special_orders.empty_errors"), description: t("special_orders.empty_description") }}
      />
    </AppPage>
  );
}
