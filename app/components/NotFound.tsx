import { Card, EmptyState, Page } from "@shopify/polaris";
import { useTranslation } from "react-i18next";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Page>
      <Card>
        <EmptyState heading={t("not_found.heading")} image="" action={{ content: t("nav.home"), url: "/" }}>
          <p>{t("not_found.description")}</p>
        </EmptyState>
      </Card>
    </Page>
  );
}
