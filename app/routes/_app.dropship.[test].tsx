// Drop Ship Test Page (spec 000 §2): the five steps of the flow, each started
// by POST /api/dropship_test_submit and run in the background (D93). The page
// follows the run (progress, counts) and ends with the server's message, or
// the spec's texts when there is none; a reload shows the same run.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { useConfirmSend } from "~/components/ConfirmSend";
import { TEST_PAGE_ACTIONS } from "~/dropship/flow/step-actions";
import { pageLoader } from "~/http/route.server";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";

// Steps that send orders to vendors or create fulfilments in Shopify: asked first.
const CONFIRMED_STEPS = new Set<string>(["sendRequests", "processResponses"]);

export const loader = pageLoader(async (context) => ({ run: await pageRun("dropship_test", context) }));

export default function DropShipTestPage() {
  const { t } = useTranslation();
  const { run: initial } = useLoaderData<typeof loader>();
  const texts = useMemo(() => ({ error: t("tools.failure") }), [t]);
  const step = useBackgroundRun(initial, texts);

  const start = (action: string) => {
    const form = new FormData();
    form.set("action", action);
    void step.start({ url: "/api/dropship_test_submit", body: form });
  };

  const confirmSend = useConfirmSend();
  const press = (action: (typeof TEST_PAGE_ACTIONS)[number]) => {
    if (!CONFIRMED_STEPS.has(action)) return start(action);
    const label = t(`dropship_test.actions.${action}`);
    confirmSend.ask({ title: t(`confirm.${action}.title`), body: t(`confirm.${action}.body`), action: label }, () => start(action));
  };

  return (
    <AppPage title={t("dropship_test.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      {confirmSend.modal}
      <BlockStack gap="400">
        <BackgroundRun state={step} label={(run) => t(`dropship_test.actions.${run.action}`)} />
        <Card>
          <BlockStack gap="300">
            <Text as="p" tone="subdued">
              {t("dropship_test.help")}
            </Text>
            <InlineStack gap="200">
              {TEST_PAGE_ACTIONS.map((action) => (
                <Button key={action} disabled={step.running} loading={step.running && step.run?.action === action} onClick={() => press(action)}>
                  {t(`dropship_test.actions.${action}`)}
                </Button>
              ))}
            </InlineStack>
          </BlockStack>
        </Card>
      </BlockStack>
    </AppPage>
  );
}
