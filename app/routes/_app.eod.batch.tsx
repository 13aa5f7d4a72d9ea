// EOD Batches (spec 001 §2): the files exported to the AS400 over the generic
// grid, id desc, 'No batches found'; Back to Report goes to /eod/report.
import { useLoaderData } from "@remix-run/react";

import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { renderEodCell } from "~/eod/cells";
import { listEodBatches } from "~/eod/grids.server";
import { DataGrid, gridShouldRevalidate } from "~/grid/DataGrid";
import { gridPageData } from "~/grid/grid-page.server";
import { pageLoader } from "~/http/route.server";

export const loader = pageLoader(({ url, t }) => gridPageData(listEodBatches, url.searchParams, t));
export const shouldRevalidate = gridShouldRevalidate;

export default function EodBatches() {
  const { t } = useTranslation();
  return (
    <AppPage fullWidth title={t("eod.batch_title")} secondaryActions={[{ content: t("eod.buttons.back_to_report"), url: "/eod/report" }]}>
      <DataGrid
        endpoint="/api/eod_batch"
        initial={useLoaderData<typeof loader>()}
        defaultSort={{ key: "id", dir: "desc" }}
        rowKey="id"
        resourceName={{ singular: t("eod.batch_singular"), plural: t("eod.batch_plural") }}
        loadErrorText={t("eod.banners.batches_load_error")}
        emptyState={{ heading: t("eod.empty_batches") }}
        renderCell={renderEodCell}
      />
    </AppPage>
  );
}
