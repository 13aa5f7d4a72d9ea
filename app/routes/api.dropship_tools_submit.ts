// POST /api/dropship_tools_submit (multipart): vendor_id, action, and ponum, sku or
// filepath where the action needs them (app/dropship/tool-actions.ts). Malformed
// input is a 422 per field, at once; otherwise the tool starts in the background
// (202 with the run; 409 while a tool of that vendor runs: D93) and
// GET /api/run/{id} ends with { error, message }: a refusal in words (an unknown
// PO, a path leaving the vendor's folder, a vendor that cannot be reached) is error true.
import { z } from "zod";
import { isToolAction, TOOL_ACTION_INPUT, TOOL_ACTIONS, TOOL_INPUT_MAX } from "~/dropship/tool-actions";
import { loadVendorRecord } from "~/dropship/vendors.server";
import type { Translate } from "~/i18n/i18n.server";
import { apiRoute } from "~/http/route.server";
import { fieldErrorsFromZod, readBody, ValidationError, type FieldErrors } from "~/lib/validation.server";
import { dropshipToolRun } from "~/dropship/background-runs.server";
import { startRunAnswer } from "~/runs/start-answer.server";

/** Blank fields count as not sent: the page sends only the input an action needs, other clients may send all three. */
const optionalText = (max: number, message: string) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim() : value), z.string({ message }).max(max, message).optional());

function toolRequest(t: Translate) {
  return z.object({
    vendor_id: z.coerce.number({ message: t("tools.errors.vendor_id") }).int(t("tools.errors.vendor_id")).positive(t("tools.errors.vendor_id")),
    action: z.enum(TOOL_ACTIONS, { message: t("tools.errors.action", { actions: TOOL_ACTIONS.join(", ") }) }),
    ponum: optionalText(TOOL_INPUT_MAX.ponum, t("tools.errors.ponum", { max: TOOL_INPUT_MAX.ponum })),
    sku: optionalText(TOOL_INPUT_MAX.sku, t("tools.errors.sku", { max: TOOL_INPUT_MAX.sku })),
    // What it holds ("..", an absolute path...) is checked against the vendor's folder: a refusal with the reason, not a 422.
    filepath: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z.string({ message: t("tools.errors.filepath", { max: TOOL_INPUT_MAX.filepath }) }).max(TOOL_INPUT_MAX.filepath, t("tools.errors.filepath", { max: TOOL_INPUT_MAX.filepath })).optional(),
    ),
  });
}

/** The input the action needs, when it is missing (reported with the other fields' errors). */
function missingInput(body: Record<string, unknown>, t: Translate): FieldErrors {
  const action = typeof body.action === "string" && isToolAction(body.action) ? body.action : null;
  const input = action ? TOOL_ACTION_INPUT[action] : null;
  if (!input?.required) return {};
  const value = body[input.field];
  return typeof value === "string" && value.trim() !== "" ? {} : { [input.field]: [t("tools.errors.required", { field: input.field, action })] };
}

export const action = apiRoute(async ({ request, t }) => {
  const body = await readBody(request);
  const parsed = toolRequest(t).safeParse(body);
  const errors = { ...missingInput(body, t), ...(parsed.success ? {} : fieldErrorsFromZod(parsed.error.issues)) };
  if (!parsed.success || Object.keys(errors).length) throw new ValidationError(errors, t("errors.unprocessable"));
  const { vendor_id, action, ponum, sku, filepath } = parsed.data;
  await loadVendorRecord(vendor_id); // an unknown vendor is a 404 at once, before anything starts
  return startRunAnswer(dropshipToolRun(vendor_id, action, { ponum, sku, filepath }), request, t);
});
