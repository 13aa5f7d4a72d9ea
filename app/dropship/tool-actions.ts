// The Drop Ship Tools actions (spec 000 §7), by section, and the input each
// needs: shared by the Tools page (which buttons, which fields) and its
// /api route (what is validated). docs/dropship.md explains each one.
import { TRANSMISSION_TEST_ACTIONS } from "./transmission-test-actions";

export { TRANSMISSION_TEST_ACTIONS };

/** Manual Utilities: act on real vendor files. */
export const MANUAL_UTILITY_ACTIONS = [
  "parse-855",
  "parse-process-855",
  "parse-856",
  "parse-process-856",
  "parse-810",
  "parse-process-810",
  "send-generated-files",
  "receive-files",
  "parse-cancellation",
  "parse-process-cancellation",
] as const;

/** Vendor Testing: play the vendor, to test the flow without it. */
export const VENDOR_TESTING_ACTIONS = ["855", "856", "846", "810", "997", "850", "send-cancellation", "generate-sample-850", "cancellation-answer"] as const;

/**
 * Vendor Testing actions that put made-up files into the vendor's folders: the
 * vendor's answers (855, 856, 810, 997, 846) into its incoming folder, a sample
 * order into its outcoming folder. They run only for a vendor in test mode
 * (D66): a real vendor would read the sample order, and our flow the made-up
 * answers. Resend 850 sends a real order again, and Send Cancellation a real
 * cancellation (they sit here beside the PO number they take): any vendor.
 */
export const TEST_MODE_ONLY_ACTIONS: readonly VendorTestingAction[] = ["855", "856", "846", "810", "997", "generate-sample-850", "cancellation-answer"];

/** Actions that put a file on the vendor's server, where it is read at once: the page asks before each (issue 18 item 3). */
export const SENDING_TOOL_ACTIONS: readonly ToolAction[] = [
  "send-generated-files",
  "send-cancellation",
  "855",
  "856",
  "846",
  "810",
  "997",
  "850",
  "generate-sample-850",
  "cancellation-answer",
];

export const isTestModeOnly = (action: string) => (TEST_MODE_ONLY_ACTIONS as readonly string[]).includes(action);

export const TOOL_ACTIONS = [...MANUAL_UTILITY_ACTIONS, ...VENDOR_TESTING_ACTIONS, ...TRANSMISSION_TEST_ACTIONS] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];
export type VendorTestingAction = (typeof VENDOR_TESTING_ACTIONS)[number];

export type ToolInputField = "ponum" | "sku" | "filepath";

export interface ToolInput {
  field: ToolInputField;
  required: boolean;
}

/** The one input an action reads, if any; `846` takes a PO only to narrow its stock rows. */
export const TOOL_ACTION_INPUT: Record<ToolAction, ToolInput | null> = {
  "parse-855": { field: "filepath", required: true },
  "parse-process-855": { field: "filepath", required: true },
  "parse-856": { field: "filepath", required: true },
  "parse-process-856": { field: "filepath", required: true },
  "parse-810": { field: "filepath", required: true },
  "parse-process-810": { field: "filepath", required: true },
  "send-generated-files": null,
  "receive-files": null,
  "send-cancellation": { field: "ponum", required: true },
  "parse-cancellation": { field: "filepath", required: true },
  "parse-process-cancellation": { field: "filepath", required: true },
  "855": { field: "ponum", required: true },
  "856": { field: "ponum", required: true },
  "846": { field: "ponum", required: false },
  "810": { field: "ponum", required: true },
  "997": { field: "ponum", required: true },
  "850": { field: "ponum", required: true },
  "generate-sample-850": { field: "sku", required: true },
  "cancellation-answer": { field: "ponum", required: true },
  "test-connection": null,
  "list-folders": null,
  "verify-upload": null,
};

/** Input limits: BEG03 holds 22 characters; SKUs as the product table keeps them. */
export const TOOL_INPUT_MAX = { ponum: 22, sku: 64, filepath: 1000 } as const;

export const isToolAction = (value: string): value is ToolAction => (TOOL_ACTIONS as readonly string[]).includes(value);

/** Whether a button can be pressed with what is typed (the page disables it otherwise). */
export function toolInputReady(action: ToolAction, values: Partial<Record<ToolInputField, string>>): boolean {
  const input = TOOL_ACTION_INPUT[action];
  return !input || !input.required || Boolean(values[input.field]?.trim());
}
