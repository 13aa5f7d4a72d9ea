// The Test page's steps and the Tools actions as background runs (D93).
import { randomUUID } from "node:crypto";
import { feedSkipped, runFeedFor } from "~/runs/feed-runs.server";
import type { FeedJob } from "~/feeds/runner.server";
import { message, plainText } from "~/runs/messages";
import { startRun, type RunDefinition } from "~/runs/runs.server";
import type { MessageTranslate } from "~/i18n/messages";
import { ValidationError } from "~/lib/validation.server";
import type { Vendor } from "~/db/generated/client";
import type { StepResult } from "./flow/context.server";
import { DROPSHIP_STEPS, stepJob, type DropshipStepAction } from "./flow/steps.server";
import type { ToolAction } from "./tool-actions";
import { testVendorConnection } from "./transmission-test.server";
import type { VendorApi } from "./vendor-fields";
import { connectionToTest, loadVendorRecord, updateVendor, type ConnectionToTest } from "./vendors.server";
import { runToolOutcome, type ToolValues } from "./tools/run.server";

export function dropshipStepRun(action: DropshipStepAction): RunDefinition {
  const step = DROPSHIP_STEPS[action];
  return {
    kind: "dropship_test",
    action,
    lockKey: `dropship_step:${action}`,
    failure: message("tools.failure"),
    async work(run) {
      let stepResult: StepResult | undefined;
      const job: FeedJob = async (context) => {
        const outcome = await stepJob({ ...step, run: async () => (stepResult = await step.run()) })(context);
        return outcome;
      };
      const result = await runFeedFor(run, step.feed, job, step.defaultCron);
      if (result.status === "skipped") return { error: true, message: message("tools.failure"), detail: feedSkipped(step.feed) };
      if (result.status === "failed" || !stepResult)
        return { error: true, message: message("tools.failure"), detail: result.messageCode ?? plainText(result.message) };
      // The spec shows the server's message (spec 000 §8): the step's summary, its problems under it (codes, D114).
      const problems = stepResult.problemCodes ?? (stepResult.problems ?? []).map(plainText);
      return {
        error: stepResult.error,
        message: stepResult.summary ?? plainText(stepResult.message),
        ...(problems.length
          ? { detail: message("runs.problems", { problems: problems.slice(0, 5), more: Math.max(0, problems.length - 5), count: problems.length }) }
          : {}),
        data: { counts: stepResult.meta },
      };
    },
  };
}

export function dropshipToolRun(vendorId: number, action: ToolAction, values: ToolValues): RunDefinition {
  return {
    kind: "dropship_tools",
    action,
    // One tool at a time per vendor: they share its server and its files.
    lockKey: `dropship_tool:${vendorId}`,
    params: { vendor_id: vendorId, ...values },
    failure: message("tools.failure"),
    async work() {
      return runToolOutcome(vendorId, action, values);
    },
  };
}

/**
 * Test Connection on the vendor form (issue 32): Tools' connection test with the form's values, in the background as
 * on Tools, under the vendor's tool lock (it talks to the same server); a kind of its own, so the Tools page does not
 * show it as its last run. A typed password lives in this closure only:
 * never in the run's params, its answer or a log.
 */
export function vendorConnectionTestRun(test: ConnectionToTest): RunDefinition {
  const vendorId = test.vendor.id;
  return {
    kind: "dropship_vendor_test",
    action: "test-connection",
    lockKey: vendorId ? `dropship_tool:${vendorId}` : `dropship_tool:new:${randomUUID()}`,
    params: { vendor_id: vendorId || null, from: "vendor_form", unsaved: test.unsaved },
    failure: message("tools.failure"),
    work: () => testVendorConnection(test),
  };
}

/**
 * Save on the vendor form (D280): the vendor saved, and when its connection changed (server, user, password typed,
 * folders) that connection tested at once in the background, as Test Connection tests a saved vendor. Staff then
 * learn on the vendor list whether the new settings work, without a second trip. Null when nothing to test or a
 * tool of that vendor is running (its lock); a connection that cannot be tested (no host) is not tested.
 */
export async function updateVendorAndTest(
  id: number,
  body: unknown,
  t: MessageTranslate,
  language: string,
): Promise<VendorApi & { connection_test_run_id: number | null }> {
  const before = await loadVendorRecord(id);
  const changed = connectionChanged(body, before);
  const saved = await updateVendor(id, body);
  if (!changed) return { ...saved, connection_test_run_id: null };
  let test: ConnectionToTest;
  try {
    // The saved vendor with the form's values and no password typed: the stored (new) one is used.
    test = connectionToTest({ ...(body as Record<string, unknown>), sftp_pass: "" }, await loadVendorRecord(id));
  } catch (error) {
    if (error instanceof ValidationError) return { ...saved, connection_test_run_id: null };
    throw error;
  }
  const answer = await startRun(vendorConnectionTestRun(test), t, language);
  return { ...saved, connection_test_run_id: answer.started ? answer.run.id : null };
}

function connectionChanged(body: unknown, existing: Vendor): boolean {
  try {
    return connectionToTest(body, existing).unsaved;
  } catch (error) {
    if (error instanceof ValidationError) return false;
    throw error;
  }
}
