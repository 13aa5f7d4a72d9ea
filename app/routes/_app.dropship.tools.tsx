// Drop Ship Tools (spec 000 §2): a vendor dropdown, then Manual Utilities,
// Vendor Testing and the Transmission Test. The vendor list comes from
// GET /api/dropship_tools; each action posts to /api/dropship_tools_submit with
// the input it needs (app/dropship/tool-actions.ts) and runs in the background
// (D93): the page follows the run and shows its { error, message } in a banner.
import { BlockStack, Button, Card, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { useConfirmSend } from "~/components/ConfirmSend";
import {
  isTestModeOnly,
  MANUAL_UTILITY_ACTIONS,
  SENDING_TOOL_ACTIONS,
  TOOL_ACTION_INPUT,
  TOOL_INPUT_MAX,
  toolInputReady,
  TRANSMISSION_TEST_ACTIONS,
  VENDOR_TESTING_ACTIONS,
  type ToolAction,
  type ToolInputField,
} from "~/dropship/tool-actions";
import { ErrorBanner } from "~/forms/FormBanner";
import { FormSection } from "~/forms/FormSection";
import { fetchJsonWithRetry } from "~/grid/fetch-with-retry";
import { pageLoader } from "~/http/route.server";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { pageRun } from "~/runs/runs.server";
import { useBackgroundRun } from "~/runs/use-background-run";

export const loader = pageLoader(async (context) => ({ run: await pageRun("dropship_tools", context) }));

type Inputs = Record<ToolInputField, string>;
type ToolVendor = { id: number; name: string; test_mode?: number };

export default function DropShipTools() {
  const { t } = useTranslation();
  const [vendors, setVendors] = useState<ToolVendor[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [vendorId, setVendorId] = useState("");
  const [inputs, setInputs] = useState<Inputs>({ ponum: "", sku: "", filepath: "" });
  const { run: initial } = useLoaderData<typeof loader>();
  const texts = useMemo(() => ({ error: t("tools.failure") }), [t]);
  const tool = useBackgroundRun(initial, texts);

  useEffect(() => {
    const controller = new AbortController();
    fetchJsonWithRetry<ToolVendor[]>("/api/dropship_tools", { signal: controller.signal })
      .then(setVendors)
      .catch(() => !controller.signal.aborted && setLoadFailed(true));
    return () => controller.abort();
  }, []);

  const run = (action: ToolAction) => {
    const form = new FormData();
    form.set("vendor_id", vendorId);
    form.set("action", action);
    const input = TOOL_ACTION_INPUT[action];
    if (input && inputs[input.field].trim()) form.set(input.field, inputs[input.field].trim());
    void tool.start({ url: "/api/dropship_tools_submit", body: form });
  };

  const chosen = vendors?.find((vendor) => String(vendor.id) === vendorId);
  // Made-up vendor files only for a vendor in test mode (D66); the server refuses them too.
  const notTestMode = Boolean(chosen && chosen.test_mode !== 1);

  // A file put on the vendor's server is read at once: asked first.
  const confirmSend = useConfirmSend();
  const press = (action: ToolAction) => {
    if (!SENDING_TOOL_ACTIONS.includes(action)) return run(action);
    const label = t(`tools.actions.${action}`);
    confirmSend.ask(
      { title: t("confirm.tools_send.title", { action: label }), body: t("confirm.tools_send.body", { vendor: chosen?.name ?? "" }), action: label },
      () => run(action),
    );
  };

  const buttons = (actions: readonly ToolAction[]) => (
    <InlineStack gap="200">
      {actions.map((action) => (
        <Button
          key={action}
          disabled={!vendorId || tool.running || !toolInputReady(action, inputs) || (notTestMode && isTestModeOnly(action))}
          loading={tool.running && tool.run?.action === action}
          onClick={() => press(action)}
        >
          {t(`tools.actions.${action}`)}
        </Button>
      ))}
    </InlineStack>
  );

  const field = (name: ToolInputField) => (
    <TextField
      label={t(`tools.fields.${name}`)}
      helpText={t(`tools.fields.${name}_help`)}
      value={inputs[name]}
      onChange={(value) => setInputs((current) => ({ ...current, [name]: value }))}
      maxLength={TOOL_INPUT_MAX[name]}
      autoComplete="off"
    />
  );

  const parseActions = MANUAL_UTILITY_ACTIONS.filter((action) => TOOL_ACTION_INPUT[action]?.field === "filepath");
  const fileActions = MANUAL_UTILITY_ACTIONS.filter((action) => !TOOL_ACTION_INPUT[action]);
  const poActions = VENDOR_TESTING_ACTIONS.filter((action) => TOOL_ACTION_INPUT[action]?.field === "ponum");
  const skuActions = VENDOR_TESTING_ACTIONS.filter((action) => TOOL_ACTION_INPUT[action]?.field === "sku");

  return (
    <AppPage title={t("tools.title")} backAction={{ content: t("buttons.back"), url: "/dropship" }}>
      {confirmSend.modal}
      <BlockStack gap="400">
        <ErrorBanner text={loadFailed && t("tools.vendors_error")} onDismiss={() => setLoadFailed(false)} />
        <BackgroundRun state={tool} label={(ran) => t(`tools.actions.${ran.action}`)} />
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
        <FormSection title={t("tools.manual")} note={t("tools.manual_help")}>
          {field("filepath")}
          {buttons(parseActions)}
          {buttons(fileActions)}
        </FormSection>
        <FormSection title={t("tools.vendor_testing")} note={t("tools.vendor_testing_help")}>
          {notTestMode && (
            <Text as="p" tone="caution" fontWeight="medium">
              {t("tools.not_test_mode_note", { name: chosen!.name })}
            </Text>
          )}
          {field("ponum")}
          {buttons(poActions)}
          {field("sku")}
          {buttons(skuActions)}
        </FormSection>
        <FormSection title={t("tools.transmission")} note={t("tools.transmission_help")}>
          {buttons(TRANSMISSION_TEST_ACTIONS)}
        </FormSection>
      </BlockStack>
    </AppPage>
  );
}
