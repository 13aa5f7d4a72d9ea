// Revise Special Order (spec 001 §2, §3, §5): /special_order/revise?id=<special order id>.
// Read-only ticket fields and the last error; the customer, an items editor,
// shipping cost and the state / province / armed-forces select. The item rows
// are checked here with the server's own rules (special-order-rules.ts) before
// anything is sent; the first failure is the banner. Saved → back to the
// errors after 1 s.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, InlineStack, Select, TextField } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { FormBanner, LoadErrorBanner } from "~/forms/FormBanner";
import { recordLoader } from "~/http/record-loader.server";
import type { SubmitOutcome } from "~/forms/submit-result";
import { UnsavedChanges } from "~/forms/UnsavedChanges";
import { FormSection } from "~/forms/FormSection";
import { readOnlyFields } from "~/forms/read-only-fields";
import { useFormSubmit } from "~/forms/use-form-submit";
import {
  ARMED_FORCES_CODES,
  CANADIAN_PROVINCE_CODES,
  firstItemFailure,
  ITEM_FIELDS,
  readItems,
  US_STATE_CODES,
  type SpecialOrderItem,
} from "~/special-orders/special-order-rules";
import { getSpecialOrderForm } from "~/special-orders/special-orders.server";

export const loader = recordLoader(getSpecialOrderForm);

const READ_ONLY = ["store_ticket", "employee_number", "store_id", "error_message"] as const;
const CUSTOMER = [
  { name: "customer_name", required: true },
  { name: "customer_email", required: true, type: "email" },
  { name: "customer_phone", required: true, type: "tel" },
  { name: "customer_address_1", required: true },
  { name: "customer_address_2", required: false },
  { name: "customer_address_city", required: true },
] as const;
const emptyItem = (): SpecialOrderItem => ({ sku: "", size: "", width: "", price: "", tax: "" });
const LIST_URL = "/special_order/error";

export default function ReviseSpecialOrder() {
  const { t } = useTranslation();
  const { id, record } = useLoaderData<typeof loader>();
  const [values, setValues] = useState<Record<string, string>>(() => {
    const start: Record<string, string> = {};
    if (record) for (const [key, value] of Object.entries(record)) start[key] = value === null || value === undefined ? "" : String(value);
    return start;
  });
  const [items, setItems] = useState<SpecialOrderItem[]>(() => (record ? (readItems(record.items) ?? []) : []));
  // What the server has (fields and items): the form is dirty when they differ from it.
  const [saved, setSaved] = useState(() => ({ values, items }));
  const dirty = useMemo(
    () =>
      JSON.stringify(saved.items) !== JSON.stringify(items) ||
      Object.keys({ ...values, ...saved.values }).some((key) => (values[key] ?? "") !== (saved.values[key] ?? "")),
    [saved, values, items],
  );
  const [browserFailure, setBrowserFailure] = useState<SubmitOutcome | null>(null);
  const save = useFormSubmit({ success: t("special_orders.saved"), error: t("special_orders.save_error") }, { redirectTo: LIST_URL });

  const stateOptions = useMemo(() => {
    const group = (title: string, codes: ReadonlyArray<[string, string]>) => ({
      title,
      options: codes.map(([value, name]) => ({ value, label: `${value} - ${name}` })),
    });
    const groups = [
      group(t("special_orders.state_groups.us"), US_STATE_CODES),
      group(t("special_orders.state_groups.ca"), CANADIAN_PROVINCE_CODES),
      group(t("special_orders.state_groups.armed_forces"), ARMED_FORCES_CODES),
    ];
    const current = values.customer_address_state_code ?? "";
    const known = groups.some((each) => each.options.some((option) => option.value === current));
    // A code the AS400 sent that is not in the list stays visible, so staff see what to change.
    return [{ value: "", label: t("special_orders.choose_state") }, ...(current && !known ? [{ value: current, label: current }] : []), ...groups];
  }, [t, values.customer_address_state_code]);

  const set = (name: string) => (value: string) => setValues((current) => ({ ...current, [name]: value }));
  const setItem = (index: number, field: keyof SpecialOrderItem) => (value: string) =>
    setItems((current) => current.map((item, i) => (i === index ? { ...item, [field]: value } : item)));

  const submit = async () => {
    save.dismiss();
    const failure = firstItemFailure(items, t);
    if (failure) {
      setBrowserFailure({ ok: false, tone: "critical", title: t("special_orders.save_error"), messages: [failure], body: null });
      return;
    }
    setBrowserFailure(null);
    const body: Record<string, unknown> = { shipping_cost: values.shipping_cost ?? "", items: JSON.stringify(items) };
    for (const field of CUSTOMER) body[field.name] = values[field.name] ?? "";
    body.customer_address_state_code = values.customer_address_state_code ?? "";
    body.customer_address_zip = values.customer_address_zip ?? "";
    const sent = { values, items };
    const outcome = await save.submit({ url: `/api/special_order/${id}`, body, put: true });
    // Saved: nothing is unsaved any more, and the redirect to the list is not held up.
    if (outcome.ok) setSaved(sent);
  };

  const field = (name: string, options: { required?: boolean; type?: "text" | "email" | "tel" } = {}) => (
    <TextField
      key={name}
      id={`field-${name}`}
      label={t(`special_orders.fields.${name}`)}
      autoComplete="off"
      type={options.type ?? "text"}
      requiredIndicator={options.required}
      value={values[name] ?? ""}
      error={save.fieldErrors[name]?.[0]}
      onChange={set(name)}
    />
  );

  return (
    <AppPage
      title={t("special_orders.revise_title")}
      backAction={{ content: t("buttons.back"), url: LIST_URL }}
      primaryAction={record ? { content: t("buttons.save"), loading: save.submitting, onAction: () => void submit() } : undefined}
    >
      {record && (
        <UnsavedChanges
          dirty={dirty}
          saving={save.submitting}
          onSave={submit}
          onDiscard={() => {
            setValues(saved.values);
            setItems(saved.items);
          }}
        />
      )}
      <BlockStack gap="400">
        <LoadErrorBanner failed={record === null} text={t("special_orders.form_load_error")} />
        <FormBanner outcome={browserFailure ?? save.outcome} onDismiss={() => (browserFailure ? setBrowserFailure(null) : save.dismiss())} />
        {record && (
          <>
            <Card>
              <FormLayout>
                <FormLayout.Group>{readOnlyFields(READ_ONLY.slice(0, 3), values, (name) => t(`special_orders.fields.${name}`))}</FormLayout.Group>
                <TextField
                  id="field-error_message"
                  label={t("special_orders.fields.error_message")}
                  autoComplete="off"
                  value={values.error_message ?? ""}
                  multiline={2}
                  readOnly
                  disabled
                />
              </FormLayout>
            </Card>
            <Card>
              <FormLayout>
                {field("customer_name", { required: true })}
                <FormLayout.Group>
                  {field("customer_email", { required: true, type: "email" })}
                  {field("customer_phone", { required: true, type: "tel" })}
                </FormLayout.Group>
                {field("customer_address_1", { required: true })}
                {field("customer_address_2")}
                <FormLayout.Group>
                  {field("customer_address_city", { required: true })}
                  <Select
                    id="field-customer_address_state_code"
                    label={t("special_orders.fields.customer_address_state_code")}
                    requiredIndicator
                    options={stateOptions}
                    value={values.customer_address_state_code ?? ""}
                    error={save.fieldErrors.customer_address_state_code?.[0]}
                    onChange={set("customer_address_state_code")}
                  />
                  {field("customer_address_zip", { required: true })}
                </FormLayout.Group>
                {field("shipping_cost", { required: true })}
              </FormLayout>
            </Card>
            <FormSection title={t("special_orders.items.title")} note={items.length === 0 ? t("special_orders.items.none") : undefined}>
              {items.map((item, index) => (
                <InlineStack key={index} gap="200" blockAlign="end" wrap={false}>
                  {ITEM_FIELDS.map((name) => (
                    <TextField
                      key={name}
                      id={`item-${index}-${name}`}
                      label={`${t(`special_orders.fields.${name}`)}`}
                      labelHidden={index > 0}
                      autoComplete="off"
                      requiredIndicator={name !== "width"}
                      inputMode={name === "price" || name === "tax" ? "decimal" : undefined}
                      value={item[name]}
                      onChange={setItem(index, name)}
                    />
                  ))}
                  <Button
                    tone="critical"
                    accessibilityLabel={t("special_orders.items.remove", { number: index + 1 })}
                    onClick={() => setItems((current) => current.filter((_, i) => i !== index))}
                  >
                    {t("special_orders.items.remove_button")}
                  </Button>
                </InlineStack>
              ))}
              <InlineStack>
                <Button onClick={() => setItems((current) => [...current, emptyItem()])}>{t("special_orders.items.add")}</Button>
              </InlineStack>
            </FormSection>
          </>
        )}
      </BlockStack>
    </AppPage>
  );
}
