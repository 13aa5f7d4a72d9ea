// The page of both realtime logs (spec 001 §2): the generic grid, id
// descending, Back to /sales. Amounts in USD; the payload as JSON text.

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { DataGrid, type GridPageData } from "~/grid/DataGrid";
import type { GridColumn, GridRow } from "~/grid/types";
import { formatMoney } from "~/lib/format";

function renderCell(column: GridColumn, row: GridRow) {
  const value = row[column.key];
  if (column.key === "amount") return <>{formatMoney(value as string | number | null)}</>;
  if (column.key === "payload") return <code>{value === null || value === undefined ? "" : JSON.stringify(value)}</code>;
  return undefined;
}

export function RealtimeLogPage({ kind, initial }: { kind: "sales" | "shipping"; initial: GridPageData }) {
  const { t } = useTranslation();
  return (
    <AppPage fullWidth title={t(`realtime_logs.${kind}.title`)} backAction={{ content: t("buttons.back"), url: "/sales" }}>
      <DataGrid
        endpoint={kind === "sales" ? "/api/realtime_sales_log" : "/api/realtime_shipping_log"}
        initial={initial}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: t("realtime_logs.resource.singular"), plural: t("realtime_logs.resource.plural") }}
        loadErrorText={t(`realtime_logs.${kind}.load_error`)}
        emptyState={{ heading: t(`realtime_logs.${kind}.empty_heading`), description: t("realtime_logs.empty_description") }}
        renderCell={renderCell}
      />
    </AppPage>
  );
}
