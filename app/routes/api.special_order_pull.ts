// POST /api/special_order_pull: runs the special_order_pull feed now → { error, msg }
// (spec 001 §7's path; POST, not its GET: D54).
import { apiRoute, onlyPost, postRoute } from "~/lib/route.server";
import { pullSpecialOrdersNow } from "~/special-orders/pull.server";

export const loader = onlyPost();
export const action = postRoute(apiRoute(() => pullSpecialOrdersNow()));
