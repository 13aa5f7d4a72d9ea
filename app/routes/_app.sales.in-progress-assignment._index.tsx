// In Progress Assignment (spec 001 §2): server-defined columns, assignment_id descending,
// DNH per row; Retrieve New Assignments From AS400 imports the AS400's assignment files,
// each bad line shown as an extra error banner.
import { useLoaderData } from "@remix-run/react";
import { Banner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { FormBanner } from "~/forms/FormBanner";
import { useFormSubmit } from "~/forms/use-form-submit";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { inProgressGrid } from "~/sales/grids.server";
import { useAssignmentBulk } from "~/bulk/AssignmentBulk";
import { reloadableGridShouldRevalidate, useGridReload } from "~/sales/use-grid-reload";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(inProgressGrid, url.searchParams, t));
export const shouldRevalidate = reloadableGridShouldRevalidate;

export default function InProgressAssignments() {
  const { t } = useTranslation();
  const initial = useLoaderData<typeof loader>();
  const retrieve = useFormSubmit({ success: t("sales.in_progress.imported"), error: t("sales.in_progress.import_error") });
  const body = retrieve.outcome?.body as { error_messages?: unknown } | null | undefined;
  const lineErrors = Array.isArray(body?.error_messages) ? body.error_messages.filter((message): message is string => typeof message === "string") : [];
  const grid = useGridReload(initial);
  const bulk = useAssignmentBulk(grid.reload);
  return (
    <GridScreen
      data={initial}
      gridKey={grid.key}
      bulkActions={bulk.actions}
      title={t("sales.in_progress.title")}
      back="/sales"
      primaryAction={{
        content: t("sales.in_progress.retrieve"),
        loading: retrieve.submitting,
        onAction: async () => {
          const outcome = await retrieve.submit({ url: "/api/import_assignment" });
          if (outcome.ok) grid.reload();
        },
      }}
      resourceName={resourceNames(t, "assignment")}
      loadErrorText={t("sales.in_progress.load_error")}
      emptyState={{ heading: t("sales.in_progress.empty_heading"), description: t("sales.awaiting.empty_description") }}
    >
      <FormBanner outcome={retrieve.outcome} onDismiss={retrieve.dismiss} />
      {bulk.page}
      {retrieve.outcome &&
        lineErrors.map((message) => (
          <Banner key={message} tone="critical">
            <p>{message}</p>
          </Banner>
        ))}
    </GridScreen>
  );
}
