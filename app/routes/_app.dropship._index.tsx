// /dropship: the area's menu (spec 000 §2).
import { Card, InlineStack, Page, Button } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { DROPSHIP_MENU } from "~/components/navigation";
import { pageLoader } from "~/lib/route.server";

export const loader = pageLoader(async () => ({}));

export default function DropshipMenu() {
  const { t } = useTranslation();
  return (
    <Page title={t("dropship.menu_title")}>
      <Card>
        <InlineStack gap="300">
          {DROPSHIP_MENU.map((item) => (
            <Button key={item.url} url={item.url}>
              {t(item.label)}
            </Button>
          ))}
        </InlineStack>
      </Card>
    </Page>
  );
}
