// A feed run as a page's background run (D93): through the feed runner (its
// lock, logs and interrupted-run checks), its progress also written to the run.
import { message, plainText } from "./messages";
import type { RunContext, RunDefinition } from "./runs.server";
import { runFeed, type FeedJob, type FeedRunContext } from "~/feeds/runner.server";

/** A feed job whose progress also goes to the run (the feed's starting log keeps its own, D28). */
function teeProgress(job: FeedJob, run: RunContext): FeedJob {
  return (context: FeedRunContext) =>
    job({
      ...context,
      progress: (meta) => {
        run.progress(meta);
        return context.progress(meta);
      },
    });
}

/** A feed run through the feed runner (its lock, logs and interrupted-run checks), as a background run's work. */
export async function runFeedFor(run: RunContext, feed: string, job: FeedJob, defaultCron: string) {
  return runFeed(feed, teeProgress(job, run), { trigger: "manual", signal: run.signal, defaultCron });
}

/** The detail of a run whose feed was already running (scheduled, or started elsewhere). */
export const feedSkipped = (feed: string) => message("runs.feed_busy", { feed });

export function feedRun(feed: string, job: { defaultCron: string; run: FeedJob }): RunDefinition {
  return {
    kind: "feed",
    action: feed,
    lockKey: `feed:${feed}`,
    failure: message("feeds.run.error", { feed }),
    async work(run) {
      const result = await runFeedFor(run, feed, job.run, job.defaultCron);
      const ok = result.status === "finished" && !result.error;
      // detail: the run's own message, as its log keeps it (D28): its code when the job gave one (D114).
      const detail = result.status === "skipped" ? feedSkipped(feed) : (result.messageCode ?? plainText(result.message));
      return {
        error: !ok,
        message: ok ? message("feeds.run.success") : message("feeds.run.error", { feed }),
        detail,
        data: { feed_status: result.status, log_id: result.logId },
      };
    },
  };
}
