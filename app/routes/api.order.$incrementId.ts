// GET /api/order/{increment_id}: the order's whole story (issue 32 items 1 and 8), as /order/{increment_id} shows it.
import { apiRoute } from "~/http/route.server";
import { parseInput } from "~/lib/validation.server";
import { orderParamsSchema } from "~/order-story/params";
import { orderStory } from "~/order-story/story.server";

export const loader = apiRoute(({ params }) => orderStory(parseInput(orderParamsSchema, params).incrementId));
