// /sales: the area's menu, the OMS links as on Home (spec 001 §2).
import { Button, Card, InlineStack, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { HOME_LINK_GROUPS } from "~/components/navigation";
import { pageLoader } from "~/lib/route.server";

export const loader = pageLoader(async () => ({}));

const SALES_LINKS = HOME_LINK_GROUPS.find((group) => group.title === "home.groups.sales")!.links;

export default function SalesMenu() {
  const { t } = useTranslation();
  return (
    <Page title={t("sales.menu_title")}>
      <Card>
        <InlineStack gap="300">
          {SALES_LINKS.map((link) => (
            <Button key={link.url} url={link.url}>
              {t(link.label)}
            </Button>
          ))}
        </InlineStack>
      </Card>
    </Page>
  );
}
