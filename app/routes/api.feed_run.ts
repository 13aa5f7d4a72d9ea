// POST /api/feed_run?feed_name=: starts the feed now on this instance, in the
// background (spec 001 §7's path, §8; POST, not its GET: D54; D93): 202 with
// the run at once, 409 while a Run Feed of it goes on; GET /api/run/{id}
// ends with error, message, detail (the run's own message) and log_id.
// The route hands in the registry (D97): app/feeds never imports jobs/.
import { runFeedNow } from "~/runs/run-feed-now.server";
import { startRunAnswer } from "~/runs/start-answer.server";
import { apiRoute, onlyPost, postRoute } from "~/http/route.server";
import { FEED_JOBS } from "../../jobs/registry";

export const loader = onlyPost();
export const action = postRoute(
  apiRoute(
    async ({ request, t }) => {
      const next = await runFeedNow(request, FEED_JOBS);
      return "run" in next ? startRunAnswer(next.run, request, t) : next;
    },
    {
      action: "feed.run",
      record: ({ url }) => (url.searchParams.get("feed_name")?.trim() ? { type: "feed", id: url.searchParams.get("feed_name")!.trim() } : null),
    },
  ),
);
