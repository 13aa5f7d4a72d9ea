// Awaiting Assignment (spec 001 §2): assignments newest first with filters; per row
// Reassign (the reassign form) and Delete (a warning, OK/Cancel, then DELETE
// /api/assignment/{id}); back to /sales. After a delete the list reloads after 1 s.
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, InlineStack, Link, Text } from "@shopify/polaris";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDelete } from "~/forms/ConfirmDelete";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import type { GridRow } from "~/grid/types";
import { pageLoader } from "~/http/route.server";
import { assignmentGrid } from "~/sales/grids.server";
import { useAssignmentBulk } from "~/bulk/AssignmentBulk";
import { reloadableGridShouldRevalidate, useGridReload } from "~/sales/use-grid-reload";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(assignmentGrid, url.searchParams, t, { answerShape: "flat" }));
export const shouldRevalidate = reloadableGridShouldRevalidate;

export default function AwaitingAssignment() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  const grid = useGridReload(initial);
  const bulk = useAssignmentBulk(grid.reload);
  const [toDelete, setToDelete] = useState<GridRow | null>(null);
  const remove = useFormSubmit(
    { success: t("sales.awaiting.deleted"), error: t("sales.awaiting.delete_error") },
    { redirectTo: "/sales/awaiting-assignment/" },
  );

  return (
    <GridScreen
      data={initial}
      gridKey={grid.key}
      bulkActions={bulk.actions}
      title={t("sales.awaiting.title")}
      back="/sales"
      resourceName={resourceNames(t, "assignment")}
      loadErrorText={t("sales.awaiting.fetch_error")}
      parseErrorText={t("sales.awaiting.parse_error")}
      emptyState={{ heading: t("sales.awaiting.empty_heading"), description: t("sales.awaiting.empty_description") }}
      renderCell={(column, row) => {
        if (column.key !== "actions") return undefined;
        // Only Pending and Processing assignments can be reassigned or deleted (the server refuses the others):
        // a Sent one is taken back with a DNH transfer, a Complete one not at all.
        const status = Number(row.assign_status);
        if (status === 3) {
          return (
            <InlineStack gap="200" wrap={false}>
              <Text as="span" tone="subdued">
                {t("sales.awaiting.sent_use_dnh")}
              </Text>
              <Link url={`/sales/in-progress-assignment/dnh?assignment_id=${encodeURIComponent(String(row.id))}`}>{t("sales.in_progress.dnh")}</Link>
            </InlineStack>
          );
        }
        if (status === 4) {
          return (
            <Text as="span" tone="subdued">
              {t("sales.awaiting.complete_unchangeable")}
            </Text>
          );
        }
        const reassign = column.settings?.links?.[0];
        return (
          <InlineStack gap="300" wrap={false}>
            {reassign && <Link url={`${reassign.path}?id=${encodeURIComponent(String(row.id))}`}>{reassign.label}</Link>}
            <Button variant="plain" tone="critical" onClick={() => setToDelete(row)}>
              {t("sales.awaiting.delete")}
            </Button>
          </InlineStack>
        );
      }}
    >
      <FormBanner outcome={remove.outcome} onDismiss={remove.dismiss} />
      {bulk.page}
      <ConfirmDelete
        open={toDelete !== null}
        title={t("sales.awaiting.delete_title", { id: toDelete?.id })}
        action={t("sales.awaiting.ok")}
        loading={remove.submitting}
        onClose={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.submit({ url: `/api/assignment/${toDelete.id}`, method: "DELETE" })}
      >
        <BlockStack gap="300">
          <Text as="p" tone="caution">
            {t("sales.warning")}
          </Text>
          {toDelete && (
            <Text as="p">{t("sales.awaiting.delete_body", { qty: toDelete.qty_assigned, sku: toDelete.product_sku, order: toDelete.order_increment_id })}</Text>
          )}
        </BlockStack>
      </ConfirmDelete>
    </GridScreen>
  );
}
