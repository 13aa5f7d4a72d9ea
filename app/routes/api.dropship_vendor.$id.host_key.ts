// POST /api/dropship_vendor/{id}/host_key: { action: "reset" } forgets the pinned
// SFTP host key; { action: "pin", fingerprint: "SHA256:..." } pins the one given.
// Answers the vendor (with sftp_host_key); 422 per field. Both are logged (D64).
import { changeVendorHostKey } from "~/dropship/vendors.server";
import { apiRoute, onlyPost } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = onlyPost();

export const action = apiRoute(
  async ({ request, params }) => {
    if (request.method !== "POST") return onlyPost()();
    return changeVendorHostKey(Number(params.id), await readBody(request));
  },
  {
    action: ({ method, body }) => (method !== "POST" ? null : body.action === "pin" ? "dropship_vendor.host_key_pin" : "dropship_vendor.host_key_reset"),
    record: "dropship_vendor",
    detail: ["fingerprint"],
  },
);
