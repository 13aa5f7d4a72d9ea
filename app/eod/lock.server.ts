// Run, Export to AS400 and Retry Previous never overlap, on this instance or
// another: each holds a PostgreSQL session-level advisory lock on a connection
// of its own for its whole length (the upload included), as the feed runner
// does. A process that dies frees the lock with its connection.
import pg from "pg";
import { runAsJob } from "~/db.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { logger } from "~/observability/logger.server";

const log = logger("eod");

const EOD_LOCK_NAMESPACE = LOCK_KEYS.eod;

/** Another run, export or retry holds the lock. */
export class EodBusyError extends Error {
  constructor() {
    super("Another EOD run, export or retry is in progress.");
  }
}

export async function withEodLock<T>(work: () => Promise<T>): Promise<T> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error("DATABASE_URL is not set: the EOD report needs the database to take its lock.");
  const client = new pg.Client({ connectionString, application_name: "eod" });
  // An error event on an idle client must not crash the process; the work fails on its own.
  client.on("error", (error) => log.error(`lock connection lost: ${error.message}`));
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext('eod')) AS locked", [EOD_LOCK_NAMESPACE]);
    if (!rows[0]!.locked) throw new EodBusyError();
    // Report runs and uploads are jobs even when a request starts them: the
    // jobs' pool, without the web requests' statement timeout (D67).
    return await runAsJob(work);
  } finally {
    // Closing the session frees the lock whatever happened.
    await client.end().catch(() => undefined);
  }
}
