// Polls `read` until `ok` accepts its value, for tests that wait on something
// another process or a background run does; fails naming what it waited for
// (after a minute unless told: only a failing test waits that long).
export async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
