// Run Feed (POST /api/feed_run?feed_name=): the instance that gets the request
// starts the feed itself, through runFeed, so it works on every instance
// whether or not its scheduler is on (D28). It runs in the background (D93):
// the answer comes at once with the run's id, and GET /api/run/{id} follows
// it to its end ('Feed ran successfully' or the spec's error text, the run's
// own message as detail). A Run Feed of the same feed already going anywhere
// is refused with its run; a scheduled run going makes the feed run skipped,
// which the run's result says. Its words are codes, rendered by the route (D137).
import { z } from "zod";
import prisma from "~/db.server";
import { message, type CodedMessage } from "~/i18n/messages";
import { NotFoundError, ValidationError } from "~/lib/validation.server";
import { feedRun } from "./feed-runs.server";
import type { RunDefinition } from "./runs.server";
import { feedNameSchema, type FeedRegistry } from "~/feeds/runner.server";

const RunRequest = z.object({ feed_name: z.string().trim().pipe(feedNameSchema) });

/** A feed row with no job in this build: nothing to run, and no log written (answered 200, its words coded). */
export interface NotRunnable {
  error: true;
  message: CodedMessage;
  status: "not_runnable";
  detail: CodedMessage;
}

/**
 * The run a Run Feed request asks for, for the route to start (startRunAnswer),
 * or the answer that there is nothing to run. `jobs`: the feeds this build can
 * run (jobs/registry.ts, handed in by the route: D97).
 */
export async function runFeedNow(request: Request, jobs: FeedRegistry): Promise<{ run: RunDefinition } | NotRunnable> {
  const params = new URL(request.url).searchParams;
  const parsed = RunRequest.safeParse({ feed_name: params.get("feed_name") ?? "" });
  if (!parsed.success) {
    const raw = params.get("feed_name")?.trim();
    throw new ValidationError({ feed_name: [raw ? message("feeds.run.invalid_name", { feed: raw }) : message("feeds.run.name_required")] });
  }
  const feedName = parsed.data.feed_name;
  const feed = await prisma.feed.findUnique({ where: { name: feedName }, select: { id: true } });
  if (!feed) throw new NotFoundError(message("feeds.run.unknown", { feed: feedName }));
  const job = jobs[feedName];
  if (!job)
    return {
      error: true,
      message: message("feeds.run.error", { feed: feedName }),
      status: "not_runnable",
      detail: message("feeds.run.no_job", { feed: feedName }),
    };
  return { run: feedRun(feedName, job) };
}
