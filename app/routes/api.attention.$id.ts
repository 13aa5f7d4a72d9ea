// POST /api/attention/{id} {note}: dismisses the item with the staff member's note → {error, message};
// 422 without a note, 404 for an item that is not open.
import { dismissAttentionItem } from "~/attention/queue.server";
import { staffName } from "~/auth.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { readBody } from "~/lib/validation.server";

export const loader = onlyPost();
export const action = postRoute(
  apiRoute(async ({ request, params, staff }) => dismissAttentionItem(Number(params.id), await readBody(request), staffName(staff)), {
    action: "attention.dismiss",
    record: "attention_item",
    detail: ["note"],
  }),
);
