// DNH (spec 001 §2; route from design.md): /sales/in-progress-assignment/dnh?assignment_id=
// Read-only assignment fields, Transfer Number and Reason (multi-line), Submit DNH, the
// warning text. Back to the in-progress list 1 s after the transfer is created.
import { useLoaderData } from "@remix-run/react";
import { Banner, Card, FormLayout, TextField } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/forms/FormPage";
import { readOnlyFields } from "~/forms/read-only-fields";
import { useFormSubmit } from "~/forms/use-form-submit";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";
import { dnhData } from "~/sales/assignment-changes.server";

export const loader = pageLoader(async ({ url }) => {
  const id = Number(url.searchParams.get("assignment_id"));
  try {
    return { id, data: await dnhData(id) };
  } catch (error) {
    if (error instanceof NotFoundError) return { id, data: null };
    throw error;
  }
});

const READ_ONLY = ["assignment_id", "order_increment_id", "item_id", "product_sku", "qty_assigned", "store_id", "dropshipper_name"] as const;
const LIST_URL = "/sales/in-progress-assignment/";

export default function DnhTransfer() {
  const { t } = useTranslation();
  const { id, data } = useLoaderData<typeof loader>();
  const [transferNum, setTransferNum] = useState("");
  const [reason, setReason] = useState("");
  const save = useFormSubmit({ success: t("sales.dnh.saved"), error: t("sales.dnh.save_error") }, { redirectTo: LIST_URL });
  const done = data?.transfer_num ? data : null;

  const submit = () => {
    const form = new FormData();
    form.set("assignment_id", String(id));
    form.set("transfer_num", transferNum);
    form.set("reason", reason);
    void save.submit({ url: "/api/dnh", body: form });
  };

  return (
    <FormPage
      title={t("sales.dnh.title")}
      back={LIST_URL}
      primaryAction={data && !done ? { content: t("sales.dnh.submit"), loading: save.submitting, onAction: submit } : undefined}
      save={save}
      loadError={data === null && t("sales.dnh.load_error")}
    >
      <Banner tone="warning">
        <p>{t("sales.warning")}</p>
      </Banner>
      {done && (
        <Banner tone="info">
          <p>{t("sales.dnh.already", { transfer: done.transfer_num })}</p>
        </Banner>
      )}
      {data && (
        <Card>
          <FormLayout>
            {readOnlyFields(READ_ONLY, data, (name) => t(`sales.fields.${name}`))}
            <TextField
              id="field-assign_status"
              label={t("sales.fields.assign_status")}
              autoComplete="off"
              value={t(`sales.assign_status.${data.assign_status}`)}
              readOnly
              disabled
            />
            <TextField
              id="field-transfer_num"
              label={t("sales.fields.transfer_num")}
              requiredIndicator
              autoComplete="off"
              value={done ? String(done.transfer_num) : transferNum}
              disabled={Boolean(done)}
              error={save.fieldErrors.transfer_num?.[0]}
              onChange={setTransferNum}
            />
            <TextField
              id="field-reason"
              label={t("sales.fields.reason")}
              requiredIndicator
              autoComplete="off"
              multiline={4}
              value={done ? String(done.reason ?? "") : reason}
              disabled={Boolean(done)}
              error={save.fieldErrors.reason?.[0]}
              onChange={setReason}
            />
          </FormLayout>
        </Card>
      )}
    </FormPage>
  );
}
