// GET /api/special_order_log_download?id=: the pulled file as it came from the AS400, as a download.
import { apiRoute } from "~/http/route.server";
import { specialOrderLogFile } from "~/special-orders/special-orders.server";

export const loader = apiRoute(async ({ url }) => {
  const file = await specialOrderLogFile(url.searchParams.get("id"));
  const asciiName = file.name.replace(/[^\w.-]+/g, "_");
  return new Response(Buffer.from(file.content), {
    headers: {
      "content-type": file.name.toLowerCase().endsWith(".csv") ? "text/csv; charset=utf-8" : "application/octet-stream",
      "content-disposition": `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "content-length": String(file.content.byteLength),
      "cache-control": "no-store",
    },
  });
});
