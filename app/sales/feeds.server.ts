// The sales area's feed: Retrieve New Assignments From AS400 on a schedule (jobs/registry.ts) and by its button.
import type { FeedJob } from "~/feeds/runner.server";
import { importAssignmentFiles, importFeedOutcome } from "./as400-assignment-files.server";

export const ASSIGNMENT_IMPORT_FEED = { name: "assignment_import", defaultCron: "*/20 * * * *" } as const;

/** Scheduled runs: the feed log keeps the problems as codes (D116); the button's answer is not used. */
export const assignmentImportJob: FeedJob = async (context) => importFeedOutcome(await importAssignmentFiles(context));
