// Drop Ship Tools (spec 000 §2): a vendor dropdown, then the Transmission Test.
// The vendor list comes from GET /api/dropship_tools; each action posts to
// /api/dropship_tools_submit and shows its { error, message } in a banner.
import { Banner, BlockStack, Button, Card, InlineStack, Page, Select, Text } from "@shopify/polaris";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { TRANSMISSION_TEST_ACTIONS } from "~/dropship/transmission-test-actions";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { fetchJsonWithRetry } from "~/grid/fetch-with-retry";
import { pageLoader } from "~/lib/route.server";

export const loader = pageLoader(async () => ({}));

export default function DropShipTools() {
  const { t } = useTranslation();
  const [vendors, setVendors] = useState<Array<{ id: number; name: string }> | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [vendorId, setVendorId] = useState("");
  const [running, setRunning] = useState<string | null>(null);
  const texts = useMemo(() => ({ success: t("tools.success"), error: t("tools.failure"), serverMessageOnHttpError: false }), [t]);
  const tool = useFormSubmit(texts);

  useEffect(() => {
    const controller = new AbortController();
    fetchJsonWithRetry<Array<{ id: number; name: string }>>("/api/dropship_tools", { signal: controller.signal })
      .then(setVendors)
      .catch(() => !controller.signal.aborted && setLoadFailed(true));
    return () => controller.abort();
  }, []);

  const run = async (action: string) => {
    const form = new FormData();
    form.set("vendor_id", vendorId);
    form.set("action", action);
    setRunning(action);
    await tool.submit({ url: "/api/dropship_tools_submit", body: form });
    setRunning(null);
  };

  return (
    <Page title={t("tools.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      <BlockStack gap="400">
        {loadFailed && (
          <Banner tone="critical" onDismiss={() => setLoadFailed(false)}>
            <p>{t("tools.vendors_error")}</p>
          </Banner>
        )}
        <FormBanner outcome={tool.outcome} onDismiss={tool.dismiss} />
        <Card>
          <Select
            label={t("tools.vendor")}
            placeholder={t("tools.choose_vendor")}
            disabled={!vendors}
            options={(vendors ?? []).map((vendor) => ({ label: `${vendor.name} (ID ${vendor.id})`, value: String(vendor.id) }))}
            value={vendorId}
            onChange={setVendorId}
          />
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("tools.transmission")}
            </Text>
            <Text as="p" tone="subdued">
              {t("tools.transmission_help")}
            </Text>
            <InlineStack gap="200">
              {TRANSMISSION_TEST_ACTIONS.map((action) => (
                <Button key={action} disabled={!vendorId || Boolean(running)} loading={running === action} onClick={() => void run(action)}>
                  {t(`tools.actions.${action}`)}
                </Button>
              ))}
            </InlineStack>
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}
