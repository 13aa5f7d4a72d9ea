// Recognises the database giving up on a query because it took too long: the
// web requests' statement_timeout (SQLSTATE 57014, which also ends a wait for a
// lock) or no free connection in the web pool in time. Prisma wraps the driver's
// error in its own, so the chain of causes is searched.
const TIMEOUT_CODE = "57014";
const TIMEOUT_TEXT = /canceling statement due to statement timeout|timeout exceeded when trying to connect/i;

export function isDatabaseTimeout(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 6) return false;
  const candidate = error as { code?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (candidate.code === TIMEOUT_CODE || candidate.originalCode === TIMEOUT_CODE) return true;
  if (typeof candidate.message === "string" && TIMEOUT_TEXT.test(candidate.message)) return true;
  return isDatabaseTimeout(candidate.cause, depth + 1) || isDatabaseTimeout(candidate.meta?.driverAdapterError, depth + 1);
}
