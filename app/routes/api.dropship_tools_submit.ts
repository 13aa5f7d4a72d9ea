// POST /api/dropship_tools_submit (multipart): vendor_id, action, and ponum, sku or
// filepath where the action needs them (app/dropship/tool-actions.ts). Malformed
// input is a 422 per field, at once; otherwise the tool starts in the background
// (202 with the run; 409 while a tool of that vendor runs: D93) and
// GET /api/run/{id} ends with { error, message }: a refusal in words (an unknown
// PO, a path leaving the vendor's folder, a vendor that cannot be reached) is error true.
import { toolForm } from "~/dropship/tool-form";
import { loadVendorRecord } from "~/dropship/vendors.server";
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { dropshipToolRun } from "~/dropship/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";
import { orderOf } from "~/http/activity.server";

export const action = apiRoute(
  async ({ request, t }) => {
    const { vendor_id, action, ponum, sku, filepath } = parseInput(toolForm, await readBody(request));
    await loadVendorRecord(vendor_id); // an unknown vendor is a 404 at once, before anything starts
    return startRunAnswer(dropshipToolRun(vendor_id, action, { ponum, sku, filepath }), request, t);
  },
  {
    action: "dropship_tools.run",
    record: ({ body }) => (body.vendor_id ? { type: "dropship_vendor", id: String(body.vendor_id) } : null),
    order: orderOf("purchase_order", "ponum"),
    detail: ["action", "ponum", "sku", "filepath"],
  },
);
