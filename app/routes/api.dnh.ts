// GET /api/dnh?assignment_id= → the assignment's fields. POST /api/dnh (assignment_id, transfer_num, reason)
// → error, message: the transfer is recorded and the quantity released for reassignment (spec 001 §7; D21).
import { apiRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";
import { createDnhTransfer, dnhData } from "~/sales/assignments.server";

export const loader = apiRoute(({ url, t }) => dnhData(Number(url.searchParams.get("assignment_id")), t));

export const action = apiRoute(async ({ request, t }) => createDnhTransfer(await readBody(request), t));
