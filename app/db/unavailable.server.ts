// The database cannot be reached (down, restarting, refusing connections): a
// 503 that says so, with a reference found in the log, instead of an internal
// error (D210). Used by the routes' wrappers and by authentication, which reads
// the session from the database in embedded mode.
import { isDatabaseUnavailable } from "./errors.server";
import { logger } from "~/observability/logger.server";

const log = logger("api");

export function databaseUnavailableResponse(request: Request, error: unknown): Response {
  const reference = crypto.randomUUID().slice(0, 8);
  log.error({ err: error, reference }, `${request.method} ${new URL(request.url).pathname}: the database is unavailable (reference ${reference})`);
  const message = `The database is unavailable; try again shortly (reference ${reference})`;
  // A page's error boundary shows the status text; an /api caller reads the JSON.
  return Response.json({ error: true, message }, { status: 503, statusText: message, headers: { "Retry-After": "10" } });
}

/** Runs `work`; a database that cannot be reached is thrown as the 503 above. */
export async function orDatabaseUnavailable<T>(request: Request, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw databaseUnavailableResponse(request, error);
    throw error;
  }
}
