// GET /api/dropship_vendor: page, sort, sort_dir, name, enabled, test_mode, query_value → data, last_page, total.
// POST /api/dropship_vendor: JSON body of the vendor form → the vendor (422 with per-field errors).
import { createVendor, listVendors } from "~/dropship/vendors.server";
import { apiRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = apiRoute(({ url }) => listVendors(url.searchParams));

export const action = apiRoute(
  async ({ request }) => {
    if (request.method !== "POST") return Response.json({ error: true, message: "Use POST to create a vendor" }, { status: 405 });
    return createVendor(await readBody(request));
  },
  { action: ({ method }) => (method === "POST" ? "dropship_vendor.create" : null), record: "dropship_vendor", detail: ["name"] },
);
