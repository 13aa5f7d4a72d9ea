// Generate Auto-Assignments File as a background run (D93).
import { message } from "~/runs/messages";
import type { RunDefinition } from "~/runs/runs.server";
import { autoAssignmentFileOutcome } from "./as400-assignment-files.server";

export function autoAssignmentRun(): RunDefinition {
  return {
    kind: "auto_assignment",
    action: "generate",
    lockKey: "auto_assignment_file",
    failure: message("sales.unassigned.generate_error"),
    async work() {
      const { error, message: text, ...data } = await autoAssignmentFileOutcome();
      return { error, message: text, data };
    },
  };
}
