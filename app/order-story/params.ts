// The order page's address, checked at the edge (issue 32 item 8): /order/{increment_id}.
import { z } from "zod";

/** An order's number as the order system gives it: letters, digits, dot, dash and underscore, at most 64. */
export const orderParamsSchema = z.object({
  incrementId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "order_story.errors.increment_id"),
});

/** The order page's path of an order number. */
export const orderPath = (incrementId: string) => `/order/${encodeURIComponent(incrementId)}`;
