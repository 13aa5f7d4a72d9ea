// The mapping form (spec 001 §2, §5): /product/category_tags_mapping/edit[?id=].
// Both fields required; saved through POST /api/category_tags_mapping; on
// success 'Successfully updated mapping' and back to the list after 1 s
// (design.md). An existing mapping can also be deleted.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, FormLayout, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { ConfirmDelete } from "~/forms/ConfirmDelete";
import { FormBanner } from "~/forms/FormBanner";
import { UnsavedChanges } from "~/forms/UnsavedChanges";
import { useFormSubmit } from "~/forms/use-form-submit";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";
import { MAPPINGS_PATH } from "~/products/paths";
import { getCategoryTagsMapping } from "~/products/products.server";

export const loader = pageLoader(async ({ url }) => {
  const id = url.searchParams.get("id");
  if (!id) return { mapping: null };
  try {
    const mapping = await getCategoryTagsMapping(id);
    return { mapping: { id: mapping.id, as400_category_id: mapping.as400_category_id, shopify_tags: mapping.shopify_tags } };
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(null, { status: 404, statusText: "Not Found" });
    throw error;
  }
});

const FIELDS = ["as400_category_id", "shopify_tags"] as const;

export default function EditCategoryTagsMapping() {
  const { t } = useTranslation();
  const { mapping } = useLoaderData<typeof loader>();
  const [values, setValues] = useState({ as400_category_id: mapping?.as400_category_id ?? "", shopify_tags: mapping?.shopify_tags ?? "" });
  // What the server has: the form is dirty when the values differ from it.
  const [savedValues, setSavedValues] = useState(values);
  const dirty = values.as400_category_id !== savedValues.as400_category_id || values.shopify_tags !== savedValues.shopify_tags;
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useFormSubmit({ success: t("products.mappings.saved"), error: t("products.mappings.save_error") }, { redirectTo: MAPPINGS_PATH });
  const remove = useFormSubmit({ success: t("products.mappings.deleted"), error: t("products.mappings.delete_error") }, { redirectTo: MAPPINGS_PATH });

  const submit = async () => {
    const sent = values;
    const outcome = await save.submit({ url: "/api/category_tags_mapping", body: mapping ? { id: mapping.id, ...sent } : { ...sent } });
    // Saved: nothing is unsaved any more, and the redirect to the list is not held up.
    if (outcome.ok) setSavedValues(sent);
  };

  return (
    <AppPage
      title={t(mapping ? "products.mappings.edit_title" : "products.mappings.new_title")}
      subtitle={mapping ? `ID ${mapping.id}` : undefined}
      backAction={{ content: t("buttons.back"), url: MAPPINGS_PATH }}
      primaryAction={{ content: t("buttons.save"), loading: save.submitting, onAction: () => void submit() }}
      secondaryActions={mapping ? [{ content: t("products.mappings.delete"), destructive: true, onAction: () => setConfirmDelete(true) }] : []}
    >
      <UnsavedChanges dirty={dirty} saving={save.submitting} onSave={submit} onDiscard={() => setValues(savedValues)} />
      <BlockStack gap="400">
        <FormBanner outcome={save.outcome} onDismiss={save.dismiss} />
        <FormBanner outcome={remove.outcome} onDismiss={remove.dismiss} />
        <Card>
          <FormLayout>
            {FIELDS.map((field) => (
              <TextField
                key={field}
                id={`mapping-${field}`}
                label={t(`products.mappings.fields.${field}`)}
                requiredIndicator
                autoComplete="off"
                value={values[field]}
                error={save.fieldErrors[field]?.[0]}
                helpText={field === "shopify_tags" ? t("products.mappings.tags_help") : undefined}
                onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
              />
            ))}
          </FormLayout>
        </Card>
      </BlockStack>
      {mapping && (
        <ConfirmDelete
          open={confirmDelete}
          title={t("products.mappings.delete")}
          action={t("products.mappings.delete")}
          loading={remove.submitting}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() => remove.submit({ url: "/api/category_tags_mapping", body: { id: mapping.id, _method: "DELETE" } })}
        >
          <Text as="p">{t("products.mappings.delete_confirm", { category: mapping.as400_category_id })}</Text>
        </ConfirmDelete>
      )}
    </AppPage>
  );
}
