// The one way we take in the files the AS400 (and the order system on its
// exchange) drops into a folder for us: order status, special orders, the
// product catalogue, assignments. Nothing is lost and nothing is done twice:
// - a file is taken once it is no longer being written: older than
//   AS400_MIN_FILE_AGE_SECONDS, or unchanged across two listings (D60), and
//   not changed since an earlier run left it (D181); a listed name that is a
//   path is refused and left in place (D61); MAX_FILES_PER_FOLDER a run (D180);
// - each file is downloaded and stored whole in `transmission` (partner,
//   direction in, transaction_set, content and sha256) before anything else;
// - only once stored is the remote file moved into archive/, so a crash
//   between the two leaves it in the folder, and the next run finds it stored
//   and only archives it;
// - a delivery is the file at its path, not its content: the same content
//   under another name, or again after the first was archived, is a new file
//   and is applied (a price can go back to what it was) (D59);
// - a file that cannot be downloaded or archived is reported and the next file
//   is taken; only a lost connection or a failing database stops the fetch
//   (the caller reports it, and still applies what is stored).
// Each area then applies its stored files (status received) its own way.
import prisma from "~/db.server";
import type { Prisma } from "~/db/generated/client";
import { env } from "~/env.server";
import type { FeedRunContext } from "~/feeds/runner.server";
import {
  contentHashSliced,
  findTakenDelivery,
  insertedContent,
  lockDeliveryPath,
  markReleased,
  STORE_TRANSACTION,
  storeContentSlices,
  supersedeEarlierDeliveries,
} from "~/transfers/incoming-deliveries.server";
import { TransportError, type RemoteFile, type VendorTransport } from "@edi/transport";
import { settledFiles } from "@edi/transport";
import { listingCutMessage, refusedNamesParams, selectFromListing } from "~/transfers/incoming-listing.server";
import {
  as400SightingOwner,
  changedSince,
  forgetSightings,
  forgetVanishedSightings,
  readSightings,
  recordSightings,
  waitedLongEnough,
} from "~/transfers/whole-files.server";
import { message, type RunMessage } from "~/i18n/messages";
import { as400ConnectionSettings, withAs400Transport } from "./connection.server";
import { errorMessage } from "~/lib/error-message";

/** One kind of file the AS400 sends: where it is dropped and how it is stored. */
export interface InboundFileKind {
  /** The folder on the exchange the files are dropped into (created when missing). */
  folder: string;
  /** transmission.partner of the stored files. */
  partner: string;
  /** transmission.transaction_set of the stored files. */
  transactionSet: string;
  /** First key of the transaction-level advisory lock taken while a file of this kind is stored (second: its path). */
  storeLockNamespace: number;
}

export interface StoredInboundFile {
  transmissionId: number;
  /** False when this delivery was taken before (still in the folder): it is not applied again. */
  isNew: boolean;
}

/** What a file stored for the first time is, for work done in the same transaction. */
export interface NewInboundFile {
  transmissionId: number;
  name: string;
  remotePath: string;
  content: Buffer;
}

/** Run inside the store transaction for a file stored for the first time (e.g. the special-order log row). */
export type StoreAlongside = (tx: Prisma.TransactionClient, file: NewInboundFile) => Promise<void>;

export interface FetchInboundFilesHooks {
  /** Checked before each file: a run asked to stop leaves the rest for the next run. */
  signal?: AbortSignal;
  /** A file not downloaded or not archived, as a code (D116); the next file is taken all the same. */
  problem(problem: RunMessage): void;
  /** The folder did not exist and was created (so there was nothing to fetch). */
  folderCreated?(): void;
  /** How many files the folder holds. */
  filesFound?(count: number): void;
  /** Wanted files beyond MAX_FILES_PER_FOLDER, left for the next runs (D180). */
  filesLeftForNextRun?(count: number): void;
  /** Files left because they changed between two listings (still being written): taken at a later run. */
  filesStillChanging?(files: RemoteFile[]): void;
  /** A file stored, or found stored before. */
  fileStored?(stored: StoredInboundFile, file: RemoteFile): void;
  /** After each stored file, archived or not: where a feed reports its progress. */
  afterFile?(): Promise<void>;
  /** Stored with each new file, in the same transaction. */
  storeAlongside?: StoreAlongside;
}

/** What a feed keeps of its run: counts (its log's meta) and problems (codes, D116). */
export interface FeedFetchReport {
  counts: Record<string, number>;
  problem(problem: RunMessage): void;
}

/**
 * The hooks of a feed that counts the files it fetched in its log's meta
 * (folder_created, files_found, files_stored, files_seen_before,
 * files_still_changing, names_refused), lists its
 * problems and reports its progress after each file.
 */
export function feedFetchHooks(report: FeedFetchReport, context?: Pick<FeedRunContext, "signal" | "progress">): FetchInboundFilesHooks {
  const count = (key: string, by = 1) => (report.counts[key] = (report.counts[key] ?? 0) + by);
  return {
    signal: context?.signal,
    problem: (problem) => report.problem(problem),
    folderCreated: () => count("folder_created"),
    filesFound: (found) => count("files_found", found),
    filesStillChanging: (files) => count("files_still_changing", files.length),
    filesLeftForNextRun: (left) => count("files_left_for_next_run", left),
    fileStored: (stored) => count(stored.isNew ? "files_stored" : "files_seen_before"),
    afterFile: async () => {
      await context?.progress({ ...report.counts });
    },
  };
}

/** The first three of a file's row errors (words of the CSV reader: data, D115), and how many more. */
export const fileRowErrors = (file: string, errors: string[]): RunMessage =>
  message("logs.as400.file_errors", {
    file,
    errors: errors.slice(0, 3).join("; "),
    more: errors.length > 3 ? message("logs.and_more", { count: errors.length - 3 }) : "",
  });

/** Why fetchAs400Files did not fetch: the AS400 exchange is not configured (AS400_* unset), or the error that stopped it. */
export type As400FetchOutcome = "fetched" | "not_configured" | { error: string };

/**
 * Connects to the AS400 exchange and fetches the kind's files (fetchInboundFiles). A lost connection or a folder
 * that cannot be read ends the fetch with its error, for the caller to report before it applies what is stored.
 */
export async function fetchAs400Files(kind: InboundFileKind, hooks: FetchInboundFilesHooks): Promise<As400FetchOutcome> {
  const settings = as400ConnectionSettings();
  if (!settings) return "not_configured";
  try {
    await withAs400Transport(settings, (transport) => fetchInboundFiles(transport, kind, hooks));
    return "fetched";
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/** Downloads, stores and archives the *.csv files of the kind's folder, oldest first (then by name, numbers by value), MAX_FILES_PER_FOLDER a run. */
export async function fetchInboundFiles(transport: VendorTransport, kind: InboundFileKind, hooks: FetchInboundFilesHooks): Promise<void> {
  if (!(await transport.exists(kind.folder))) {
    await transport.makeFolder(kind.folder);
    hooks.folderCreated?.();
    return;
  }
  const config = env();
  // Bounded: a listing stops at a number of names or a time, and a run takes MAX_FILES_PER_FOLDER files, oldest first (D180).
  const listing = await transport.list(kind.folder);
  const selection = selectFromListing(listing, (file) => /\.csv$/i.test(file.name), config.MAX_FILES_PER_FOLDER);
  // Names that are paths ("../../eod/x.csv") are never read, moved or applied: named in one problem, left in place.
  if (selection.refused.length) hooks.problem(message("logs.as400.names_refused_batch", refusedNamesParams(selection.refused, kind.folder)));
  if (selection.cut) {
    const cut = listingCutMessage("logs.as400", kind.folder, selection.cut);
    hooks.problem(message(cut.code, cut.params));
  }
  // Not a problem: counted in the feed's log (files_left_for_next_run), taken at the next runs.
  if (selection.leftForNextRun) hooks.filesLeftForNextRun?.(selection.leftForNextRun);
  const csvFiles = selection.taken;
  hooks.filesFound?.(csvFiles.length);
  // A file left at an earlier run and changed since is still being written (D181), until the longest wait.
  const owner = as400SightingOwner(kind);
  if (!listing.cut)
    await forgetVanishedSightings(
      owner,
      listing.map((file) => file.path),
    );
  const sightings = await readSightings(
    owner,
    csvFiles.map((file) => file.path),
  );
  const maxWaitMs = config.AS400_INCOMING_MAX_WAIT_MINUTES * 60_000;
  const growing = csvFiles.filter((file) => changedSince(sightings.get(file.path), file) && !waitedLongEnough(sightings.get(file.path), maxWaitMs));
  const left = new Set(growing);
  const { ready, changing } = await settledFiles(
    transport,
    kind.folder,
    csvFiles.filter((file) => !left.has(file)),
    {
      minAgeMs: config.AS400_MIN_FILE_AGE_SECONDS * 1000,
      pauseMs: config.INCOMING_SETTLE_SECONDS * 1000,
    },
  );
  await recordSightings(owner, [...growing, ...changing]);
  if (changing.length || growing.length) hooks.filesStillChanging?.([...changing, ...growing]);
  for (const file of ready) {
    if (hooks.signal?.aborted) return;
    let stored: StoredInboundFile;
    try {
      const content = await transport.download(file.path, file.size);
      stored = await storeInboundFile(kind, file.name, file.path, content, hooks.storeAlongside, file.modifiedAt);
      await forgetSightings(owner, [file.path]);
      hooks.fileStored?.(stored, file);
      // Sized again before it is archived: a file changed after it was taken stays, and is taken again as a new delivery (D181).
      const remote = await transport.size(file.path);
      if (remote !== content.length) {
        hooks.problem(message("logs.as400.changed_after_taken", { file: file.name, stored: content.length, remote }));
        continue;
      }
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      hooks.problem(message("logs.as400.not_downloaded", { file: file.name, error: error.message }));
      continue;
    }
    // Only now, with the file stored, is it moved out of the way.
    try {
      await markReleased(stored.transmissionId, await transport.archive(file.path));
    } catch (error) {
      if (!(error instanceof TransportError) || error.isConnectionFault) throw error;
      hooks.problem(message("logs.as400.not_archived", { file: file.name, error: error.message }));
    }
    await hooks.afterFile?.();
  }
}

/** Stores the file unless this delivery was taken before (the same file still at its path): a file taken once is not applied again. */
export async function storeInboundFile(
  kind: InboundFileKind,
  name: string,
  remotePath: string,
  content: Buffer,
  storeAlongside?: StoreAlongside,
  modifiedAt: Date | null = null,
): Promise<StoredInboundFile> {
  const owner = { partner: kind.partner, transactionSet: kind.transactionSet };
  const hash = await contentHashSliced(content);
  return prisma.$transaction(async (tx) => {
    await lockDeliveryPath(tx, kind.storeLockNamespace, owner, remotePath);
    const taken = await findTakenDelivery(tx, { owner, remotePath, modifiedAt, hash, size: content.length });
    if (taken) return { transmissionId: taken.id, isNew: false };
    const created = await tx.transmission.create({
      data: {
        partner: kind.partner,
        direction: "in",
        file_name: name,
        remote_path: remotePath,
        remote_modified_at: modifiedAt,
        transaction_set: kind.transactionSet,
        transaction_control_numbers: [],
        content_hash: hash,
        content: new Uint8Array(insertedContent(content)),
        size: content.length,
        status: "received",
      },
      select: { id: true },
    });
    // A big file's content in slices, in this transaction: the row is whole or absent (D221).
    await storeContentSlices(tx, created.id, content);
    await supersedeEarlierDeliveries(tx, owner, remotePath, created.id);
    await storeAlongside?.(tx, { transmissionId: created.id, name, remotePath, content });
    return { transmissionId: created.id, isNew: true };
  }, STORE_TRANSACTION);
}

/** The stored files of the kind not yet applied (stored by this run, or left by an earlier one), oldest first. */
export async function receivedInboundFileIds(kind: Pick<InboundFileKind, "partner" | "transactionSet">): Promise<number[]> {
  const waiting = await prisma.transmission.findMany({
    where: { partner: kind.partner, direction: "in", transaction_set: kind.transactionSet, status: "received" },
    orderBy: { id: "asc" },
    select: { id: true },
  });
  return waiting.map(({ id }) => id);
}

/** How an area applies its stored files of one kind (D151). */
export interface StoredFileApplier<File, Applied> {
  /** Reads the stored content; throws a `Refusal` for a file that can never apply (set aside as failed). */
  read(content: Buffer): File;
  Refusal: new (message: string) => Error;
  /** Applies the file; `note` (rows not applied) becomes the transmission's error, null when every row applied. */
  apply(db: Prisma.TransactionClient, file: File): Promise<{ applied: Applied; note: string | null }>;
  /** True: the file applies and is marked processed in one transaction. False: `apply` takes its own transactions (given the client). */
  oneTransaction: boolean;
  /** A failure of the database is tried again at the next run, and the file set aside as failed after this many attempts. */
  maxAttempts: number;
}

/**
 * What became of a stored file: applied, refused (set aside as failed), or not applied because the database failed
 * (set aside after the last attempt); `problem` says why, as a code (D116).
 */
export type StoredFileOutcome<File, Applied> =
  | { status: "applied"; fileName: string; file: File; applied: Applied }
  | { status: "refused" | "not_applied"; fileName: string; problem: RunMessage; setAside: boolean };

/**
 * Applies each stored file of the kind not yet applied (stored by this run, or left by an earlier one), oldest
 * first, and hands `each` what became of it; a run asked to stop leaves the rest. How many files were waiting.
 */
export async function applyReceivedInboundFiles<File, Applied>(
  kind: Pick<InboundFileKind, "partner" | "transactionSet">,
  applier: StoredFileApplier<File, Applied> & { signal?: AbortSignal; each(outcome: StoredFileOutcome<File, Applied>): void | Promise<void> },
): Promise<number> {
  const waiting = await receivedInboundFileIds(kind);
  for (const id of waiting) {
    if (applier.signal?.aborted) break;
    await applier.each(await applyStoredInboundFile(id, applier));
  }
  return waiting.length;
}

/** Applies one stored file (status received): processed when it applies, failed when refused, attempts counted when the database fails. */
async function applyStoredInboundFile<File, Applied>(
  transmissionId: number,
  applier: StoredFileApplier<File, Applied>,
): Promise<StoredFileOutcome<File, Applied>> {
  const id = transmissionId;
  const stored = await prisma.transmission.findUniqueOrThrow({ where: { id }, select: { file_name: true, content: true, attempts: true } });
  const fileName = stored.file_name;
  let file: File;
  try {
    file = applier.read(Buffer.from(stored.content));
  } catch (error) {
    if (!(error instanceof applier.Refusal)) throw error;
    await prisma.transmission.update({ where: { id }, data: { status: "failed", error: error.message, attempts: { increment: 1 }, processed_at: new Date() } });
    return { status: "refused", fileName, problem: message("logs.as400.file_refused", { file: fileName, error: error.message }), setAside: true };
  }
  const applyAndMark = async (db: Prisma.TransactionClient) => {
    const { applied, note } = await applier.apply(db, file);
    await db.transmission.update({ where: { id }, data: { status: "processed", error: note, attempts: { increment: 1 }, processed_at: new Date() } });
    return applied;
  };
  try {
    const applied = applier.oneTransaction ? await prisma.$transaction(applyAndMark, { maxWait: 10_000, timeout: 300_000 }) : await applyAndMark(prisma);
    return { status: "applied", fileName, file, applied };
  } catch (error) {
    // The database, not the file: tried again next run, set aside after maxAttempts.
    const attempts = stored.attempts + 1;
    const giveUp = attempts >= applier.maxAttempts;
    await prisma.transmission.update({
      where: { id },
      data: {
        status: giveUp ? "failed" : "received",
        error: `attempt ${attempts}: ${errorMessage(error)}`,
        attempts,
        ...(giveUp ? { processed_at: new Date() } : {}),
      },
    });
    const problem = message("logs.as400.not_applied", { file: fileName, attempt: attempts, max: applier.maxAttempts, error: errorMessage(error) });
    return { status: "not_applied", fileName, problem, setAside: giveUp };
  }
}

/** The transmission's note on rows not applied: how many, the first 50 and how many more ("3 rows not applied: line 2: …"). */
export function rowsNotApplied(notes: string[], row: string): string | null {
  if (!notes.length) return null;
  const more = notes.length > 50 ? ` (and ${notes.length - 50} more)` : "";
  return `${notes.length} ${notes.length === 1 ? row : `${row}s`} not applied: ${notes.slice(0, 50).join("; ")}${more}`;
}
