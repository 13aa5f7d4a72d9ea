// Step 5, Clear Completed Ship Requests: requests whose assignment is Complete
// leave the working set (status archived, archived_at). They stay in the
// database and the grid (filter by status) for the record.
import { logMessage } from "~/i18n/english.server";
import prisma from "~/db.server";
import { message } from "~/runs/messages";
import { plural, StepReport, writeLogs, type StepResult } from "./context.server";

export async function clearCompletedShipRequests(): Promise<StepResult> {
  const report = new StepReport();
  const cleared = await prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ vendor_id: number; vendor_name: string; count: bigint }>>`
      WITH archived AS (
        UPDATE dropship_request r SET status = 'archived', archived_at = now(), updated_at = now()
          FROM assignment a
         WHERE a.id = r.assignment_id AND a.assign_status = 4 AND r.archived_at IS NULL
        RETURNING r.vendor_id, r.vendor_name)
      SELECT vendor_id, vendor_name, count(*) AS count FROM archived GROUP BY vendor_id, vendor_name ORDER BY vendor_name`;
    await writeLogs(
      rows.map((row) => ({
        vendor_id: row.vendor_id,
        vendor_name: row.vendor_name,
        action: "clear_completed" as const,
        status: "success" as const,
        ...logMessage("logs.dropship.cleared", { requests: message("logs.n.completed_request", { count: Number(row.count) }) }),
      })),
      tx,
    );
    return rows.reduce((sum, row) => sum + Number(row.count), 0);
  });
  report.count("archived", cleared);
  return report.result(
    cleared ? `${plural(cleared, "completed ship request")} archived.` : "No completed ship requests to clear.",
    cleared ? message("dropship_test.results.clear_completed", { count: cleared }) : message("dropship_test.results.clear_completed_none"),
  );
}
