// A file is taken only when whole (D181). Two listings a few seconds apart
// cannot tell a slow writer from a finished file (D60), so two more checks:
// - an X12 file must end with its IEA segment (a trailing Ctrl-Z and line
//   breaks allowed): without it the file is still being written;
// - a file left at one run is compared with what the next run lists: a size
//   or modification time that changed means it is still growing.
// Such a file stays in its folder and is looked at again next run; after the
// owner's longest wait it is taken as it is, and refused by its reader like
// any broken file. What was seen of a waiting file is kept per path in
// `incoming_file_sighting`, and forgotten once the file is taken.
import prisma from "~/db.server";
import type { RemoteFile } from "@edi/transport";

/** Whose folder: "vendor:<id>", or "<partner>:<transaction set>" for one kind of AS400 file. */
export type SightingOwner = string;

export const vendorSightingOwner = (vendorId: number): SightingOwner => `vendor:${vendorId}`;
export const as400SightingOwner = (kind: { partner: string; transactionSet: string }): SightingOwner => `${kind.partner}:${kind.transactionSet}`;

/** Only the end of a file is read for its IEA: a segment is far shorter. */
const TAIL_BYTES = 4096;
/** What may follow the last segment terminator: white space, NUL and DOS's end-of-file (Ctrl-Z). */
// eslint-disable-next-line no-control-regex -- these control characters are the point
const TRAILING = /[\s\u0000\u001a]+$/;

/**
 * True when `content` is X12 (starts with ISA, after a byte order mark or white space) and its
 * last segment is not IEA: the interchange is not closed, so the file is not whole. Anything
 * that is not X12 (CSV) is not judged here.
 */
export function lacksClosingIea(content: Buffer): boolean {
  const head = content.subarray(0, 128).toString("latin1");
  const start = head.search(/\S/);
  const begin = head.startsWith("\u00ef\u00bb\u00bf") ? 3 : Math.max(0, start);
  if (head.slice(begin, begin + 3) !== "ISA") return false;
  // ISA is 106 characters: the element separator follows "ISA", the segment terminator ends it.
  if (content.length < begin + 106) return true;
  const elementSeparator = head[begin + 3]!;
  const terminator = head[begin + 105]!;
  const tail = content
    .subarray(Math.max(0, content.length - TAIL_BYTES))
    .toString("latin1")
    .replace(TRAILING, "");
  const closed = tail.endsWith(terminator) ? tail.slice(0, -terminator.length) : tail;
  if (closed === tail && !/^\s$/.test(terminator)) return true; // the last segment was never ended
  const lastSegment = closed.slice(closed.lastIndexOf(terminator) + 1).replace(/^\s+/, "");
  return !lastSegment.startsWith(`IEA${elementSeparator}`);
}

export interface Sighting {
  size: number;
  modifiedAt: Date | null;
  firstSeenAt: Date;
  /** When this size and time were last recorded: a listing that sees them again at least the settle pause later agrees with it (D252). */
  lastSeenAt: Date;
  /** Downloaded at this size and time and found not whole (D252). */
  notWhole: boolean;
}

/** What was seen before of these paths of the owner, by path. */
export async function readSightings(owner: SightingOwner, paths: string[]): Promise<Map<string, Sighting>> {
  if (paths.length === 0) return new Map();
  const rows = await prisma.incomingFileSighting.findMany({ where: { owner, remote_path: { in: paths } } });
  return new Map(
    rows.map((row) => [
      row.remote_path,
      { size: Number(row.size), modifiedAt: row.modified_at, firstSeenAt: row.first_seen_at, lastSeenAt: row.last_seen_at, notWhole: row.not_whole },
    ]),
  );
}

/** Whether the listed file differs from what was seen of it at an earlier run (it grew, or was written again). */
export function changedSince(sighting: Sighting | undefined, file: Pick<RemoteFile, "size" | "modifiedAt">): boolean {
  if (!sighting) return false;
  if (sighting.size !== file.size) return true;
  return (sighting.modifiedAt?.getTime() ?? null) !== (file.modifiedAt?.getTime() ?? null);
}

/** Whether a file seen first at `sighting` (now, when never seen) has waited its owner's longest wait. */
export function waitedLongEnough(sighting: Sighting | undefined, maxWaitMs: number, now = new Date()): boolean {
  return sighting !== undefined && now.getTime() - sighting.firstSeenAt.getTime() >= maxWaitMs;
}

/**
 * Remembers files left because not whole, or seen by a listing that takes nothing (the minute watch, D252): their
 * size and time now; when first seen stays. `notWhole`: they were downloaded at this size and time and found not whole.
 */
export async function recordSightings(
  owner: SightingOwner,
  files: Array<Pick<RemoteFile, "path" | "size" | "modifiedAt">>,
  options: { notWhole?: boolean } = {},
): Promise<void> {
  if (files.length === 0) return;
  const notWhole = options.notWhole ?? false;
  await prisma.$executeRaw`
    INSERT INTO incoming_file_sighting (owner, remote_path, size, modified_at, not_whole)
    SELECT ${owner}, p, s, m, ${notWhole} FROM unnest(${files.map((f) => f.path)}::text[], ${files.map((f) => f.size)}::bigint[],
                                         ${files.map((f) => f.modifiedAt?.toISOString() ?? null)}::timestamptz[]) AS f(p, s, m)
    ON CONFLICT (owner, remote_path) DO UPDATE SET size = EXCLUDED.size, modified_at = EXCLUDED.modified_at, last_seen_at = now(),
                                                   not_whole = EXCLUDED.not_whole`;
}

/**
 * Whether a listing now agrees with the sighting (D60, D252): the same size and time, recorded at least `pauseMs`
 * ago, as two listings the settle pause apart would; and not a file already downloaded unfinished at that size.
 */
export function settledSince(sighting: Sighting | undefined, file: Pick<RemoteFile, "size" | "modifiedAt">, pauseMs: number, now = new Date()): boolean {
  if (!sighting || sighting.notWhole || changedSince(sighting, file)) return false;
  return now.getTime() - sighting.lastSeenAt.getTime() >= pauseMs;
}

/** Forgets files once taken (stored), so a later file at the path waits its own time. */
export async function forgetSightings(owner: SightingOwner, paths: string[]): Promise<void> {
  if (paths.length === 0) return;
  await prisma.incomingFileSighting.deleteMany({ where: { owner, remote_path: { in: paths } } });
}

/** Forgets the owner's files no longer listed (deleted or moved by their writer); only after a listing that was not cut. */
export async function forgetVanishedSightings(owner: SightingOwner, listedPaths: string[]): Promise<void> {
  await prisma.$executeRaw`DELETE FROM incoming_file_sighting WHERE owner = ${owner} AND NOT (remote_path = ANY(${listedPaths}::text[]))`;
}
