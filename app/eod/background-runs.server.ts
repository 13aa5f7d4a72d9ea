// Run Report, Export to AS400 and Retry Previous as background runs (D93).
import { message } from "~/runs/messages";
import type { RunDefinition } from "~/runs/runs.server";
import { eodOutcome, type EodAction } from "./actions.server";

export function eodRun(action: EodAction, url: URL): RunDefinition {
  return {
    kind: "eod",
    action,
    // Run, export and retry share the EOD lock (D31); this key keeps the staff's own to one at a time too.
    lockKey: "eod",
    params: Object.fromEntries(url.searchParams),
    failure: message(`eod.banners.${action}_error`),
    async work() {
      const { status: _status, ...outcome } = await eodOutcome(action, url);
      return outcome;
    },
  };
}
