// Progress of a feed run for code that does not get the run's context: a job
// runs its work inside withFeedProgress, and anything below it may call
// reportFeedProgress (the drop-ship steps' StepReport counts do). Outside a
// feed run it does nothing. The runner merges the reports into the starting
// log's meta, at most one write a second (runner.server.ts).
import { AsyncLocalStorage } from "node:async_hooks";
import type { FeedRunContext } from "./runner.server";

const current = new AsyncLocalStorage<FeedRunContext["progress"]>();

export function withFeedProgress<T>(progress: FeedRunContext["progress"], work: () => Promise<T>): Promise<T> {
  return current.run(progress, work);
}

export function reportFeedProgress(patch: Record<string, unknown>): void {
  void current.getStore()?.(patch);
}
