// /file/{id}: a stored file (a transmission's number, or eod-{number} for an EOD batch file, D262), a page of
// its content at a time (?page=), behind the same authentication as every page (issue 32 items 2 and 8).
import { useLoaderData } from "@remix-run/react";
import { Banner } from "@shopify/polaris";
import { useTranslation } from "react-i18next";
import { AppPage } from "~/components/AppPage";
import { FileViewerPage } from "~/file-viewer/FileViewerPage";
import { fileView, parseFileKey } from "~/file-viewer/files.server";
import { pageLoader } from "~/http/route.server";
import { renderForReader } from "~/i18n/messages";
import { NotFoundError, ValidationError, renderProblem } from "~/lib/validation.server";

export const loader = pageLoader(async ({ params, url, t }) => {
  try {
    const key = parseFileKey({ id: params.id, page: url.searchParams.get("page") });
    return { id: key.key, problem: null, view: renderForReader(t, await fileView(key, key.page)) };
  } catch (error) {
    if (error instanceof NotFoundError) return Response.json({ id: params.id ?? "", problem: renderProblem(t, error.problem), view: null }, { status: 404 });
    if (error instanceof ValidationError)
      return Response.json(
        {
          id: params.id ?? "",
          problem: Object.values(error.errors)
            .flat()
            .map((problem) => renderProblem(t, problem))
            .join(" "),
          view: null,
        },
        { status: 422 },
      );
    throw error;
  }
});

export default function FileRoute() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>() as { id: string; problem: string | null; view: Parameters<typeof FileViewerPage>[0]["view"] | null };
  const title = data.view ? t("file_viewer.heading", { name: data.view.file.file_name }) : t("file_viewer.title", { id: data.id });
  return (
    <AppPage title={title} subtitle={t("file_viewer.title", { id: data.id })} fullWidth>
      {data.view ? (
        <FileViewerPage view={data.view} />
      ) : (
        <Banner tone="critical" title={t("file_viewer.load_error")}>
          <p>{data.problem}</p>
        </Banner>
      )}
    </AppPage>
  );
}
