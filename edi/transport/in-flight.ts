// A bounded number of a connection's operations in flight: what the caller of
// many downloads, archives or uploads uses to keep one connection busy
// (SFTP answers several requests at once; FTP one, so there it is one at a time).

/**
 * Runs `work` for each item, at most `limit` at once, starting them in the items'
 * order; answers each outcome in the items' order. Once `stop(outcome)` says so
 * (a lost connection, say), no further item is started: those answer
 * `{ status: "skipped" }`. Work already started is always waited for.
 */
export async function inFlight<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  stop: (outcome: PromiseSettledResult<R>) => boolean = () => false,
): Promise<Array<PromiseSettledResult<R> | { status: "skipped" }>> {
  const outcomes: Array<PromiseSettledResult<R> | { status: "skipped" }> = items.map(() => ({ status: "skipped" }));
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const index = next++;
      try {
        outcomes[index] = { status: "fulfilled", value: await work(items[index], index) };
      } catch (reason) {
        outcomes[index] = { status: "rejected", reason };
      }
      if (stop(outcomes[index] as PromiseSettledResult<R>)) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return outcomes;
}

/**
 * A gate that lets at most `count` pieces of work through at once; the others
 * wait their turn, first come first served. For a phase of a longer task that
 * must be bounded while the rest of the task is not (a vendor's downloads, and
 * not its wait between two listings).
 */
export function gate(count: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = Math.max(1, count);
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is freed.
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
