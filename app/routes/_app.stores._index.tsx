// Stores (D48–D50): every inventory source, the shop's locations and the
// vendors, on the generic grid over GET /api/store, by source code. A store's
// Edit link opens the form where staff set its AS400 source code.
import { useLoaderData } from "@remix-run/react";
import { Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { storeGrid } from "~/sales/stores.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(storeGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function Stores() {
  const { t } = useTranslation();
  return (
    <GridScreen
      data={useLoaderData<typeof loader>()}
      title={t("stores.title")}
      back="/sales"
      resourceName={resourceNames(t, "store")}
      loadErrorText={t("stores.load_error")}
      emptyState={{ heading: t("stores.empty") }}
    >
      <Text as="p" tone="subdued">
        {t("stores.intro")}
      </Text>
    </GridScreen>
  );
}
