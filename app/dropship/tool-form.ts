// The Tools form (POST /api/dropship_tools_submit), declared once (D127):
// vendor_id, action, and ponum, sku or filepath where the action needs them
// (./tool-actions.ts). Messages are codes, rendered at the edge.
import { z } from "zod";
import { coded } from "~/lib/form-messages";
import { isToolAction, TOOL_ACTION_INPUT, TOOL_ACTIONS, TOOL_INPUT_MAX } from "./tool-actions";

/** Blank fields count as not sent: the page sends only the input an action needs, other clients may send all three. */
const optionalText = (max: number, message: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim() : value),
    z.string({ message }).max(max, message).optional(),
  );

export const toolForm = z
  .object({
    vendor_id: z.coerce.number({ message: "tools.errors.vendor_id" }).int("tools.errors.vendor_id").positive("tools.errors.vendor_id"),
    action: z.enum(TOOL_ACTIONS, { message: coded("tools.errors.action", { actions: TOOL_ACTIONS.join(", ") }) }),
    ponum: optionalText(TOOL_INPUT_MAX.ponum, coded("tools.errors.ponum", { max: TOOL_INPUT_MAX.ponum })),
    sku: optionalText(TOOL_INPUT_MAX.sku, coded("tools.errors.sku", { max: TOOL_INPUT_MAX.sku })),
    // What it holds ("..", an absolute path...) is checked against the vendor's folder: a refusal with the reason, not a 422.
    filepath: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
      z
        .string({ message: coded("tools.errors.filepath", { max: TOOL_INPUT_MAX.filepath }) })
        .max(TOOL_INPUT_MAX.filepath, coded("tools.errors.filepath", { max: TOOL_INPUT_MAX.filepath }))
        .optional(),
    ),
  })
  // The input the action needs, when it is missing: reported with the other fields' errors (`when`).
  .superRefine(
    (value, ctx) => {
      const action = typeof value.action === "string" && isToolAction(value.action) ? value.action : null;
      const input = action ? TOOL_ACTION_INPUT[action] : null;
      if (!input?.required) return;
      const given = value[input.field];
      if (typeof given === "string" && given.trim() !== "") return;
      ctx.addIssue({ code: "custom", path: [input.field], message: coded("tools.errors.required", { field: input.field, action }) });
    },
    { when: () => true },
  );
