// Applying a large file a slice at a time (issue 28): the requests are
// prefetched, so applying its lines never waits on anything, and the batch's
// responses and log lines would be written in one statement at the end,
// built on the event loop in one go (a 100,000-line 855 held the web for
// seconds). Between slices the event loop gets a turn, and what the slice
// applied is written.
import type { ApplyContext } from "./apply-responses.server";
import { writeLogs, type LogEntry } from "./context.server";
import type { Prisma } from "~/db/generated/client";

/** Lines applied between two turns of the event loop. */
export const LINES_PER_SLICE = 1000;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Writes what the batch holds so far: its responses and request moves, then its log lines. */
export async function flushApplied(context: ApplyContext) {
  await context.batch.flush();
  await writeLogsInSlices(context.logs.splice(0), context.tx);
}

/** Log lines a statement of LINES_PER_SLICE each, a turn of the event loop between them. */
export async function writeLogsInSlices(logs: LogEntry[], tx: Prisma.TransactionClient) {
  for (let start = 0; start < logs.length; start += LINES_PER_SLICE) {
    if (start > 0) await nextTurn();
    await writeLogs(logs.slice(start, start + LINES_PER_SLICE), tx);
  }
}

/** Applies the items LINES_PER_SLICE at a time, writing each slice's results before the next. */
export async function applyInSlices<T>(context: ApplyContext, items: T[], apply: (slice: T[]) => Promise<void>) {
  if (items.length <= LINES_PER_SLICE) return apply(items);
  for (let start = 0; start < items.length; start += LINES_PER_SLICE) {
    await apply(items.slice(start, start + LINES_PER_SLICE));
    await flushApplied(context);
    await nextTurn();
  }
}

/** For rows applied one by one as a stream reads them: writes the results every LINES_PER_SLICE rows. */
export async function afterRowApplied(context: ApplyContext, applied: number) {
  if (applied % LINES_PER_SLICE === 0) await flushApplied(context);
}
