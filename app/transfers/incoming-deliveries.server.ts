// What one incoming delivery is, for vendors' and the AS400's files alike
// (D59). Content alone never decides: an 846 can repeat yesterday's stock and
// a catalogue can put a price back. A listed file is the delivery we already
// took when a stored file of the same owner, size and content is either
// - still at that path: stored, then the archive or delete failed, or the run
//   stopped before it (released_at null), with the same modification time when
//   both are known; or
// - the copy we archived to that path (released_to), which Drop Ship Tools can
//   name.
// Once a file has left its folder (released), anything later at that path is a
// new delivery; no time window is needed, since we know when it left.
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";

type Tx = Prisma.TransactionClient;

/** Whose files: one vendor's, or one kind of AS400 file (no vendor). */
export type DeliveryOwner = { vendorId: number } | { partner: string; transactionSet: string };

export interface IncomingDelivery {
  owner: DeliveryOwner;
  remotePath: string;
  /** The listed modification time; null when the server gives none. */
  modifiedAt: Date | null;
  /** The content's sha256 (contentHashSliced) and size. */
  hash: string;
  size: number;
}

/** Writing a file of up to MAX_DOWNLOAD_MB takes seconds (50 MB: about 6 s here): more than Prisma's default 5 s. */
export const STORE_TRANSACTION = { timeout: 300_000, maxWait: 30_000 };

export const contentHash = (content: Buffer) => createHash("sha256").update(content).digest("hex");

// --- big contents, stored in slices (D221) ----------------------------------------

/**
 * Contents from this size on are stored in slices; smaller ones (the common case) go whole in the
 * statement that inserts the row (D104). Prisma hands a bytea parameter to its query compiler as
 * base64 inside JSON: a 100 MB file became several copies of itself (1.8 GB RSS) and held the event
 * loop for seconds.
 */
export const SLICED_CONTENT_BYTES = 256 << 10;
const CONTENT_SLICE_BYTES = 1 << 20;

/** contentHash, a slice at a time with the event loop let go between slices (a 100 MB file is no single 0.3 s stall). */
export async function contentHashSliced(content: Buffer): Promise<string> {
  if (content.length < SLICED_CONTENT_BYTES) return contentHash(content);
  const hash = createHash("sha256");
  for (let at = 0; at < content.length; at += CONTENT_SLICE_BYTES) {
    hash.update(content.subarray(at, at + CONTENT_SLICE_BYTES));
    await nextTurn();
  }
  return hash.digest("hex");
}

/** The content a new row is inserted with: the whole of a small file, nothing of a big one (storeContentSlices fills it in). */
export const insertedContent = (content: Buffer): Buffer => (content.length < SLICED_CONTENT_BYTES ? content : Buffer.alloc(0));

/**
 * Writes a big file's content into the row just inserted for it, inside the same transaction (a
 * crash leaves no row, or a whole one): 1 MB slices as base64 text, decoded by PostgreSQL, into a
 * temporary table (no WAL, dropped at commit), then joined into the row in one UPDATE. Appending to
 * the row per slice (`content || $1`) would rewrite the growing value each time: quadratic.
 */
export async function storeContentSlices(tx: Tx, transmissionId: number, content: Buffer): Promise<void> {
  if (content.length < SLICED_CONTENT_BYTES) return;
  await tx.$executeRaw`CREATE TEMP TABLE IF NOT EXISTS incoming_content_slice (n int NOT NULL, bytes bytea NOT NULL) ON COMMIT DROP`;
  for (let at = 0, n = 0; at < content.length; at += CONTENT_SLICE_BYTES, n++) {
    const slice = content.subarray(at, at + CONTENT_SLICE_BYTES).toString("base64");
    await tx.$executeRaw`INSERT INTO incoming_content_slice (n, bytes) VALUES (${n}, decode(${slice}, 'base64'))`;
  }
  await tx.$executeRaw`
    UPDATE transmission SET content = (SELECT string_agg(bytes, ''::bytea ORDER BY n) FROM incoming_content_slice)
     WHERE id = ${transmissionId}`;
  await tx.$executeRaw`TRUNCATE incoming_content_slice`;
}

function ownerWhere(owner: DeliveryOwner): Prisma.TransmissionWhereInput {
  return "vendorId" in owner
    ? { vendor_id: owner.vendorId, partner: "vendor" }
    : { vendor_id: null, partner: owner.partner, transaction_set: owner.transactionSet };
}

/** Serialises the storing of one path of one owner (inside `tx`): two runs never both take the same file. */
export async function lockDeliveryPath(tx: Tx, lockNamespace: number, owner: DeliveryOwner, remotePath: string): Promise<void> {
  const ownerKey = "vendorId" in owner ? `vendor:${owner.vendorId}` : `${owner.partner}:${owner.transactionSet}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockNamespace}::int, hashtext(${`${ownerKey}:${remotePath}`}))`;
}

/** The stored transmission this listed file is (taken before and still there, or our archived copy), or null for a new delivery. */
export async function findTakenDelivery(tx: Tx, delivery: IncomingDelivery): Promise<{ id: number } | null> {
  const same = { ...ownerWhere(delivery.owner), direction: "in", content_hash: delivery.hash, size: delivery.size };
  const modified = delivery.modifiedAt;
  return tx.transmission.findFirst({
    where: {
      ...same,
      OR: [
        { remote_path: delivery.remotePath, released_at: null, ...(modified ? { OR: [{ remote_modified_at: null }, { remote_modified_at: modified }] } : {}) },
        { released_to: delivery.remotePath },
      ],
    },
    orderBy: { id: "desc" },
    select: { id: true },
  });
}

/**
 * After a new delivery at `remotePath` is stored: earlier files stored from
 * that path and never released are no longer there (the new one replaced
 * them), so they must not be matched any more.
 */
export async function supersedeEarlierDeliveries(tx: Tx, owner: DeliveryOwner, remotePath: string, newId: number): Promise<void> {
  await tx.transmission.updateMany({
    where: { ...ownerWhere(owner), direction: "in", remote_path: remotePath, released_at: null, id: { not: newId } },
    data: { released_at: new Date() },
  });
}

/** The file left its remote folder: archived to `archivedTo`, or deleted (null). */
export async function markReleased(transmissionId: number, archivedTo: string | null): Promise<void> {
  await prisma.transmission.update({ where: { id: transmissionId }, data: { released_at: new Date(), released_to: archivedTo } });
}

// --- the same, for a batch of one vendor's files (D104) ----------------------------

/** lockDeliveryPath for several paths, in one statement and one order for every caller (no deadlock between two runs). */
export async function lockDeliveryPaths(tx: Tx, lockNamespace: number, owner: DeliveryOwner, remotePaths: string[]): Promise<void> {
  const ownerKey = "vendorId" in owner ? `vendor:${owner.vendorId}` : `${owner.partner}:${owner.transactionSet}`;
  const keys = [...new Set(remotePaths.map((remotePath) => `${ownerKey}:${remotePath}`))].sort();
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockNamespace}::int, hashtext(k)) FROM (SELECT k FROM unnest(${keys}::text[]) AS k ORDER BY k) AS sorted`;
}

/** findTakenDelivery for several of one vendor's listed files, in one statement: each one's stored transmission id, or null. */
export async function findTakenDeliveries(
  tx: Tx,
  vendorId: number,
  deliveries: Array<{ remotePath: string; modifiedAt: Date | null; hash: string; size: number }>,
): Promise<Array<number | null>> {
  const rows = await tx.$queryRaw<Array<{ k: bigint; id: number }>>`
    SELECT DISTINCT ON (f.k) f.k, t.id
      FROM unnest(${deliveries.map((d) => d.remotePath)}::text[], ${deliveries.map((d) => d.hash)}::text[],
        ${deliveries.map((d) => d.size)}::int[],
                  ${deliveries.map((d) => d.modifiedAt?.toISOString() ?? null)}::timestamptz[]) WITH ORDINALITY AS f(p, h, s, m, k)
      JOIN transmission t ON t.vendor_id = ${vendorId} AND t.partner = 'vendor' AND t.direction = 'in' AND t.content_hash = f.h AND t.size = f.s
       AND ((t.remote_path = f.p AND t.released_at IS NULL AND (f.m IS NULL OR t.remote_modified_at IS NULL OR
         t.remote_modified_at = f.m)) OR t.released_to = f.p)
     ORDER BY f.k, t.id DESC`;
  const taken: Array<number | null> = deliveries.map(() => null);
  for (const row of rows) taken[Number(row.k) - 1] = row.id;
  return taken;
}

/** supersedeEarlierDeliveries for a batch's new files, in one statement (the paths of a batch differ). */
export async function supersedeEarlierDeliveriesMany(tx: Tx, owner: { vendorId: number }, created: Array<{ id: number; path: string }>): Promise<void> {
  if (created.length === 0) return;
  await tx.$executeRaw`
    UPDATE transmission SET released_at = now(), updated_at = now()
     WHERE vendor_id = ${owner.vendorId} AND partner = 'vendor' AND direction = 'in' AND released_at IS NULL
       AND remote_path = ANY(${created.map((c) => c.path)}::text[]) AND NOT (id = ANY(${created.map((c) => c.id)}::int[]))`;
}

/** markReleased for several files, in one statement. */
export async function markReleasedMany(released: Array<{ id: number; archivedTo: string | null }>): Promise<void> {
  if (released.length === 0) return;
  await prisma.$executeRaw`
    UPDATE transmission t SET released_at = now(), released_to = r.dest, updated_at = now()
      FROM unnest(${released.map((r) => r.id)}::int[], ${released.map((r) => r.archivedTo)}::text[]) AS r(id, dest)
     WHERE t.id = r.id`;
}
