// GET /api/file/{id}/download: the stored bytes as an attachment, by id only (never a path a user typed).
import { fileDownload, parseFileKey } from "~/file-viewer/files.server";
import { apiRoute } from "~/http/route.server";

export const loader = apiRoute(({ params }) => fileDownload(parseFileKey({ id: params.id })));
