// An area's menu page (/dropship, /sales, /special_order): its title and a button per screen.
import { Button, Card, InlineStack } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";

export function AreaMenu({ title, links }: { title: string; links: ReadonlyArray<{ url: string; label: string }> }) {
  const { t } = useTranslation();
  return (
    <AppPage title={t(title)}>
      <Card>
        <InlineStack gap="300">
          {links.map((link) => (
            <Button key={link.url} url={link.url}>
              {t(link.label)}
            </Button>
          ))}
        </InlineStack>
      </Card>
    </AppPage>
  );
}
