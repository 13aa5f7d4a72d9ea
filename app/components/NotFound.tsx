import { Card, EmptyState } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <AppPage>
      <Card>
        <EmptyState heading={t("not_found.heading")} image="" action={{ content: t("nav.home"), url: "/" }}>
          <p>{t("not_found.description")}</p>
        </EmptyState>
      </Card>
    </AppPage>
  );
}
