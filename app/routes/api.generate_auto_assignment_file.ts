// POST /api/generate_auto_assignment_file → error, message: eligibility computed, the eligible
// orders written to the AS400 (docs/as400-files.md).
import { apiRoute } from "~/lib/route.server";
import { generateAutoAssignmentFile } from "~/sales/as400-assignment-files.server";

export const action = apiRoute(({ t }) => generateAutoAssignmentFile(t));
