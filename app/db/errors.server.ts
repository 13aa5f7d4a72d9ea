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

// The database cannot be reached at all: refused or dropped connections, a
// server shutting down or starting, a database that is gone (Prisma's P10xx,
// the adapter's kinds, the driver's codes). Staff get a 503 that says so (D210).
// Not bare errno codes (ECONNREFUSED…): a vendor or Shopify refusing a connection is not the database.
const UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1003", "P1017", "57P01", "57P02", "57P03", "08000", "08001", "08003", "08006", "3D000"]);
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "DatabaseDoesNotExist", "DatabaseAccessDenied"]);
const UNAVAILABLE_TEXT = /Can't reach database server|Connection terminated|Server has closed the connection/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 6) return false;
  const candidate = error as {
    code?: unknown;
    originalCode?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (UNAVAILABLE_CODES.has(String(candidate.code)) || UNAVAILABLE_CODES.has(String(candidate.originalCode))) return true;
  if (UNAVAILABLE_KINDS.has(String(candidate.kind))) return true;
  if (typeof candidate.message === "string" && UNAVAILABLE_TEXT.test(candidate.message)) return true;
  return isDatabaseUnavailable(candidate.cause, depth + 1) || isDatabaseUnavailable(candidate.meta?.driverAdapterError, depth + 1);
}
