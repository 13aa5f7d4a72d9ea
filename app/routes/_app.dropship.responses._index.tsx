// Drop Shipping Responses (spec 000 §2): id descending; rows link to the revise form.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { listResponses } from "~/dropship/revisions.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listResponses, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function DropshipResponses() {
  const { t } = useTranslation();
  return (
    <AppPage fullWidth title={t("responses.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      <DataGrid
        endpoint="/api/dropship_response"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: "response", plural: "responses" }}
        loadErrorText={t("responses.load_error")}
        emptyState={{ heading: t("responses.empty_heading"), description: t("dropship.logs.empty_description") }}
      />
    </AppPage>
  );
}
