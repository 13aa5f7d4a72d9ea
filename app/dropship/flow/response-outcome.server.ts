// What reading a vendor file comes to (Process Ship Responses): its outcome
// (processed or failed, the first error and how many more, a summary), in
// English and as codes (D114, D124), and the log lines of its first row errors.
import { englishText, logMessage } from "~/i18n/english.server";
import { message, type RunMessage } from "~/i18n/messages";
import { describeFault, faultMessage, type Fault } from "@edi/x12";
import { type ApplyContext } from "./apply-responses.server";
import { plural, vendorLog } from "./context.server";

export interface FileOutcome {
  status: "processed" | "failed";
  error?: string;
  /** The error as a code (D124): our fault sentences in the reader's language, the file's values inside them. */
  errorCode?: RunMessage;
  errorSegment?: string;
  summary: string;
  /** The summary as a code, for the log line (D114). */
  summaryCode?: RunMessage;
}

/** A file outcome's summary, in English and as a code. */
export function summaryOf(code: string, params?: Record<string, unknown>): { summary: string; summaryCode: RunMessage } {
  const coded = message(code, params);
  return { summary: englishText(coded), summaryCode: coded };
}

// --- X12 -----------------------------------------------------------------------

/**
 * The first fault of a file (by position) and how many more: the file's error, in English and as a code.
 * `notKept`: faults counted but not kept (past the first 100 of a set).
 */
export function faultError(faults: Fault[], notKept = 0): Pick<FileOutcome, "error" | "errorCode" | "errorSegment"> {
  const first = [...faults].sort((a, b) => a.segmentIndex - b.segmentIndex)[0];
  const more = faults.length - 1 + notKept;
  return {
    error: `${describeFault(first)}${more ? ` (and ${plural(more, "more fault")})` : ""}`,
    errorCode: more ? message("logs.dropship.fault_and_more", { fault: faultMessage(first), count: more }) : faultMessage(first),
    errorSegment: `${first.segmentIndex} ${first.segmentId}`,
  };
}

/** The first row error of a CSV file and how many more, in English and as a code. */
export function rowError(errors: Array<{ message: string; coded?: RunMessage }>, count: number): Pick<FileOutcome, "error" | "errorCode"> {
  const more = count - 1;
  const first = errors[0].coded ?? { text: errors[0].message };
  return {
    error: `${errors[0].message}${more ? ` (and ${plural(more, "more error")})` : ""}`,
    errorCode: more ? message("logs.dropship.row_error_and_more", { error: first, count: more }) : first,
  };
}

/** Row errors logged a line each: the first LOGGED_ROW_ERRORS, then one line for how many more (the outcome counts them all). */
const LOGGED_ROW_ERRORS = 20;

export function csvRowErrors(context: ApplyContext, errors: Array<{ message: string; coded?: RunMessage }>, count = errors.length) {
  const base = {
    ...vendorLog(context.vendor),
    action: "process_responses" as const,
    status: "error" as const,
    file_name: context.fileName,
    transmission_id: context.transmissionId,
  };
  for (const error of errors.slice(0, LOGGED_ROW_ERRORS)) {
    // The row error is our sentence (D124) with the file's values in it; the file name is data.
    context.logs.push({ ...base, ...logMessage("logs.dropship.row_error", { file: context.fileName, error: error.coded ?? { text: error.message } }) });
  }
  const more = count - Math.min(errors.length, LOGGED_ROW_ERRORS);
  if (more > 0) context.logs.push({ ...base, ...logMessage("logs.dropship.row_errors_not_listed", { file: context.fileName, count: more }) });
}
