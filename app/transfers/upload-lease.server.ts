// The lease of a prepared outbound file while it uploads (D69): `processed_at`
// of a `prepared` transmission is when its uploader last claimed it. A claim
// is taken only when there is none or it is older than the lease, so two runs
// never upload one file at once, and a run that died mid-upload leaves a file
// the next run takes after the lease. While the upload goes on, the claim is
// renewed every third of the lease, so a slow upload keeps it however long it
// takes; the renewal only succeeds while `processed_at` is still the value
// this claim wrote, so a claim taken over by another run is noticed.
import prisma from "~/db.server";
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

/** Claims a prepared transmission for upload; null when it is not prepared or another run holds it. */
export async function claimUpload(transmissionId: number, options: UploadLeaseOptions = {}): Promise<UploadLease | null> {
  const leaseMs = options.leaseMs ?? UPLOAD_LEASE_MS;
  const [claimed] = await prisma.$queryRaw<Array<{ processed_at: Date }>>`
    UPDATE transmission SET processed_at = clock_timestamp()
     WHERE id = ${transmissionId} AND status = 'prepared'
       AND (processed_at IS NULL OR processed_at < clock_timestamp() - ${leaseMs}::int * interval '1 millisecond')
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
