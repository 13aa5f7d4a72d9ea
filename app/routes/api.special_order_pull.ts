// GET /api/special_order_pull: runs the special_order_pull feed now → { error, msg } (spec 001 §7).
import { apiRoute } from "~/lib/route.server";
import { pullSpecialOrdersNow } from "~/special-orders/pull.server";

export const loader = apiRoute(() => pullSpecialOrdersNow());
