// GET /api/dnh?assignment_id= → the assignment's fields. POST /api/dnh (assignment_id, transfer_num, reason)
// → error, message: the transfer is recorded and the quantity released for reassignment (spec 001 §7; D21).
import { apiRoute } from "~/http/route.server";
import { parseInput, readBody } from "~/lib/validation.server";
import { ASSIGNMENT_FORM_SUMMARY, dnhForm } from "~/sales/assignment-forms";
import { createDnhTransfer, dnhData } from "~/sales/assignment-changes.server";

export const loader = apiRoute(({ url }) => dnhData(Number(url.searchParams.get("assignment_id"))));

export const action = apiRoute(async ({ request }) => createDnhTransfer(parseInput(dnhForm, await readBody(request), ASSIGNMENT_FORM_SUMMARY.dnh)), {
  action: "assignment.dnh",
  record: ({ body }) => (body.assignment_id ? { type: "assignment", id: String(body.assignment_id) } : null),
  detail: ["transfer_num", "reason"],
});
