// Demo feed logs as the runner writes them: a run's end log names its starting
// log (meta.started_log_id) and a starting log says what triggered it. Without
// the link the first real run of a feed would take every seeded starting log
// for a run that died and close each one as "interrupted" (runner.server.ts).
import type { PrismaClient } from "../../app/db/generated/client";

export async function linkSeededFeedRuns(db: Pick<PrismaClient, "$executeRaw">): Promise<void> {
  await db.$executeRaw`
    UPDATE feed_log s SET meta = jsonb_build_object('trigger', 'schedule') || s.meta
     WHERE s.type = 'starting' AND NOT s.meta ? 'trigger'`;
  await db.$executeRaw`
    UPDATE feed_log e SET meta = e.meta || jsonb_build_object('started_log_id', runs.started_id)
      FROM (SELECT id,
                   lag(id) OVER (PARTITION BY feed_name ORDER BY created_at, id) AS started_id,
                   lag(type) OVER (PARTITION BY feed_name ORDER BY created_at, id) AS before_type
              FROM feed_log WHERE type <> 'skipped') runs
     WHERE e.id = runs.id AND e.type IN ('finished', 'failed') AND runs.before_type = 'starting'
       AND NOT e.meta ? 'started_log_id'`;
}
