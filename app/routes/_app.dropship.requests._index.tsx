// Drop Shipping Requests (spec 000 §2): request_id descending; rows link to the revise form.
// Selected rows can be sent again (Resend: rejected or backordered ones, D270) or asked back
// from their vendor (Cancel at vendor, D271), each row under the single action's rules.
import { useLoaderData } from "@remix-run/react";
import { Text } from "@shopify/polaris";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { BulkConfirm, BulkSummary, useBulkActions } from "~/bulk/BulkActions";
import { dropshipRequestGrid } from "~/dropship/grids.server";
import { gridShouldRevalidate } from "~/grid/DataGrid";
import { GridScreen } from "~/grid/GridScreen";
import { gridScreenData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";
import { resourceNames } from "~/grid/resource-names";

export const loader = pageLoader(({ url, t }) => gridScreenData(dropshipRequestGrid, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function DropshipRequests() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const [reloadKey, setReloadKey] = useState(0);
  const bulk = useBulkActions<"resend" | "cancel">("/api/dropship_request/bulk", () => setReloadKey((key) => key + 1));
  const ask = bulk.ask;
  const bulkActions = useMemo(
    () => [
      { content: t("bulk.request.resend"), onAction: (ids: string[]) => ask("resend", ids) },
      { content: t("bulk.request.cancel"), destructive: true, onAction: (ids: string[]) => ask("cancel", ids) },
    ],
    [t, ask],
  );
  const count = bulk.pending?.ids.length ?? 0;
  const problems = bulk.pending ? (bulk.outcome?.messages ?? []) : [];
  return (
    <GridScreen
      data={data}
      title={t("requests.title")}
      back="/dropship"
      resourceName={resourceNames(t, "request")}
      loadErrorText={t("requests.load_error")}
      emptyState={{ heading: t("requests.empty_heading"), description: t("dropship.logs.empty_description") }}
      reloadKey={reloadKey}
      bulkActions={bulkActions}
    >
      <BulkSummary answer={bulk.answer} outcome={bulk.pending ? null : bulk.outcome} onDismiss={bulk.dismiss} />
      <BulkConfirm
        open={bulk.pending?.action === "resend"}
        title={t("bulk.request.resend_title", { count })}
        action={t("bulk.request.resend")}
        loading={bulk.submitting}
        onClose={bulk.close}
        onConfirm={() => bulk.run()}
        problems={problems}
      >
        <Text as="p">{t("bulk.request.resend_body")}</Text>
      </BulkConfirm>
      <BulkConfirm
        open={bulk.pending?.action === "cancel"}
        title={t("bulk.request.cancel_title", { count })}
        action={t("bulk.request.cancel")}
        destructive
        loading={bulk.submitting}
        onClose={bulk.close}
        onConfirm={() => bulk.run()}
        problems={problems}
      >
        <Text as="p">{t("bulk.request.cancel_body")}</Text>
      </BulkConfirm>
    </GridScreen>
  );
}
