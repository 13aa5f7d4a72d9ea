// Dropship Vendors (spec 000 §2): the generic grid over GET /api/dropship_vendor.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { vendorGridAnswer } from "~/dropship/vendors.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(vendorGridAnswer, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function Vendors() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage
      fullWidth
      title={t("vendor.title")}
      backAction={{ content: t("buttons.back"), url: "/dropship" }}
      primaryAction={{ content: t("vendor.new"), url: "/dropship/vendor/edit" }}
    >
      <DataGrid
        endpoint="/api/dropship_vendor"
        answerShape="flat"
        initial={initial}
        defaultSort={{ key: "id", dir: "asc" }}
        rowKey="id"
        resourceName={{ singular: "vendor", plural: "vendors" }}
        emptyState={{ heading: t("vendor.empty") }}
      />
    </AppPage>
  );
}
