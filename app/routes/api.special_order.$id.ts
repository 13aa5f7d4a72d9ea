// GET /api/special_order/{id}: the revise form's fields, items as a JSON string.
// POST /api/special_order/{id} (JSON or form, _method=PUT): save, then send to Shopify at once → { error, message } (spec 001 §7).
import { apiRoute } from "~/http/route.server";
import { intendedMethod, readBody, renderAnswer } from "~/lib/validation.server";
import { shopifyAdminFor } from "~/shopify/admin-client.server";
import { getSpecialOrderForm, updateSpecialOrder } from "~/special-orders/special-orders.server";

export const loader = apiRoute(({ params }) => getSpecialOrderForm(Number(params.id)));

export const action = apiRoute(
  async ({ request, params, staff, t }) => {
    const body = await readBody(request);
    if (!["PUT", "PATCH"].includes(intendedMethod(request, body))) {
      return Response.json({ error: true, message: "Use POST with _method=PUT to revise" }, { status: 405 });
    }
    const { status, body: answer } = await updateSpecialOrder(Number(params.id), body, async () => shopifyAdminFor(staff));
    return Response.json(renderAnswer(t, answer), { status });
  },
  { action: ({ method }) => (["PUT", "PATCH"].includes(method) ? "special_order.save" : null), record: "special_order" },
);
