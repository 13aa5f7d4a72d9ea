// /special_order: the area's menu (spec 001 §2).
import { Button, Card, InlineStack, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { pageLoader } from "~/lib/route.server";

const SPECIAL_ORDER_MENU = [
  { url: "/special_order/current", label: "special_orders.buttons.current" },
  { url: "/special_order/error/", label: "special_orders.buttons.errors" },
  { url: "/special_order/log/", label: "special_orders.buttons.logs" },
] as const;

export const loader = pageLoader(async () => ({}));

export default function SpecialOrderMenu() {
  const { t } = useTranslation();
  return (
    <Page title={t("special_orders.menu_title")}>
      <Card>
        <InlineStack gap="300">
          {SPECIAL_ORDER_MENU.map((item) => (
            <Button key={item.url} url={item.url}>
              {t(item.label)}
            </Button>
          ))}
        </InlineStack>
      </Card>
    </Page>
  );
}
