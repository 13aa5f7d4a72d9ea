// The lease of a prepared outbound file while it uploads (D69): `processed_at`
// of a `prepared` transmission is when its uploader last claimed it. A claim
// is taken only when there is none or it is older than the lease, so two runs
// never upload one file at once, and a run that died mid-upload leaves a file
// the next run takes after the lease. While the upload goes on, the claim is
// renewed every third of the lease, so a slow upload keeps it however long it
// takes; the renewal only succeeds while `processed_at` is still the value
// this claim wrote, so a claim taken over by another run is noticed.
//
// The claim also names the run that holds it (D184): the feed and its starting
// log's id, from the run's log context. A lease whose run is known to be dead
// (its feed's lock is held by nobody, or its end is logged: the feed runner
// writes a `failed` log for a run that died, D16) is taken at once instead of
// after ten minutes; a lease held by a live run is reported with who holds it.
import prisma from "~/db.server";
import { LOCK_KEYS } from "~/db/lock-keys";
import { currentLogContext } from "~/observability/context.server";
import { logger } from "~/observability/logger.server";

const log = logger("upload");

/** Ten minutes: far longer than an upload between renewals ever takes. */
export const UPLOAD_LEASE_MS = 10 * 60_000;

export interface UploadLeaseOptions {
  /** The lease's length (tests shorten it); renewed every third of it. */
  leaseMs?: number;
}

export interface UploadLease {
  /** The claim as written (processed_at): the writes that end the upload are made only while it still holds. */
  readonly claimedAt: Date;
  /** Aborted when a renewal finds the claim taken by another run. */
  readonly lost: AbortSignal;
  /** Runs the upload while renewing the claim; stops renewing when it ends. */
  hold<T>(upload: () => Promise<T>): Promise<T>;
}

/** Claims a prepared transmission for upload; null when it is not prepared or another live run holds it (uploadHolder says which). */
export async function claimUpload(transmissionId: number, options: UploadLeaseOptions = {}): Promise<UploadLease | null> {
  const leaseMs = options.leaseMs ?? UPLOAD_LEASE_MS;
  const { feed, run_id: runId } = currentLogContext();
  const holderFeed = feed && runId ? feed : null;
  const holderRun = feed && runId ? runId : null;
  // A lease is free when there is none, it is older than its length, or its run is dead: nobody holds its
  // feed's lock, or its end is logged (a feed run holds its lock from before its starting log to after its end).
  const [claimed] = await prisma.$queryRaw<Array<{ processed_at: Date }>>`
    UPDATE transmission t SET processed_at = clock_timestamp(), lease_feed = ${holderFeed}, lease_run_id = ${holderRun}
     WHERE id = ${transmissionId} AND status = 'prepared'
       AND (processed_at IS NULL OR processed_at < clock_timestamp() - ${leaseMs}::int * interval '1 millisecond'
            OR (t.lease_feed IS NOT NULL AND t.lease_run_id IS NOT NULL AND (
                 NOT EXISTS (SELECT 1 FROM pg_locks l
                                 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                                   AND l.classid = ${LOCK_KEYS.feedRun}::int8::oid
                                   AND l.objid = ((hashtext('feed:' || t.lease_feed)::int8 + 4294967296) % 4294967296)::oid)
                 OR EXISTS (SELECT 1 FROM feed_log e
                             WHERE e.feed_name = t.lease_feed AND e.type IN ('finished', 'failed')
                               AND e.meta ? 'started_log_id' AND (e.meta->>'started_log_id')::int = t.lease_run_id))))
     RETURNING processed_at`;
  if (!claimed) return null;

  let claimedAt = claimed.processed_at;
  const lost = new AbortController();
  return {
    get claimedAt() {
      return claimedAt;
    },
    lost: lost.signal,
    async hold<T>(upload: () => Promise<T>): Promise<T> {
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let renewing: Promise<void> = Promise.resolve();
      const renew = async () => {
        try {
          const [renewed] = await prisma.$queryRaw<Array<{ processed_at: Date }>>`
            UPDATE transmission SET processed_at = clock_timestamp()
             WHERE id = ${transmissionId} AND status = 'prepared' AND processed_at = ${claimedAt}
             RETURNING processed_at`;
          if (!renewed) {
            stopped = true;
            lost.abort(new Error(`another run claimed transmission ${transmissionId} while it uploaded`));
            return;
          }
          claimedAt = renewed.processed_at;
        } catch (error) {
          // The database away for a moment: the next renewal tries again, well within the lease.
          log.error(`the lease of transmission ${transmissionId} was not renewed: ${(error as Error).message}`);
        }
      };
      const schedule = () => {
        timer = setTimeout(
          () => {
            renewing = renew().then(() => {
              if (!stopped) schedule();
            });
          },
          Math.max(50, Math.floor(leaseMs / 3)),
        );
      };
      schedule();
      try {
        return await upload();
      } finally {
        stopped = true;
        clearTimeout(timer);
        await renewing; // a renewal under way lands before the caller writes the outcome
      }
    },
  };
}

/** Who holds a prepared file's upload lease: the run (feed and its starting log's id) and since when. */
export interface UploadHolder {
  feed: string | null;
  runId: number | null;
  /** When the holding run started (its starting log), when known. */
  runStartedAt: Date | null;
  /** The lease's last claim or renewal. */
  claimedAt: Date;
}

/** The holder of a prepared file's lease, or null when it is not held (not prepared, or no claim). */
export async function uploadHolder(transmissionId: number): Promise<UploadHolder | null> {
  const row = await prisma.transmission.findUnique({
    where: { id: transmissionId },
    select: { status: true, processed_at: true, lease_feed: true, lease_run_id: true },
  });
  if (!row || row.status !== "prepared" || !row.processed_at) return null;
  const started = row.lease_run_id ? await prisma.feedLog.findUnique({ where: { id: row.lease_run_id }, select: { created_at: true } }) : null;
  return { feed: row.lease_feed, runId: row.lease_run_id, runStartedAt: started?.created_at ?? null, claimedAt: row.processed_at };
}
