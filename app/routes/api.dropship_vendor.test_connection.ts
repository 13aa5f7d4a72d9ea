// POST /api/dropship_vendor/test_connection: Test Connection on the New Vendor form, with the connection
// fields as typed (the body Save sends). 422 per field, else 202 with the background run (D93); nothing is stored.
import { vendorConnectionTestRun } from "~/dropship/background-runs.server";
import { connectionToTest } from "~/dropship/vendors.server";
import { apiRoute, onlyPost } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";
import { startRunAnswer } from "~/runs/start-answer.server";

export const loader = onlyPost();

export const action = apiRoute(
  async ({ request, t }) => {
    if (request.method !== "POST") return onlyPost()();
    return startRunAnswer(vendorConnectionTestRun(connectionToTest(await readBody(request), null)), request, t);
  },
  {
    action: "dropship_vendor.test_connection",
    detail: ["transfer_mechanism_id", "sftp_host", "sftp_port", "sftp_user"],
  },
);
