// POST /api/import_assignment → error, message, error_messages: the AS400's assignment files, through
// the assignment_import feed (so it never runs twice at once; docs/as400-files.md).
import { runFeed } from "~/feeds/runner.server";
import { apiRoute } from "~/http/route.server";
import { importAssignmentFiles, importFeedOutcome, type AssignmentImport } from "~/sales/as400-assignment-files.server";
import { ASSIGNMENT_IMPORT_FEED } from "~/sales/feeds.server";
import { MOVE_WAIT_MS } from "~/sales/shopify-location.server";

export const action = apiRoute(
  async ({ t }) => {
    let imported: AssignmentImport | null = null;
    const run = await runFeed(
      ASSIGNMENT_IMPORT_FEED.name,
      async (context) => {
        // The moves to the sources' Shopify locations do not hold the button's answer for long (D166).
        imported = await importAssignmentFiles(context, { moveWaitMs: MOVE_WAIT_MS });
        return importFeedOutcome(imported);
      },
      { defaultCron: ASSIGNMENT_IMPORT_FEED.defaultCron },
    );
    if (imported) return (imported as AssignmentImport).answer;
    return {
      error: true,
      message: run.status === "skipped" ? t("sales.in_progress.import_running") : t("sales.in_progress.import_error"),
      error_messages: run.status === "failed" ? [run.message] : [],
    };
  },
  { action: "assignment.import" },
);
