// Reassign Assignment (spec 001 §2): /sales/awaiting-assignment/reassign?id=
// Read-only assignment id, order id, item id, SKU, qty; the Store/Dropshipper
// select (required; name plus Qty when the source reports stock of the SKU);
// Save and Back; the warning text. Back to the awaiting list 1 s after a save.
// An item with a drop-ship request (D232): only sources with stock of the SKU
// for the quantity are offered (one with less greyed out with its quantity),
// never the current one; when the vendor has it, a banner says that saving
// asks the vendor to cancel the PO. The success banner is the server's answer.
import { useLoaderData } from "@remix-run/react";
import { Banner, Card, FormLayout, Select } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/forms/FormPage";
import { readOnlyFields } from "~/forms/read-only-fields";
import { sourceLabel } from "~/sales/source-label";
import { useFormSubmit } from "~/forms/use-form-submit";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";
import { reassignmentData } from "~/sales/assignment-changes.server";
import { stockRefreshFor } from "~/sales/stores.server";

export const loader = pageLoader(async ({ url, staff }) => {
  const id = Number(url.searchParams.get("id"));
  try {
    return { id, data: await reassignmentData(id, stockRefreshFor(staff)) };
  } catch (error) {
    if (error instanceof NotFoundError) return { id, data: null };
    throw error;
  }
});

const READ_ONLY = ["id", "order_increment_id", "item_id", "product_sku", "qty_assigned"] as const;
const LIST_URL = "/sales/awaiting-assignment/";

export default function ReassignAssignment() {
  const { t } = useTranslation();
  const { id, data } = useLoaderData<typeof loader>();
  const assignment = data?.data[0] ?? null;
  const [storeId, setStoreId] = useState("");
  const save = useFormSubmit({ success: t("sales.reassign.saved", { id, source: storeId }), error: t("sales.reassign.save_error") }, { redirectTo: LIST_URL });
  const qtys = assignment ? (data?.available_qtys[assignment.product_sku] ?? {}) : {};
  const vendorRequest = data?.vendor_request ?? null;
  // A drop-ship item goes only where there is stock for it: a known quantity, enough of it (D232).
  const stockOnly = vendorRequest !== null && assignment !== null;
  // Never the current source: a reassignment to it is refused (sales.rules.same_source).
  const sources = (data?.available_stores ?? []).filter(
    (store) => store.source_code !== assignment?.store_id && (!stockOnly || qtys[store.source_code] !== undefined),
  );
  const options: Array<{ label: string; value: string; disabled?: boolean }> = [
    { label: t("sales.manual.choose"), value: "" },
    ...sources.map((store) => ({
      value: store.source_code,
      label: sourceLabel(t, store, qtys[store.source_code]),
      disabled: stockOnly && qtys[store.source_code] < assignment.qty_assigned,
    })),
  ];
  const offered = options.filter((option) => option.value !== "" && !option.disabled).length;
  const reassignable = data?.reassignable ?? false;

  const submit = () => {
    const form = new FormData();
    form.set("store_id", storeId);
    void save.submit({ url: `/api/reassignment/${id}`, body: form, put: true });
  };

  return (
    <FormPage
      title={t("sales.reassign.title")}
      back={LIST_URL}
      primaryAction={assignment && reassignable ? { content: t("buttons.save"), loading: save.submitting, onAction: submit } : undefined}
      secondaryActions={[{ content: t("buttons.back"), url: LIST_URL }]}
      save={save}
      loadError={assignment === null && t("sales.reassign.load_error")}
    >
      <Banner tone="warning">
        <p>{t("sales.warning")}</p>
      </Banner>
      {assignment && !reassignable && (
        <Banner tone="info">
          <p>{t("cancel_ui.reassign.closed", { id: assignment.id, status: t(`sales.assign_status.${assignment.assign_status}`) })}</p>
        </Banner>
      )}
      {assignment && reassignable && vendorRequest?.vendor_has_it && (
        <div id="reassign-vendor-cancel">
          <Banner tone="warning">
            <p>{t("cancel_ui.reassign.vendor_has_it", { vendor: vendorRequest.vendor_name, po: vendorRequest.po_number })}</p>
          </Banner>
        </div>
      )}
      {assignment && (
        <Card>
          <FormLayout>
            {readOnlyFields(READ_ONLY, assignment, (name) => t(`sales.fields.${name}`))}
            <Select
              id="field-store_id"
              label={t("sales.fields.store_id")}
              requiredIndicator
              options={options}
              value={storeId}
              error={save.fieldErrors.store_id?.[0]}
              disabled={!reassignable}
              helpText={[
                t("sales.reassign.current", {
                  source: [assignment.store_id, assignment.dropshipper_name ?? assignment.store_name].filter(Boolean).join(" - "),
                  status: t(`sales.assign_status.${assignment.assign_status}`),
                }),
                stockOnly &&
                  t(offered ? "cancel_ui.reassign.stock_only" : "cancel_ui.reassign.no_source", {
                    qty: assignment.qty_assigned,
                    sku: assignment.product_sku,
                  }),
              ]
                .filter(Boolean)
                .join(" ")}
              onChange={setStoreId}
            />
          </FormLayout>
        </Card>
      )}
    </FormPage>
  );
}
