// POST /api/dropship_vendor/{id}/test_connection: Test Connection on the vendor form, with the form's
// connection fields as typed (the body Save sends; a blank sftp_pass means the stored password, which never
// leaves the server). 422 per field for a connection that could not be saved either (same rules as Save);
// otherwise 202 with the background run (409 while a tool of that vendor runs), whose end is { error, message }.
import { vendorConnectionTestRun } from "~/dropship/background-runs.server";
import { connectionToTest, loadVendorRecord } from "~/dropship/vendors.server";
import { apiRoute, onlyPost } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();

export const action = apiRoute(
  async ({ request, params, t }) => {
    if (request.method !== "POST") return onlyPost()();
    const vendor = await loadVendorRecord(Number(params.id)); // an unknown vendor is a 404 before the body is read
    return startRunAnswer(vendorConnectionTestRun(connectionToTest(await readBody(request), vendor)), request, t);
  },
  {
    action: "dropship_vendor.test_connection",
    record: "dropship_vendor",
    detail: ["transfer_mechanism_id", "sftp_host", "sftp_port", "sftp_user"],
  },
);
