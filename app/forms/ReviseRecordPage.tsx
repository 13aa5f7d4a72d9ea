// One page for revising a record (drop-ship requests and responses, stores,
// feeds): read-only and editable fields with required markers, Save, the
// spec's banners, 422 messages listed, and back to the list 1 s after a save.
// reviseRecordScreen makes a route's page of it over recordLoader's data.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, FormLayout, TextField } from "@shopify/polaris";
import { memo, useCallback, useState, type ReactNode } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { FormBanner, LoadErrorBanner } from "./FormBanner";
import { UnsavedChanges } from "./UnsavedChanges";
import { useFormSubmit } from "./use-form-submit";

export interface RecordField {
  name: string;
  readOnly?: boolean;
  required?: boolean;
  /** Lines of a multi-line field. */
  lines?: number;
  type?: "text" | "number";
  /** A help text made from the value as typed (a cron expression in words, say). */
  describe?: (value: string) => string | undefined;
}

export interface ReviseRecordPageProps {
  title: string;
  /** The record (the page reads the fields listed), or null when it could not be loaded. */
  record: Record<string, unknown> | null;
  fields: RecordField[];
  /** Translation prefix of the field labels, e.g. "revise.fields". */
  labels: string;
  /** POST target; sent as multipart with _method=PUT. */
  saveUrl: string;
  listUrl: string;
  texts: { loadError: string; saved: string; saveError: string };
  /** What the record shows above its fields (a request's status, the vendor's reason, what Save does, its related records). */
  summary?: (record: Record<string, unknown>) => ReactNode;
  /** What the record shows read-only below its fields (a request's vendor answer and cancellations, say). */
  extra?: (record: Record<string, unknown>) => ReactNode;
  /** Page actions the record offers besides Save (links to other screens). */
  actions?: (record: Record<string, unknown>) => Array<{ content: string; url: string }>;
}

export function ReviseRecordPage({ title, record, fields, labels, saveUrl, listUrl, texts, summary, extra, actions }: ReviseRecordPageProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      fields.map((field) => [field.name, record?.[field.name] === null || record?.[field.name] === undefined ? "" : String(record[field.name])]),
    ),
  );
  const [savedValues, setSavedValues] = useState(values);
  // The same callback on every render: a keystroke renders its own field only (RecordTextField).
  const changeField = useCallback((name: string, value: string) => setValues((current) => ({ ...current, [name]: value })), []);
  const dirty = fields.some((field) => (values[field.name] ?? "") !== (savedValues[field.name] ?? ""));
  const save = useFormSubmit({ success: texts.saved, error: texts.saveError }, { redirectTo: listUrl });

  const submit = async () => {
    const sent = values;
    const form = new FormData();
    for (const field of fields) if (!field.readOnly) form.set(field.name, sent[field.name] ?? "");
    const outcome = await save.submit({ url: saveUrl, body: form, put: true });
    if (outcome.ok) setSavedValues(sent); // nothing unsaved: the redirect to the list goes ahead
  };

  return (
    <AppPage
      title={title}
      backAction={{ content: t("buttons.back"), url: listUrl }}
      primaryAction={record ? { content: t("buttons.save"), loading: save.submitting, onAction: submit } : undefined}
      secondaryActions={record && actions ? actions(record) : undefined}
    >
      <UnsavedChanges dirty={dirty} saving={save.submitting} onSave={submit} onDiscard={() => setValues(savedValues)} />
      <BlockStack gap="400">
        <LoadErrorBanner failed={record === null} text={texts.loadError} />
        <FormBanner outcome={save.outcome} onDismiss={save.dismiss} />
        {record && summary?.(record)}
        {record && (
          <Card>
            <FormLayout>
              {fields.map((field) => (
                <RecordTextField
                  key={field.name}
                  field={field}
                  label={t(`${labels}.${field.name}`)}
                  value={values[field.name] ?? ""}
                  error={save.fieldErrors[field.name]?.[0]}
                  onChange={changeField}
                />
              ))}
            </FormLayout>
          </Card>
        )}
        {record && extra?.(record)}
      </BlockStack>
    </AppPage>
  );
}

const RecordTextField = memo(function RecordTextField(props: {
  field: RecordField;
  label: string;
  value: string;
  error: string | undefined;
  onChange: (name: string, value: string) => void;
}) {
  const { field, label, value, error, onChange } = props;
  return (
    <TextField
      id={`field-${field.name}`}
      label={label}
      autoComplete="off"
      type={field.type ?? "text"}
      readOnly={field.readOnly}
      disabled={field.readOnly}
      requiredIndicator={field.required}
      multiline={field.lines}
      value={value}
      error={error}
      helpText={field.describe?.(value)}
      onChange={(next) => onChange(field.name, next)}
    />
  );
});

/** What a revise route says of its page; the page saves to `<api>/<id>`, e.g. /api/store/7. */
export interface ReviseScreenDescription extends Omit<ReviseRecordPageProps, "record" | "saveUrl"> {
  /** The record's /api twin without the id, e.g. "/api/store". */
  api: string;
}

/** The default export of a revise route whose loader is recordLoader: its page, in the reader's language. */
export function reviseRecordScreen(describe: (t: TFunction) => ReviseScreenDescription) {
  return function Screen() {
    const { t } = useTranslation();
    const { id, record } = useLoaderData<{ id: number; record: Record<string, unknown> | null }>();
    const { api, ...page } = describe(t);
    return <ReviseRecordPage {...page} record={record} saveUrl={`${api}/${id}`} />;
  };
}
