// Drop Shipping Requests (spec 000 §2): request_id descending; rows link to the revise form.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { listRequests } from "~/dropship/revisions.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listRequests, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function DropshipRequests() {
  const { t } = useTranslation();
  return (
    <AppPage fullWidth title={t("requests.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      <DataGrid
        endpoint="/api/dropship_request"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "request_id", dir: "desc" }}
        rowKey="request_id"
        resourceName={{ singular: "request", plural: "requests" }}
        loadErrorText={t("requests.load_error")}
        emptyState={{ heading: t("requests.empty_heading"), description: t("dropship.logs.empty_description") }}
      />
    </AppPage>
  );
}
