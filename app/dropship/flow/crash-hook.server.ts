// A test hook (D103): `DROPSHIP_CRASH_AT=<point>:<n>` kills this process with
// SIGKILL the n-th time the flow passes <point>, as a crash or an OOM kill
// would, so the crash test (tests/integration/dropship-crash.test.ts) can
// prove a re-run ends as an uninterrupted run. Read only when NODE_ENV is
// "test": in production the variable does nothing. Points: after-download
// (a vendor file stored, not yet released), after-apply (a batch of files
// committed), after-fulfilment-call (Shopify answered, nothing recorded yet),
// after-upload (a file uploaded, not yet marked sent).
export type CrashPoint = "after-download" | "after-apply" | "after-fulfilment-call" | "after-upload";

const plan = (() => {
  if (process.env.NODE_ENV !== "test" || !process.env.DROPSHIP_CRASH_AT) return null;
  const match = /^([a-z-]+):(\d+)$/.exec(process.env.DROPSHIP_CRASH_AT);
  if (!match) throw new Error(`DROPSHIP_CRASH_AT must be <point>:<n>, not ${process.env.DROPSHIP_CRASH_AT}`);
  return { point: match[1], at: Number(match[2]), seen: 0 };
})();

export function crashPoint(point: CrashPoint) {
  if (!plan || plan.point !== point) return;
  if (++plan.seen === plan.at) process.kill(process.pid, "SIGKILL");
}

/** Test mode only: `DROPSHIP_TEST_FILES_PER_BATCH` makes Process Ship Responses' batches small, so a crash can fall between them. */
export function testBatchSize(fallback: number): number {
  const value = Number(process.env.NODE_ENV === "test" ? process.env.DROPSHIP_TEST_FILES_PER_BATCH : undefined);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}
