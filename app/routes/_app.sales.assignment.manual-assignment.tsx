// Manual Assignment Tool (spec 001 §2): /sales/assignment/manual-assignment?order_id=
// The order's unassigned items (read-only), then editable assignment rows: SKU
// (order item), Store/Dropshipper (name plus Qty when the source reports stock
// of that SKU), Qty, delete row. New Assignment adds a row; Create Assignments
// saves them all or none, and goes back to the unassigned orders 1 s after success.
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, InlineStack, Select, Text, TextField } from "@shopify/polaris";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAppSettings } from "~/components/app-settings";
import { sourceLabel } from "~/sales/source-label";
import { RegionDataTable } from "~/components/RegionDataTable";
import { FormPage } from "~/forms/FormPage";
import { FormSection } from "~/forms/FormSection";
import { useFormSubmit } from "~/forms/use-form-submit";
import { formatDateTime } from "~/lib/format";
import { pageLoader } from "~/http/route.server";
import { NotFoundError } from "~/lib/validation.server";
import { manualAssignmentData } from "~/sales/assignments.server";
import { stockRefreshFor } from "~/sales/stores.server";

export const loader = pageLoader(async ({ url, staff }) => {
  const orderId = url.searchParams.get("order_id") ?? "";
  try {
    return { orderId, data: await manualAssignmentData(orderId, stockRefreshFor(staff)) };
  } catch (error) {
    if (error instanceof NotFoundError) return { orderId, data: null };
    throw error;
  }
});

interface Row {
  key: number;
  item_id: string;
  store_id: string;
  qty_assigned: string;
}

export default function ManualAssignment() {
  const { t } = useTranslation();
  const { timeZone } = useAppSettings();
  const { orderId, data } = useLoaderData<typeof loader>();
  const [rows, setRows] = useState<Row[]>([]);
  const nextKey = useRef(1);
  const save = useFormSubmit({ success: t("sales.manual.created"), error: t("sales.manual.create_error") }, { redirectTo: "/sales/unassigned-orders/" });

  const items = data?.unassigned_order_items ?? [];
  const stores = data?.available_stores ?? [];
  const itemOptions = [
    { label: t("sales.manual.choose"), value: "" },
    ...items.map((item) => ({ label: `${item.sku} (${item.item_id})`, value: String(item.item_id) })),
  ];
  const storeOptions = (itemId: string) => {
    const sku = items.find((item) => String(item.item_id) === itemId)?.sku;
    const qtys = sku ? (data?.available_qtys[sku] ?? {}) : {};
    return [
      { label: t("sales.manual.choose"), value: "" },
      ...stores.map((store) => ({
        value: store.source_code,
        label: sourceLabel(t, store, qtys[store.source_code]),
      })),
    ];
  };
  const change = (key: number, field: keyof Omit<Row, "key">, value: string) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, [field]: value } : row)));

  const submit = () => {
    const form = new FormData();
    form.set("order_id", orderId);
    rows.forEach((row, index) => {
      form.set(`assignments[${index}][item_id]`, row.item_id);
      form.set(`assignments[${index}][store_id]`, row.store_id);
      form.set(`assignments[${index}][qty_assigned]`, row.qty_assigned);
    });
    void save.submit({ url: "/api/manual_assignment", body: form });
  };

  return (
    <FormPage
      fullWidth
      title={t("sales.manual.title")}
      subtitle={data ? t("sales.manual.title_order", { order: data.order.order_id }) : undefined}
      back="/sales/unassigned-orders"
      primaryAction={data ? { content: t("sales.manual.create"), loading: save.submitting, disabled: rows.length === 0, onAction: submit } : undefined}
      save={save}
      loadError={data === null && t("sales.manual.load_error")}
    >
      <Banner tone="info">
        <p>{t("sales.manual.marketplace_info")}</p>
        {data?.order.is_marketplace && <p>{t("sales.manual.marketplace_order", { order: data.order.order_id, source: data.order.marketplace_source })}</p>}
      </Banner>
      {data && (
        <>
          <Card padding="0">
            <BlockStack gap="200">
              <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
                <Text as="h2" variant="headingMd">
                  {t("sales.manual.items_title")}
                </Text>
              </div>
              {items.length === 0 ? (
                <div style={{ padding: "0 var(--p-space-400) var(--p-space-400)" }}>
                  <Text as="p">{t("sales.manual.no_items")}</Text>
                </div>
              ) : (
                <RegionDataTable
                  label={t("sales.manual.items_title")}
                  columnContentTypes={["numeric", "text", "text", "numeric", "numeric", "text", "text", "text", "text", "text"]}
                  headings={[
                    "item_id",
                    "sku",
                    "name",
                    "qty_ordered",
                    "qty_unassigned",
                    "billing_addr",
                    "shipping_addr",
                    "customer_notes",
                    "created_time",
                    "update_time",
                  ].map((key) => t(`sales.manual.columns.${key}`))}
                  rows={items.map((item) => [
                    item.item_id,
                    item.sku,
                    item.name,
                    item.qty_ordered,
                    item.qty_unassigned,
                    item.billing_addr ?? "",
                    item.shipping_addr ?? "",
                    item.customer_notes ?? "",
                    formatDateTime(item.created_time as unknown as string, timeZone),
                    formatDateTime(item.update_time as unknown as string, timeZone),
                  ])}
                />
              )}
            </BlockStack>
          </Card>
          <FormSection title={t("sales.manual.assignments_title")} note={rows.length === 0 ? t("sales.manual.no_rows") : undefined} gap="400">
            {rows.map((row, index) => {
              const error = (field: string) => save.fieldErrors[`assignments.${index}.${field}`]?.[0];
              const left = items.find((item) => String(item.item_id) === row.item_id)?.qty_unassigned;
              return (
                <div key={row.key} data-assignment-row={index}>
                  <InlineStack gap="300" blockAlign="end" wrap={false}>
                    <div style={{ minWidth: 220 }}>
                      <Select
                        label={t("sales.manual.sku_label")}
                        requiredIndicator
                        options={itemOptions}
                        value={row.item_id}
                        error={error("item_id")}
                        helpText={left === undefined ? undefined : t("sales.manual.left", { qty: left })}
                        onChange={(value) => change(row.key, "item_id", value)}
                      />
                    </div>
                    <div style={{ minWidth: 300 }}>
                      <Select
                        label={t("sales.manual.store_label")}
                        requiredIndicator
                        options={storeOptions(row.item_id)}
                        value={row.store_id}
                        error={error("store_id")}
                        onChange={(value) => change(row.key, "store_id", value)}
                      />
                    </div>
                    <div style={{ width: 120 }}>
                      <TextField
                        label={t("sales.manual.qty_label")}
                        requiredIndicator
                        type="number"
                        min={1}
                        autoComplete="off"
                        value={row.qty_assigned}
                        error={error("qty_assigned")}
                        onChange={(value) => change(row.key, "qty_assigned", value)}
                      />
                    </div>
                    <Button tone="critical" variant="plain" onClick={() => setRows((current) => current.filter((candidate) => candidate.key !== row.key))}>
                      {t("sales.manual.delete_row")}
                    </Button>
                  </InlineStack>
                </div>
              );
            })}
            <InlineStack>
              <Button
                onClick={() => {
                  const only = items.length === 1 ? items[0] : undefined;
                  setRows((current) => [
                    ...current,
                    {
                      key: nextKey.current++,
                      item_id: only ? String(only.item_id) : "",
                      store_id: "",
                      qty_assigned: only ? String(only.qty_unassigned) : "",
                    },
                  ]);
                }}
              >
                {t("sales.manual.new_assignment")}
              </Button>
            </InlineStack>
          </FormSection>
        </>
      )}
    </FormPage>
  );
}
