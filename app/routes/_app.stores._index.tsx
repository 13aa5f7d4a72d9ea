// Stores (D48–D50): every inventory source, the shop's locations and the
// vendors, on the generic grid over GET /api/store, by source code. A store's
// Edit link opens the form where staff set its AS400 source code.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { listStores } from "~/sales/stores.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listStores, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function Stores() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  return (
    <AppPage fullWidth title={t("stores.title")} backAction={{ content: t("buttons.back"), url: "/sales" }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          {t("stores.intro")}
        </Text>
        <DataGrid
          endpoint="/api/store"
          initial={initial}
          defaultSort={{ key: "source_code", dir: "asc" }}
          rowKey="id"
          resourceName={{ singular: "store", plural: "stores" }}
          loadErrorText={t("stores.load_error")}
          emptyState={{ heading: t("stores.empty") }}
        />
      </BlockStack>
    </AppPage>
  );
}
