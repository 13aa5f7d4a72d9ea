// Run Feed (POST /api/feed_run?feed_name=): the instance that gets the request
// runs the feed itself, through runFeed, so it works on every instance whether
// or not its scheduler is on; the advisory lock makes a run already going
// anywhere a "skipped" one. The request waits for the run up to a limit; a
// longer run goes on and its logs tell how it ends; shutdown waits for it
// (manual-runs.server.ts).
import { z } from "zod";
import prisma from "~/db.server";
import type { Translate } from "~/i18n/i18n.server";
import { NotFoundError, ValidationError } from "~/lib/validation.server";
import { FEED_JOBS } from "../../jobs/registry";
import { trackManualRun } from "./manual-runs.server";
import { abandonFeedRuns, feedNameSchema, runFeed, type FeedJob, type FeedRunResult } from "./runner.server";

/** How long POST /api/feed_run waits for the run before answering that it still runs. */
export const FEED_RUN_WAIT_MS = 25_000;

export interface FeedRunAnswer {
  error: boolean;
  message: string;
  /** finished, failed, skipped, or running (still going when the answer was sent). */
  status: FeedRunResult["status"] | "running" | "not_runnable";
  /** What the run itself said (its log's message), in English like every log. */
  detail?: string;
  log_id?: number;
}

const RunRequest = z.object({ feed_name: z.string().trim().pipe(feedNameSchema) });

export interface RunFeedNowOptions {
  jobs?: Record<string, { defaultCron: string; run: FeedJob }>;
  waitMs?: number;
}

export async function runFeedNow(params: URLSearchParams, t: Translate, options: RunFeedNowOptions = {}): Promise<FeedRunAnswer> {
  const jobs = options.jobs ?? FEED_JOBS;
  const parsed = RunRequest.safeParse({ feed_name: params.get("feed_name") ?? "" });
  if (!parsed.success) {
    const raw = params.get("feed_name")?.trim();
    throw new ValidationError({ feed_name: [raw ? t("feeds.run.invalid_name", { feed: raw }) : t("feeds.run.name_required")] }, t("errors.unprocessable"));
  }
  const feedName = parsed.data.feed_name;
  const failedText = t("feeds.run.error", { feed: feedName });

  const feed = await prisma.feed.findUnique({ where: { name: feedName }, select: { id: true } });
  if (!feed) throw new NotFoundError(t("feeds.run.unknown", { feed: feedName }));
  const job = jobs[feedName];
  if (!job) return { error: true, message: failedText, status: "not_runnable", detail: t("feeds.run.no_job", { feed: feedName }) };

  const controller = new AbortController();
  const run = runFeed(feedName, job.run, { trigger: "manual", signal: controller.signal, defaultCron: job.defaultCron });
  trackManualRun({
    feedName,
    controller,
    done: run.catch(() => undefined),
    abandon: (reason) => abandonFeedRuns(controller.signal, reason),
  });

  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    run.then((result) => ({ result })),
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), options.waitMs ?? FEED_RUN_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
  if (!waited) return { error: false, message: t("feeds.run.running", { feed: feedName }), status: "running" };

  const { result } = waited;
  const ok = result.status === "finished" && !result.error;
  return { error: !ok, message: ok ? t("feeds.run.success") : failedText, status: result.status, detail: result.message, log_id: result.logId };
}
