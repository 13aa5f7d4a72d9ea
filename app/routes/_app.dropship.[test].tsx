// Drop Ship Test Page (spec 000 §2): the five steps of the flow, each run now
// by POST /api/dropship_test_submit; the server's message is shown, or the
// spec's texts when there is none.
import { BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { TEST_PAGE_ACTIONS } from "~/dropship/flow/step-actions";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { pageLoader } from "~/lib/route.server";

export const loader = pageLoader(async () => ({}));

export default function DropShipTestPage() {
  const { t } = useTranslation();
  const [running, setRunning] = useState<string | null>(null);
  const texts = useMemo(() => ({ success: t("tools.success"), error: t("tools.failure"), serverMessageOnHttpError: false }), [t]);
  const step = useFormSubmit(texts);

  const run = async (action: string) => {
    const form = new FormData();
    form.set("action", action);
    setRunning(action);
    await step.submit({ url: "/api/dropship_test_submit", body: form });
    setRunning(null);
  };

  return (
    <Page title={t("dropship_test.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      <BlockStack gap="400">
        <FormBanner outcome={step.outcome} onDismiss={step.dismiss} />
        <Card>
          <BlockStack gap="300">
            <Text as="p" tone="subdued">
              {t("dropship_test.help")}
            </Text>
            <InlineStack gap="200">
              {TEST_PAGE_ACTIONS.map((action) => (
                <Button key={action} disabled={Boolean(running)} loading={running === action} onClick={() => void run(action)}>
                  {t(`dropship_test.actions.${action}`)}
                </Button>
              ))}
            </InlineStack>
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}
