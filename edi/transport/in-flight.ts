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
