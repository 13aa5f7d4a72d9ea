// POST /api/dropship_tools_submit (multipart): vendor_id, action, and ponum, sku or
// filepath where an action needs them → { error, message }. This issue's actions
// are the Transmission Test's; the drop-ship actions join them with the flow.
import { z } from "zod";
import { runTransmissionTest, TRANSMISSION_TEST_ACTIONS } from "~/dropship/transmission-test.server";
import { apiRoute } from "~/lib/route.server";
import { fieldErrorsFromZod, readBody, ValidationError } from "~/lib/validation.server";

const ToolRequest = z.object({
  vendor_id: z.coerce.number({ message: "vendor_id must be a vendor's id" }).int().positive("vendor_id must be a vendor's id"),
  action: z.enum(TRANSMISSION_TEST_ACTIONS, { message: `action must be one of: ${TRANSMISSION_TEST_ACTIONS.join(", ")}` }),
});

export const action = apiRoute(async ({ request, t }) => {
  const parsed = ToolRequest.safeParse(await readBody(request));
  if (!parsed.success) throw new ValidationError(fieldErrorsFromZod(parsed.error.issues), t("errors.unprocessable"));
  return runTransmissionTest(parsed.data.vendor_id, parsed.data.action, t);
});
