// Drop Ship Tools (spec 000 §2, §7): one tool run for a vendor. Manual
// Utilities act on real vendor files (parse one, or parse and apply it; upload
// what is prepared; collect what is waiting; send a PO again): manual.server.ts.
// Vendor Testing plays the vendor for one PO (its 855, 856, 810, 997, 846, a
// sample 850), for vendors in test mode only (D66): vendor-testing.server.ts.
// Cancellations (send one, parse an answer, play the vendor's answer): cancellations.server.ts.
// The Transmission Test is transmission-test.server.ts. Every action answers
// { error, message } and writes a drop-ship log line; docs/dropship.md lists
// what each one does.
import type { Vendor } from "~/db/generated/client";
import { i18nServer, type Translate } from "~/i18n/i18n.server";
import { SecretError } from "~/lib/secrets.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { renderMessage, type RunMessage } from "~/runs/messages";
import { PathError, TransportError } from "@edi/transport";
import { vendorLog, writeLogs, type LogEntry } from "../flow/context.server";
import type { DropshipLogAction } from "../grids.server";
import { isTestModeOnly, TOOL_ACTION_INPUT, type ToolAction, type ToolInputField } from "../tool-actions";
import { runTransmissionTest, type ToolAnswer } from "../transmission-test.server";
import { loadVendorRecord } from "../vendors.server";
import { parseFile, receiveFiles, sendGeneratedFiles, sendPurchaseOrderAgain, type ParsedType } from "./manual.server";
import { refuse, ToolRefusal, type Outcome } from "./outcome.server";
import { answerCancellation, sendCancellation } from "./cancellations.server";
import { acknowledgePurchaseOrderFile, adviseInventory, answerForPurchaseOrder, sampleOrder } from "./vendor-testing.server";

export type { ToolAnswer };

export type ToolValues = Partial<Record<ToolInputField, string>>;

/** The drop-ship log action each tool writes (grids.server.ts LOG_ACTIONS). */
const LOG_ACTION: Partial<Record<ToolAction, DropshipLogAction>> = {
  "parse-855": "process_responses",
  "parse-process-855": "process_responses",
  "parse-856": "process_responses",
  "parse-process-856": "process_responses",
  "parse-810": "process_responses",
  "parse-process-810": "process_responses",
  "send-generated-files": "send_file",
  "receive-files": "receive_file",
  "send-cancellation": "cancel_requests",
  "parse-cancellation": "cancel_answers",
  "parse-process-cancellation": "cancel_answers",
  "cancellation-answer": "send_file",
  "855": "send_file",
  "856": "send_file",
  "846": "send_file",
  "810": "send_file",
  "997": "send_file",
  "850": "send_requests",
  "generate-sample-850": "send_file",
  "verify-upload": "send_file",
};

/**
 * A tool's answer for a background run (D96): the message in every language,
 * since it is made of several translated pieces. The Transmission Test and the
 * errors of a vendor's server or password are codes with parameters (D117).
 */
export async function runToolOutcome(vendorId: number, action: ToolAction, values: ToolValues): Promise<{ error: boolean; message: RunMessage }> {
  if (action === "test-connection" || action === "list-folders" || action === "verify-upload") {
    const answer = await runTransmissionTest(vendorId, action);
    if (action === "verify-upload") {
      const vendor = await loadVendorRecord(vendorId);
      const english = await i18nServer.getFixedT("en", "common");
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "send_file",
          status: answer.error ? "error" : "success",
          message: `Tools, Verify Upload: ${renderMessage(english, "en", answer.message)}`,
        },
      ]);
    }
    return answer;
  }
  const vendor = await loadVendorRecord(vendorId);
  const input = TOOL_ACTION_INPUT[action];
  const value = input ? values[input.field]?.trim() || undefined : undefined;
  let outcome: Outcome;
  try {
    if (isTestModeOnly(action) && vendor.test_mode !== 1) refuse("tools.messages.not_test_mode", { name: vendor.name });
    outcome = await perform(vendor, action, value);
  } catch (error) {
    if (error instanceof ToolRefusal) outcome = { error: true, text: error.text, ...error.details };
    else if (error instanceof PathError || error instanceof TransportError || error instanceof SecretError) {
      const coded = errorRunMessage(error);
      outcome = { error: true, text: coded, coded };
    } else throw error;
  }
  const english = await i18nServer.getFixedT("en", "common");
  await writeLogs([logLine(vendor, action, outcome, input?.field === "ponum" ? value : undefined, english)]);
  // The run keeps the codes; each reader reads them in their language (D96, D137).
  return { error: outcome.error, message: outcome.coded ?? outcome.text };
}

function logLine(vendor: Vendor, action: ToolAction, outcome: Outcome, po: string | undefined, english: Translate): LogEntry {
  const parseOnly = action.startsWith("parse-") && !action.startsWith("parse-process-");
  return {
    ...vendorLog(vendor),
    action: LOG_ACTION[action] ?? "send_file",
    status: outcome.error ? "error" : parseOnly ? "info" : "success",
    po_number: outcome.po ?? po ?? null,
    item_sku: outcome.sku ?? null,
    file_name: outcome.file ?? null,
    transmission_id: outcome.transmissionId ?? null,
    message: `Tools, ${english(`tools.actions.${action}`)}: ${renderMessage(english, "en", outcome.text)}`,
  };
}

async function perform(
  vendor: Vendor,
  action: Exclude<ToolAction, "test-connection" | "list-folders" | "verify-upload">,
  value: string | undefined,
): Promise<Outcome> {
  switch (action) {
    case "parse-855":
    case "parse-856":
    case "parse-810":
      return parseFile(vendor, action.slice(-3) as ParsedType, value!, false);
    case "parse-process-855":
    case "parse-process-856":
    case "parse-process-810":
      return parseFile(vendor, action.slice(-3) as ParsedType, value!, true);
    case "parse-cancellation":
    case "parse-process-cancellation":
      return parseFile(vendor, "865", value!, action === "parse-process-cancellation");
    case "send-cancellation":
      return sendCancellation(vendor, value!);
    case "cancellation-answer":
      return answerCancellation(vendor, value!);
    case "send-generated-files":
      return sendGeneratedFiles(vendor);
    case "receive-files":
      return receiveFiles(vendor);
    case "855":
    case "856":
    case "810":
      return answerForPurchaseOrder(vendor, action, value!);
    case "997":
      return acknowledgePurchaseOrderFile(vendor, value!);
    case "846":
      return adviseInventory(vendor, value);
    case "850":
      return sendPurchaseOrderAgain(vendor, value!);
    case "generate-sample-850":
      return sampleOrder(vendor, value!);
  }
}
