// GET /api/reassignment?id= → data (the assignment first), available_stores, available_qtys (spec 001 §7).
import { apiRoute } from "~/lib/route.server";
import { reassignmentData } from "~/sales/assignments.server";

export const loader = apiRoute(({ url, t }) => reassignmentData(Number(url.searchParams.get("id")), t));
