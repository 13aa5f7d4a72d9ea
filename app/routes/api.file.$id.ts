// GET /api/file/{id}[?page=]: a stored file's header, the records naming it and one page of its content (issue 32 item 2).
// {id}: a transmission's number, or eod-{number} for an EOD batch file (D262).
import { fileView, parseFileKey } from "~/file-viewer/files.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ params, url }) => {
  const key = parseFileKey({ id: params.id, page: url.searchParams.get("page") });
  return fileView(key, key.page);
});
