// Settings (issue 30): the vendors' default service levels, when a vendor or
// the AS400 counts as unreachable, and the alerts of Needs attention: e-mail
// recipients with their language, a webhook, which kinds alert at once, and
// the daily digest's time (in APP_TIMEZONE). Saved to POST /api/settings.
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Checkbox, FormLayout, InlineGrid, InlineStack, Layout, Select, Text, TextField } from "@shopify/polaris";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { FormBanner } from "~/forms/FormBanner";
import { FormSection } from "~/forms/FormSection";
import { UnsavedChanges } from "~/forms/UnsavedChanges";
import { useFormSubmit } from "~/forms/use-form-submit";
import { pageLoader } from "~/http/route.server";
import { supportedLngs } from "~/i18n/config";
import { ATTENTION_KINDS } from "~/settings/attention-kinds";
import { settingsForScreen } from "~/settings/settings.server";

export const loader = pageLoader(() => settingsForScreen());

type Form = {
  service_levels: Record<"sla_997_hours" | "sla_855_hours" | "sla_856_hours" | "unreachable_runs", string>;
  alerts: {
    recipients: Array<{ email: string; language: string }>;
    webhook_url: string;
    webhook_language: string;
    immediate_kinds: string[];
    digest_time: string;
  };
};

const HOURS_FIELDS = ["sla_997_hours", "sla_855_hours", "sla_856_hours", "unreachable_runs"] as const;

export default function SettingsPage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const initial = useMemo<Form>(
    () => ({
      service_levels: Object.fromEntries(HOURS_FIELDS.map((field) => [field, String(data.settings.service_levels[field])])) as Form["service_levels"],
      alerts: { ...data.settings.alerts, recipients: data.settings.alerts.recipients.map((recipient) => ({ ...recipient })) },
    }),
    [data],
  );
  const [form, setFormState] = useState<Form>(initial);
  // What was typed, at once: a Save from the admin's title bar may come before React renders the last keystroke.
  const current = useRef(form);
  const setForm = (next: Form) => {
    current.current = next;
    setFormState(next);
  };
  const [saved, setSaved] = useState(initial);
  const [status, setStatus] = useState(data.status);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const save = useFormSubmit({ success: t("settings.saved"), error: t("settings.save_error") });
  const errors = save.fieldErrors;

  const saveSettings = async () => {
    const sent = current.current;
    const outcome = await save.submit({ url: "/api/settings", body: sent });
    if (outcome.ok) {
      setSaved(sent);
      const answer = outcome.body as { status?: typeof status } | null;
      if (answer?.status) setStatus(answer.status);
    }
  };
  const setLevel = (field: (typeof HOURS_FIELDS)[number]) => (value: string) =>
    setForm({ ...current.current, service_levels: { ...current.current.service_levels, [field]: value } });
  const setAlerts = (patch: Partial<Form["alerts"]>) => setForm({ ...current.current, alerts: { ...current.current.alerts, ...patch } });
  const languages = supportedLngs.map((language) => ({ value: language, label: t(`settings.languages.${language}`) }));

  return (
    <AppPage
      title={t("settings.title")}
      backAction={{ content: t("buttons.back"), url: "/attention" }}
      primaryAction={{ content: t("settings.save"), loading: save.submitting, onAction: () => void saveSettings() }}
    >
      <UnsavedChanges dirty={dirty} saving={save.submitting} onSave={saveSettings} onDiscard={() => setForm(saved)} />
      <BlockStack gap="400">
        <FormBanner outcome={save.outcome} onDismiss={save.dismiss} />
        {status.nothing_sent && (
          <Banner tone="warning" title={t("settings.nothing_sent_title")}>
            <p>{t("settings.nothing_sent")}</p>
          </Banner>
        )}
        {status.email_off && !status.nothing_sent && (
          <Banner tone="warning" title={t("settings.email_off_title")}>
            <p>{t("settings.email_off")}</p>
          </Banner>
        )}
        <Layout>
          <Layout.Section variant="oneHalf">
            <FormSection title={t("settings.groups.service_levels")}>
              <FormLayout>
                <Text as="p" tone="subdued">
                  {t("settings.service_levels_help")}
                </Text>
                {HOURS_FIELDS.map((field) => (
                  <TextField
                    key={field}
                    id={`settings-${field}`}
                    label={t(`settings.fields.${field}`)}
                    type="number"
                    min={1}
                    autoComplete="off"
                    value={form.service_levels[field]}
                    onChange={setLevel(field)}
                    error={errors[`service_levels.${field}`]?.[0]}
                    helpText={field === "unreachable_runs" ? t("settings.help.unreachable_runs") : undefined}
                  />
                ))}
              </FormLayout>
            </FormSection>
          </Layout.Section>
          <Layout.Section variant="oneHalf">
            <FormSection title={t("settings.groups.alerts")}>
              <FormLayout>
                <Text as="p" tone="subdued">
                  {status.smtp_host ? t("settings.smtp_on", { host: status.smtp_host }) : t("settings.smtp_off")}
                </Text>
                {form.alerts.recipients.map((recipient, index) => (
                  <InlineGrid key={index} columns={["twoThirds", "oneThird"]} gap="200">
                    <TextField
                      id={`settings-recipient-${index}`}
                      label={t("settings.fields.recipient", { number: index + 1 })}
                      type="email"
                      autoComplete="off"
                      value={recipient.email}
                      onChange={(email) =>
                        setAlerts({ recipients: current.current.alerts.recipients.map((one, at) => (at === index ? { ...one, email } : one)) })
                      }
                      error={errors[`alerts.recipients.${index}.email`]?.[0]}
                      connectedRight={
                        <Button onClick={() => setAlerts({ recipients: current.current.alerts.recipients.filter((_, at) => at !== index) })}>
                          {t("settings.remove")}
                        </Button>
                      }
                    />
                    <Select
                      id={`settings-recipient-language-${index}`}
                      label={t("settings.fields.language")}
                      options={languages}
                      value={recipient.language}
                      onChange={(language) =>
                        setAlerts({ recipients: current.current.alerts.recipients.map((one, at) => (at === index ? { ...one, language } : one)) })
                      }
                    />
                  </InlineGrid>
                ))}
                <InlineStack>
                  <Button onClick={() => setAlerts({ recipients: [...current.current.alerts.recipients, { email: "", language: "en" }] })}>
                    {t("settings.add_recipient")}
                  </Button>
                </InlineStack>
                {errors["alerts.recipients"]?.[0] && (
                  <Text as="p" tone="critical">
                    {errors["alerts.recipients"][0]}
                  </Text>
                )}
                <InlineGrid columns={["twoThirds", "oneThird"]} gap="200">
                  <TextField
                    id="settings-webhook_url"
                    label={t("settings.fields.webhook_url")}
                    type="url"
                    autoComplete="off"
                    value={form.alerts.webhook_url}
                    onChange={(webhook_url) => setAlerts({ webhook_url })}
                    error={errors["alerts.webhook_url"]?.[0]}
                    helpText={t("settings.help.webhook_url")}
                  />
                  <Select
                    id="settings-webhook_language"
                    label={t("settings.fields.language")}
                    options={languages}
                    value={form.alerts.webhook_language}
                    onChange={(webhook_language) => setAlerts({ webhook_language })}
                  />
                </InlineGrid>
                <TextField
                  id="settings-digest_time"
                  label={t("settings.fields.digest_time")}
                  type="time"
                  autoComplete="off"
                  value={form.alerts.digest_time}
                  onChange={(digest_time) => setAlerts({ digest_time })}
                  error={errors["alerts.digest_time"]?.[0]}
                  helpText={t("settings.help.digest_time", { zone: data.timezone })}
                />
                <BlockStack gap="100">
                  <Text as="h3" variant="headingSm">
                    {t("settings.fields.immediate_kinds")}
                  </Text>
                  {ATTENTION_KINDS.map((kind) => (
                    <Checkbox
                      key={kind}
                      id={`settings-kind-${kind}`}
                      label={t(`attention.kinds.${kind}`)}
                      checked={form.alerts.immediate_kinds.includes(kind)}
                      onChange={(checked) =>
                        setAlerts({
                          immediate_kinds: checked
                            ? [...current.current.alerts.immediate_kinds, kind]
                            : current.current.alerts.immediate_kinds.filter((one) => one !== kind),
                        })
                      }
                    />
                  ))}
                </BlockStack>
              </FormLayout>
            </FormSection>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </AppPage>
  );
}
