// Edit Vendor (spec 000 §2): every vendor field, grouped; Save Vendor, Delete
// Vendor (existing vendors only) and Back. Saves go to the /api twin as JSON.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, FormLayout, InlineStack, Layout, Select, Text, TextField } from "@shopify/polaris";
import { memo, useCallback, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { VENDOR_FIELD_GROUPS, type VendorApi, type VendorFieldSpec } from "~/dropship/vendor-fields";
import { getVendor } from "~/dropship/vendors.server";
import { vendorScorecards, type Scorecard } from "~/dropship/scorecards.server";
import { RegionDataTable } from "~/components/RegionDataTable";
import { useAppSettings } from "~/components/app-settings";
import { AppPage } from "~/components/AppPage";
import { ConfirmDelete } from "~/forms/ConfirmDelete";
import { FormSection } from "~/forms/FormSection";
import { FormBanner } from "~/forms/FormBanner";
import { UnsavedChanges } from "~/forms/UnsavedChanges";
import { useFormSubmit } from "~/forms/use-form-submit";
import { formatDateTime } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { BackgroundRun } from "~/runs/BackgroundRun";
import { useBackgroundRun } from "~/runs/use-background-run";
import { NotFoundError } from "~/lib/validation.server";

/** What a new vendor starts with. */
const NEW_VENDOR: Record<string, string> = {
  enabled: "1",
  test_mode: "0",
  is_legacy: "0",
  transfer_mechanism_id: "1",
  sftp_port: "22",
  ftp_tls: "0",
  incoming_min_age_seconds: "60",
  incoming_max_wait_minutes: "60",
  edi_format: "1",
  sort_files_by_file_contents: "0",
  is_archiving_files: "1",
  use_cost: "0",
  edi_strictness: "lenient",
  "997_enabled": "1",
  "846_enabled": "0",
  unwrap_846: "0",
  "810_enabled": "0",
  answers_cancellations: "1",
  invoice_tolerance_percent: "0",
  notify_customer: "1",
  input_delimiter: "*",
  input_segmenter: "~",
  output_delimiter: "*",
  output_segmenter: "~",
};

/** The codes of the coded selects, in the order offered; their words are vendor.formats.<code> and vendor.mechanisms.<code>. */
const CODES = { format: ["1", "0"], mechanism: ["1", "2", "3"] } as const;

export const loader = pageLoader(async ({ url }) => {
  const id = url.searchParams.get("id");
  if (!id) return { vendor: null, scorecards: [] };
  try {
    const vendor = await getVendor(Number(id));
    return { vendor, scorecards: await vendorScorecards(vendor.id) };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(null, { status: 404, statusText: "Not Found" });
    throw error;
  }
});

function initialValues(vendor: VendorApi | null): Record<string, string> {
  if (!vendor) return { ...NEW_VENDOR };
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(vendor)) values[key] = value === null || value === undefined ? "" : String(value);
  values.sftp_pass = "";
  return values;
}

/** The vendor list; after a save that changed the connection, following that connection's test (D280). */
function vendorListAfterSave(body: unknown): string {
  const run = (body as { connection_test_run_id?: unknown } | null)?.connection_test_run_id;
  return typeof run === "number" ? `/dropship/vendor/?connection_test=${run}` : "/dropship/vendor/";
}

export default function EditVendor() {
  const { t } = useTranslation();
  const { vendor, scorecards } = useLoaderData<typeof loader>();
  const [values, setValuesState] = useState(() => initialValues(vendor));
  // What was typed, at once: a Save clicked in the admin's title bar may arrive before React renders the last keystroke.
  const current = useRef(values);
  const setValues = useCallback((next: Record<string, string>) => {
    current.current = next;
    setValuesState(next);
  }, []);
  // What the server has: the form is dirty when the values differ from it.
  const [savedValues, setSavedValues] = useState(values);
  const dirty = useMemo(
    () => Object.keys({ ...values, ...savedValues }).some((key) => (values[key] ?? "") !== (savedValues[key] ?? "")),
    [values, savedValues],
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useFormSubmit({ success: t("vendor.saved"), error: t("vendor.save_error") }, { redirectTo: vendorListAfterSave });
  const remove = useFormSubmit({ success: t("vendor.deleted"), error: t("vendor.delete_error") }, { redirectTo: "/dropship/vendor/" });
  // The pinned SFTP host key: shown, reset or pinned from a fingerprint, apart from the save (D64).
  const [hostKey, setHostKey] = useState<string | null>(() => (vendor?.sftp_host_key as string | null | undefined) ?? null);
  const [fingerprint, setFingerprint] = useState("");
  const keyTexts = useMemo(() => ({ success: t("vendor.host_key.done"), error: t("vendor.host_key.failed") }), [t]);
  const keySubmit = useFormSubmit(keyTexts);
  const changeKey = async (body: Record<string, unknown>) => {
    if (!vendor) return;
    const outcome = await keySubmit.submit({ url: `/api/dropship_vendor/${vendor.id}/host_key`, body });
    if (outcome.ok) {
      setHostKey((outcome.body as { sftp_host_key?: string | null } | null)?.sftp_host_key ?? null);
      setFingerprint("");
    }
  };

  // One callback for every field, the same on every render: a keystroke renders its own field only (VendorField).
  const changeField = useCallback((name: string, value: string) => setValues({ ...current.current, [name]: value }), [setValues]);
  const passwordHelp = vendor?.sftp_pass_set ? t("vendor.password_stored") : t("vendor.password_none");
  const renderField = (field: VendorFieldSpec) => (
    <VendorField
      key={field.name}
      field={field}
      value={values[field.name] ?? ""}
      error={save.fieldErrors[field.name]?.[0]}
      passwordHelp={passwordHelp}
      onChange={changeField}
    />
  );

  const url = vendor ? `/api/dropship_vendor/${vendor.id}` : "/api/dropship_vendor";
  const body = () => {
    const out: Record<string, unknown> = {};
    for (const group of VENDOR_FIELD_GROUPS) for (const field of group.fields) out[field.name] = current.current[field.name] ?? "";
    return out;
  };
  // Test Connection with the form's values as typed, in the background as on Tools (issue 32); a blank password means the stored one.
  const connectionTest = useBackgroundRun(
    null,
    useMemo(() => ({ error: t("vendor.test_connection.failed") }), [t]),
  );
  const testConnection = () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(body())) form.set(name, String(value));
    void connectionTest.start({ url: vendor ? `/api/dropship_vendor/${vendor.id}/test_connection` : "/api/dropship_vendor/test_connection", body: form });
  };

  const saveVendor = async () => {
    const sent = current.current;
    const outcome = await save.submit({ url, body: body(), put: Boolean(vendor) });
    // Saved: nothing is unsaved any more, and the redirect to the list is not held up.
    if (outcome.ok) setSavedValues(sent);
  };

  return (
    <AppPage
      title={t("vendor.form_title")}
      subtitle={vendor ? `${vendor.name} (ID ${vendor.id})` : undefined}
      backAction={{ content: t("buttons.back"), url: "/dropship/vendor/" }}
      primaryAction={{ content: t("vendor.save"), loading: save.submitting, onAction: () => void saveVendor() }}
      secondaryActions={vendor ? [{ content: t("vendor.delete"), destructive: true, onAction: () => setConfirmDelete(true) }] : []}
    >
      <UnsavedChanges dirty={dirty} saving={save.submitting} onSave={saveVendor} onDiscard={() => setValues(savedValues)} />
      <BlockStack gap="400">
        <FormBanner outcome={save.outcome} onDismiss={save.dismiss} />
        <FormBanner outcome={remove.outcome} onDismiss={remove.dismiss} />
        <Layout>
          {VENDOR_FIELD_GROUPS.map((group) => (
            <Layout.Section key={group.key} variant="oneHalf">
              <FormSection title={t(`vendor.groups.${group.key}`)}>
                <FormLayout>
                  {group.key === "general" && vendor && <ReadOnlyFields vendor={vendor} />}
                  {group.fields.map(renderField)}
                </FormLayout>
                {group.key === "connection" && (
                  <BlockStack gap="200">
                    <InlineStack>
                      <Button id="vendor-test-connection" loading={connectionTest.running} onClick={testConnection}>
                        {t("vendor.test_connection.button")}
                      </Button>
                    </InlineStack>
                    <BackgroundRun state={connectionTest} label={() => t("vendor.test_connection.button")} />
                  </BlockStack>
                )}
                {group.key === "connection" && vendor && (
                  <BlockStack gap="200">
                    <FormBanner outcome={keySubmit.outcome} onDismiss={keySubmit.dismiss} />
                    <TextField
                      label={t("vendor.host_key.label")}
                      id="vendor-sftp_host_key"
                      autoComplete="off"
                      readOnly
                      monospaced
                      value={hostKey ?? ""}
                      placeholder={t("vendor.host_key.none")}
                      helpText={hostKey ? t("vendor.host_key.pinned_help") : t("vendor.host_key.none_help")}
                    />
                    <InlineStack>
                      <Button disabled={!hostKey} loading={keySubmit.submitting} onClick={() => void changeKey({ action: "reset" })}>
                        {t("vendor.host_key.reset")}
                      </Button>
                    </InlineStack>
                    <TextField
                      label={t("vendor.host_key.fingerprint")}
                      id="vendor-host-key-fingerprint"
                      autoComplete="off"
                      monospaced
                      value={fingerprint}
                      onChange={setFingerprint}
                      error={keySubmit.fieldErrors.fingerprint?.[0]}
                      helpText={t("vendor.host_key.fingerprint_help")}
                      placeholder="SHA256:…"
                    />
                    <InlineStack>
                      <Button
                        disabled={!fingerprint.trim()}
                        loading={keySubmit.submitting}
                        onClick={() => void changeKey({ action: "pin", fingerprint: fingerprint.trim() })}
                      >
                        {t("vendor.host_key.pin")}
                      </Button>
                    </InlineStack>
                  </BlockStack>
                )}
              </FormSection>
            </Layout.Section>
          ))}
          {vendor && (
            <Layout.Section>
              <ScorecardSection scorecards={scorecards} />
            </Layout.Section>
          )}
        </Layout>
      </BlockStack>
      {vendor && (
        <ConfirmDelete
          open={confirmDelete}
          title={t("vendor.delete")}
          action={t("vendor.delete")}
          loading={remove.submitting}
          onClose={() => setConfirmDelete(false)}
          onConfirm={async () => {
            const outcome = await remove.submit({ url, method: "DELETE", body: {} });
            if (outcome.ok) setSavedValues(values); // gone: nothing left to save, the redirect may leave
          }}
        >
          <p>{vendor.name}</p>
        </ConfirmDelete>
      )}
    </AppPage>
  );
}

/** One field of the form; rendered again only when its value or error changes. */
const VendorField = memo(function VendorField(props: {
  field: VendorFieldSpec;
  value: string;
  error: string | undefined;
  passwordHelp: string;
  onChange: (name: string, value: string) => void;
}) {
  const { field, value, error, passwordHelp, onChange } = props;
  const { t } = useTranslation();
  const common = {
    label: t(`vendor.fields.${field.name}`),
    requiredIndicator: field.required,
    error,
    id: `vendor-${field.name}`,
    value,
    onChange: (next: string) => onChange(field.name, next),
  };
  const helpText = field.help ? t(`vendor.help.${field.name}`) : undefined;
  switch (field.kind) {
    case "yesno":
      return (
        <Select
          {...common}
          options={[
            { label: t("grid.yes"), value: "1" },
            { label: t("grid.no"), value: "0" },
          ]}
          placeholder=" "
          helpText={helpText}
        />
      );
    case "choice":
      return (
        <Select
          {...common}
          options={[
            ...(field.blankChoice ? [{ value: "", label: t(`vendor.choices.${field.name}.blank`) }] : []),
            ...(field.choices ?? []).map((choice) => ({ value: choice, label: t(`vendor.choices.${field.name}.${choice}`) })),
          ]}
          helpText={helpText}
        />
      );
    case "format":
    case "mechanism":
      // A code and what it means: "1 EDI", "2 FTP"…
      return <Select {...common} options={CODES[field.kind].map((code) => ({ value: code, label: `${code} ${t(`vendor.${field.kind}s.${code}`)}` }))} />;
    case "password":
      return <TextField {...common} type="password" autoComplete="new-password" helpText={passwordHelp} />;
    case "whole":
      return <TextField {...common} autoComplete="off" type="number" min={field.min} max={field.max} helpText={helpText} />;
    case "segments":
      return <TextField {...common} autoComplete="off" multiline={4} maxHeight={200} monospaced helpText={t("vendor.segments_help")} />;
    default:
      return (
        <TextField {...common} autoComplete="off" type={field.kind === "port" ? "number" : "text"} monospaced={field.kind === "regex"} helpText={helpText} />
      );
  }
});

const SCORECARD_ROWS = [
  "pos_sent",
  "acknowledged_pct",
  "on_time_pct",
  "median_hours_to_ship",
  "rejected_lines",
  "backordered_lines",
  "cancelled_lines",
  "invoice_mismatches",
  "refused_files",
] as const;

/** The vendor's scorecard (D244): each measure over 30 and 90 days, side by side; read-only. */
function ScorecardSection({ scorecards }: { scorecards: Scorecard[] }) {
  const { t } = useTranslation();
  const { timeZone } = useAppSettings();
  const cell = (card: Scorecard | undefined, measure: (typeof SCORECARD_ROWS)[number]) => {
    const value = card?.[measure];
    if (value === null || value === undefined) return "—";
    if (measure.endsWith("_pct")) return t("vendor.scorecard.percent", { value: Math.round(value) });
    if (measure === "median_hours_to_ship") return t("vendor.scorecard.hours", { value: Math.round(value) });
    return String(value);
  };
  return (
    <FormSection title={t("vendor.scorecard.title")}>
      {scorecards.length === 0 ? (
        <Text as="p" tone="subdued">
          {t("vendor.scorecard.none")}
        </Text>
      ) : (
        <BlockStack gap="200">
          <RegionDataTable
            label={t("vendor.scorecard.title")}
            columnContentTypes={["text", ...scorecards.map(() => "numeric" as const)]}
            headings={[t("vendor.scorecard.measure"), ...scorecards.map((card) => t("vendor.scorecard.days", { days: card.window_days }))]}
            rows={SCORECARD_ROWS.map((measure) => [t(`vendor.scorecard.rows.${measure}`), ...scorecards.map((card) => cell(card, measure))])}
          />
          <Text as="p" tone="subdued">
            {t("vendor.scorecard.computed", { when: formatDateTime(scorecards[0]!.computed_at, timeZone) })}
          </Text>
        </BlockStack>
      )}
    </FormSection>
  );
}

/** The fields no one edits (spec 000 §3: id read-only; created_at, updated_at). */
function ReadOnlyFields({ vendor }: { vendor: VendorApi }) {
  const { t } = useTranslation();
  const shown: Array<[string, string]> = [
    ["id", String(vendor.id)],
    ["created_at", formatDateTime(vendor.created_at)],
    ["updated_at", formatDateTime(vendor.updated_at)],
  ];
  return (
    <FormLayout.Group condensed>
      {shown.map(([name, value]) => (
        <TextField key={name} id={`vendor-${name}`} label={t(`vendor.fields.${name}`)} value={value} readOnly disabled autoComplete="off" />
      ))}
    </FormLayout.Group>
  );
}
