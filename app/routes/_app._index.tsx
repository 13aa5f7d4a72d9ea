// Home (spec 001 §2): the link groups. The Daily Sales block comes with the orders work.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Link, Page, Text } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { HOME_LINK_GROUPS } from "~/components/navigation";
import { pageLoader } from "~/lib/route.server";
import { shopName } from "~/shopify/shop.server";

export const loader = pageLoader(async ({ staff }) => ({ shop: await shopName(staff) }));

export default function Home() {
  const { t } = useTranslation();
  const { shop } = useLoaderData<typeof loader>();
  return (
    <Page title={t("home.title")} subtitle={shop ? t("home.connected", { shop }) : undefined}>
      <div className="home-groups">
        {HOME_LINK_GROUPS.map((group) => (
          <Card key={group.title}>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t(group.title)}
              </Text>
              {group.links.map((link) => (
                <Link key={link.url} url={link.url} removeUnderline>
                  {t(link.label)}
                </Link>
              ))}
            </BlockStack>
          </Card>
        ))}
      </div>
    </Page>
  );
}
