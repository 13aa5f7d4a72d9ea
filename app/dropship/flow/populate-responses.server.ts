// Step 3, Populate Ship Responses: every file in each vendor's incoming folder
// is downloaded and stored whole (content and sha256) before anything else;
// only then is it archived or deleted on the vendor's server. A file is taken
// once it is not being written (D60); a listed name that is a path is refused
// (D61). A delivery taken before and listed again (its release failed) is
// only released; the same content as another delivery is a new file (D59).
// One vendor that is down fails alone.
import { logMessage } from "~/i18n/english.server";
import prisma from "~/db.server";
import { errorRunMessage } from "~/runs/error-messages.server";
import { message } from "~/runs/messages";
import { Prisma, type Vendor } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";
import { env } from "~/env.server";
import { countVendorFile } from "~/observability/metrics.server";
import {
  contentHashSliced,
  findTakenDeliveries,
  findTakenDelivery,
  lockDeliveryPath,
  lockDeliveryPaths,
  insertedContent,
  markReleasedMany,
  STORE_TRANSACTION,
  storeContentSlices,
  supersedeEarlierDeliveries,
  supersedeEarlierDeliveriesMany,
} from "~/transfers/incoming-deliveries.server";
import { recogniseIncomingFile } from "@edi/incoming";
import { TransportError, type RemoteFile } from "@edi/transport";
import { listingCutMessage, refusedNamesParams, selectFromListing } from "~/transfers/incoming-listing.server";
import {
  changedSince,
  forgetSightings,
  forgetVanishedSightings,
  lacksClosingIea,
  readSightings,
  recordSightings,
  settledSince,
  type Sighting,
  vendorSightingOwner,
  waitedLongEnough,
} from "~/transfers/whole-files.server";
import { gate, inFlight, settledFiles } from "@edi/transport";
import type { VendorTransport } from "@edi/transport";
import { releaseIncomingFile, withVendorTransport } from "../vendor-connection.server";
import { plural, StepReport, vendorLog, vendorProfile, writeLogs, type LogEntry, type StepResult } from "./context.server";
import { crashPoint } from "./crash-hook.server";
import { errorMessage } from "~/lib/error-message";

/**
 * Stores the file unless this delivery was taken before (still at its path, or
 * our archived copy of it); answers the transmission id and whether it is new.
 */
export async function storeIncomingFile(
  vendor: Vendor,
  file: { name: string; path: string; content: Buffer; transactionSet: string | null; modifiedAt?: Date | null },
) {
  const owner = { vendorId: vendor.id };
  const hash = await contentHashSliced(file.content);
  const size = file.content.length;
  const stored = await prisma.$transaction(async (tx) => {
    await lockDeliveryPath(tx, LOCK_KEYS.vendorIncomingFile, owner, file.path);
    const taken = await findTakenDelivery(tx, { owner, remotePath: file.path, modifiedAt: file.modifiedAt ?? null, hash, size });
    if (taken) return { id: taken.id, isNew: false };
    const created = await tx.transmission.create({
      data: {
        vendor_id: vendor.id,
        partner: "vendor",
        direction: "in",
        file_name: file.name,
        remote_path: file.path,
        remote_modified_at: file.modifiedAt ?? null,
        transaction_set: file.transactionSet,
        content_hash: hash,
        content: new Uint8Array(insertedContent(file.content)),
        size,
        status: "received",
        transaction_control_numbers: [],
      },
      select: { id: true },
    });
    // A big file's content in slices, in this transaction: the row is whole or absent (D221).
    await storeContentSlices(tx, created.id, file.content);
    await supersedeEarlierDeliveries(tx, owner, file.path, created.id);
    return { id: created.id, isNew: true };
  }, STORE_TRANSACTION);
  if (stored.isNew) countVendorFile("received", vendor.id);
  return stored;
}

/**
 * storeIncomingFile for a batch of one vendor's files, in one transaction of a
 * few statements (D104): the paths' locks, one lookup of the deliveries taken
 * before, one insert of the new files, one statement superseding earlier files at
 * the new files' paths. Answers each file's transmission id and whether it is new, in order.
 */
export async function storeIncomingFiles(
  vendor: Vendor,
  files: Array<{ name: string; path: string; content: Buffer; transactionSet: string | null; modifiedAt?: Date | null }>,
) {
  if (files.length === 1) return [await storeIncomingFile(vendor, files[0])];
  const owner = { vendorId: vendor.id };
  const hashes: string[] = [];
  for (const file of files) hashes.push(await contentHashSliced(file.content));
  const stored = await prisma.$transaction(async (tx) => {
    await lockDeliveryPaths(
      tx,
      LOCK_KEYS.vendorIncomingFile,
      owner,
      files.map((file) => file.path),
    );
    const taken = await findTakenDeliveries(
      tx,
      vendor.id,
      files.map((file, i) => ({ remotePath: file.path, modifiedAt: file.modifiedAt ?? null, hash: hashes[i], size: file.content.length })),
    );
    // The new files in one statement; each row is found again by its path, in the order given (a
    // hostile server may list one name twice: each listing still gets a row of its own).
    const fresh = files.flatMap((file, i) => (taken[i] === null ? [{ ...file, hash: hashes[i] }] : []));
    const rows = fresh.length
      ? await tx.$queryRaw<Array<{ id: number; remote_path: string }>>`
        INSERT INTO transmission (vendor_id, partner, direction, file_name, remote_path, remote_modified_at, transaction_set, content_hash,
                                  content, size, status, transaction_control_numbers, updated_at)
        VALUES ${Prisma.join(
          fresh.map(
            (file) => Prisma.sql`(${vendor.id}, 'vendor', 'in', ${file.name}, ${file.path}, ${file.modifiedAt ?? null}::timestamptz,
              ${file.transactionSet}, ${file.hash}, ${insertedContent(file.content)}, ${file.content.length}, 'received', '{}', now())`,
          ),
        )}
        RETURNING id, remote_path`
      : [];
    const idsAt = new Map<string, number[]>();
    for (const row of rows) idsAt.set(row.remote_path, [...(idsAt.get(row.remote_path) ?? []), row.id]);
    const freshIds = fresh.map((file) => idsAt.get(file.path)!.shift()!);
    // Big files' contents in slices, in this transaction (D221).
    for (const [i, file] of fresh.entries()) await storeContentSlices(tx, freshIds[i], file.content);
    await supersedeEarlierDeliveriesMany(
      tx,
      owner,
      fresh.map((file, i) => ({ id: freshIds[i], path: file.path })),
    );
    let next = 0;
    return files.map((_, i) => (taken[i] !== null ? { id: taken[i]!, isNew: false } : { id: freshIds[next++], isNew: true }));
  }, STORE_TRANSACTION);
  // Counted once committed.
  for (const each of stored) if (each.isNew) countVendorFile("received", vendor.id);
  return stored;
}

/** Names that are paths, refused: one log line and one problem for the batch, naming how many and the first; left on the server (D61, D180). */
async function refuseUnsafeNames(vendor: Vendor, folder: string, refused: RemoteFile[], report: StepReport) {
  if (refused.length === 0) return;
  report.count("names_refused", refused.length);
  const params = refusedNamesParams(refused, folder);
  report.problem(message("logs.dropship.names_refused_batch_problem", params));
  await writeLogs([
    {
      ...vendorLog(vendor),
      action: "receive_file" as const,
      status: "error" as const,
      file_name: params.name.slice(0, 255),
      ...logMessage("logs.dropship.names_refused_batch", params),
    },
  ]);
}

/** One line of the vendor's receive log, about a file or the folder. */
const receiveLog = (
  vendor: Vendor,
  fileName: string | null,
  status: "info" | "warning",
  coded: { code: string; params: Record<string, unknown> },
): LogEntry => ({
  ...vendorLog(vendor),
  action: "receive_file",
  status,
  file_name: fileName,
  ...logMessage(coded.code, coded.params),
});

/**
 * The folders a vendor's files arrive in: its Incoming Folder, and its Cancellation Pull Folder when it
 * has one of its own (answers to our cancellations, D225). Both are read the same way, one after the other.
 */
export function vendorIncomingFolders(vendor: Pick<Vendor, "sftp_incoming_folder" | "sftp_cancellation_pull_folder">): string[] {
  const incoming = vendor.sftp_incoming_folder?.trim();
  const pull = vendor.sftp_cancellation_pull_folder?.trim();
  return [...(incoming ? [incoming] : []), ...(pull && pull !== incoming ? [pull] : [])];
}

/** Whose sightings a folder's files are: the vendor's for its Incoming Folder, the folder's own for its Cancellation Pull Folder. */
export function folderSightingOwner(vendor: Pick<Vendor, "id" | "sftp_incoming_folder">, folder: string) {
  return folder === vendor.sftp_incoming_folder?.trim() ? vendorSightingOwner(vendor.id) : `${vendorSightingOwner(vendor.id)}:${folder}`;
}

async function collectFromVendor(vendor: Vendor, transport: VendorTransport, report: StepReport, transfers: ReturnType<typeof gate>) {
  for (const folder of vendorIncomingFolders(vendor)) await collectFromFolder(vendor, folder, transport, report, transfers);
}

async function collectFromFolder(vendor: Vendor, folder: string, transport: VendorTransport, report: StepReport, transfers: ReturnType<typeof gate>) {
  const { profile } = vendorProfile(vendor);
  const maxFiles = env().MAX_FILES_PER_FOLDER;
  // Bounded: a listing stops at a number of names or a time, and a run takes MAX_FILES_PER_FOLDER files, oldest first (D180).
  const listing = await transport.list(folder);
  const selection = selectFromListing(listing, (file) => !profile.fileNamePattern || profile.fileNamePattern.test(file.name), maxFiles);
  await refuseUnsafeNames(vendor, folder, selection.refused, report);
  if (selection.unwanted) report.count("left_by_regex_format", selection.unwanted);
  const folderLines: LogEntry[] = [];
  if (selection.cut) {
    report.count("listings_cut");
    folderLines.push(receiveLog(vendor, null, "warning", listingCutMessage("logs.dropship", folder, selection.cut)));
  }
  if (selection.leftForNextRun) {
    report.count("files_left_for_next_run", selection.leftForNextRun);
    folderLines.push(
      receiveLog(vendor, null, "info", { code: "logs.dropship.left_for_next_run", params: { count: selection.leftForNextRun, folder, max: maxFiles } }),
    );
  }
  await writeLogs(folderLines);
  // A file left at an earlier run because it was not whole, and changed since, is still being written (D181).
  // Per folder: a listing of one folder says nothing of the files of the other.
  const owner = folderSightingOwner(vendor, folder);
  if (!listing.cut)
    await forgetVanishedSightings(
      owner,
      listing.map((file) => file.path),
    );
  const maxWaitMs = vendor.incoming_max_wait_minutes * 60_000;
  const sightings = await readSightings(
    owner,
    selection.taken.map((file) => file.path),
  );
  const growing = selection.taken.filter((file) => changedSince(sightings.get(file.path), file) && !waitedLongEnough(sightings.get(file.path), maxWaitMs));
  const left = new Set(growing);
  const wanted = selection.taken.filter((file) => !left.has(file));
  // Only files no longer being written: old enough, or unchanged across two listings (D60). A file an earlier
  // listing saw at this size and time, at least the pause ago (the minute watch's, D252), needs no second one.
  const pauseMs = env().INCOMING_SETTLE_SECONDS * 1000;
  const agreed = new Set(wanted.filter((file) => settledSince(sightings.get(file.path), file, pauseMs)));
  const settled = await settledFiles(
    transport,
    folder,
    wanted.filter((file) => !agreed.has(file)),
    { minAgeMs: vendor.incoming_min_age_seconds * 1000, pauseMs },
  );
  const settledReady = new Set(settled.ready);
  const ready = wanted.filter((file) => agreed.has(file) || settledReady.has(file));
  const changing = settled.changing;
  await recordSightings(owner, [...growing, ...changing]);
  if (changing.length || growing.length) {
    report.count("files_still_changing", changing.length + growing.length);
    await writeLogs([
      ...changing.map((file) => receiveLog(vendor, file.name, "info", { code: "logs.dropship.still_written", params: { file: file.name } })),
      ...growing.map((file) => receiveLog(vendor, file.name, "info", { code: "logs.dropship.not_whole_growing", params: { file: file.name } })),
    ]);
  }
  // Downloaded a batch at a time, several in flight on the connection (D131), stored in one transaction, then released (D104);
  // a few vendors at a time do this (D105), while the others connect, list and wait for their files to settle (D132).
  await transfers(() => transferFiles(vendor, transport, ready, profile, report, { owner, maxWaitMs, sightings }));
}

/** What decides whether a downloaded file is whole (D181): the vendor's sightings and longest wait. */
interface WholeFileRule {
  owner: string;
  maxWaitMs: number;
  sightings: Map<string, Sighting>;
}

async function transferFiles(
  vendor: Vendor,
  transport: VendorTransport,
  ready: RemoteFile[],
  profile: ReturnType<typeof vendorProfile>["profile"],
  report: StepReport,
  whole: WholeFileRule,
) {
  for (const batch of storeBatches(ready)) {
    const downloads = await inFlight(batch, transport.inFlight, (file) => transport.download(file.path, file.size), lostConnection);
    const downloaded: Downloaded[] = [];
    let fault: TransportError | null = null;
    for (const [i, outcome] of downloads.entries()) {
      const file = batch[i];
      // Not started after the connection was lost: still there for the next run.
      if (outcome.status === "skipped") continue;
      if (outcome.status === "fulfilled") {
        const content = outcome.value;
        downloaded.push({
          name: file.name,
          path: file.path,
          modifiedAt: file.modifiedAt ?? null,
          content,
          recognised: recogniseIncomingFile(file.name, content.subarray(0, 4096), vendor as never, profile),
        });
        continue;
      }
      const error = outcome.reason;
      if (!(error instanceof TransportError)) throw error;
      report.problem(message("logs.dropship.not_downloaded_problem", { vendor: vendor.name, file: file.name, error: errorRunMessage(error) }));
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "receive_file",
          status: "error",
          file_name: file.name,
          ...logMessage("logs.dropship.download_failed", { path: file.path, error: error.message }),
        },
      ]);
      if (error.isConnectionFault) fault ??= error;
    }
    // What was downloaded is stored and released, also before the step gives up on a vendor whose connection was lost.
    await storeAndRelease(vendor, transport, await leaveUnfinished(vendor, downloaded, whole, report), report);
    if (fault) throw fault;
  }
}

/** Stops starting further operations on a connection once one has found it lost. */
const lostConnection = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === "rejected" && outcome.reason instanceof TransportError && outcome.reason.isConnectionFault;

/** The files in store batches, in order: 100 files or 8 MB by their listed sizes (a larger file alone). */
function storeBatches(files: RemoteFile[]): RemoteFile[][] {
  const batches: RemoteFile[][] = [];
  let batch: RemoteFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (batch.length > 0 && (batch.length >= STORE_BATCH_FILES || bytes + file.size > STORE_BATCH_BYTES)) {
      batches.push(batch);
      [batch, bytes] = [[], 0];
    }
    batch.push(file);
    bytes += file.size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** Files per store transaction, and bytes: a batch of large files is never held in memory whole. */
const STORE_BATCH_FILES = 100;
const STORE_BATCH_BYTES = 8 << 20;

interface Downloaded {
  name: string;
  path: string;
  modifiedAt: Date | null;
  content: Buffer;
  recognised: ReturnType<typeof recogniseIncomingFile>;
}

/**
 * The downloaded files that are whole (D181). An X12 file without its closing IEA is left on the
 * server, remembered, and looked at again next run; once it has waited the vendor's longest wait
 * it is taken as it is (and its reader refuses it). Files taken forget their sightings.
 */
async function leaveUnfinished(vendor: Vendor, downloaded: Downloaded[], whole: WholeFileRule, report: StepReport): Promise<Downloaded[]> {
  const taken: Downloaded[] = [];
  const left: Downloaded[] = [];
  const lines: LogEntry[] = [];
  for (const file of downloaded) {
    if (!lacksClosingIea(file.content)) {
      taken.push(file);
      continue;
    }
    const sighting = whole.sightings.get(file.path);
    if (waitedLongEnough(sighting, whole.maxWaitMs)) {
      const minutes = Math.round((Date.now() - sighting!.firstSeenAt.getTime()) / 60_000);
      lines.push(receiveLog(vendor, file.name, "warning", { code: "logs.dropship.taken_not_whole", params: { file: file.name, minutes } }));
      taken.push(file);
      continue;
    }
    left.push(file);
    lines.push(receiveLog(vendor, file.name, "info", { code: "logs.dropship.not_whole_no_iea", params: { file: file.name } }));
  }
  if (left.length) report.count("files_not_whole", left.length);
  await recordSightings(
    whole.owner,
    left.map((file) => ({ path: file.path, size: file.content.length, modifiedAt: file.modifiedAt })),
    { notWhole: true },
  );
  await forgetSightings(
    whole.owner,
    taken.map((file) => file.path),
  );
  await writeLogs(lines);
  return taken;
}

/**
 * Stores a batch of downloaded files in one transaction (storeIncomingFiles),
 * and only then archives or deletes each on the vendor's server; the releases
 * are marked in one statement and the batch's log lines written in one insert.
 */
async function storeAndRelease(vendor: Vendor, transport: VendorTransport, batch: Downloaded[], report: StepReport) {
  if (batch.length === 0) return;
  const stored = await storeIncomingFiles(
    vendor,
    batch.map((file) => ({ name: file.name, path: file.path, content: file.content, transactionSet: file.recognised.type, modifiedAt: file.modifiedAt })),
  );
  for (const each of stored) {
    report.count(each.isNew ? "files_stored" : "duplicates");
    crashPoint("after-download");
  }
  const logs: LogEntry[] = [];
  const released: Array<{ id: number; archivedTo: string | null }> = [];
  let fault: TransportError | null = null;
  let unexpected: unknown = null;
  // Only now, with the files safely stored, are they moved or removed remotely: several in flight (D131). Each is
  // sized again first: a file that changed after it was taken stays, and is taken again as a new delivery (D181).
  const releases = await inFlight(
    batch,
    transport.inFlight,
    async (file) => {
      const remote = await transport.size(file.path);
      if (remote !== file.content.length) return { changed: remote };
      return releaseIncomingFile(transport, vendor, file.path);
    },
    lostConnection,
  );
  for (const [i, file] of batch.entries()) {
    const { id, isNew } = stored[i];
    const storedText = isNew
      ? message("logs.dropship.stored", {
          file: file.name,
          bytes: file.content.length,
          type: file.recognised.type ? message("logs.dropship.type_is", { type: file.recognised.type }) : message("logs.dropship.type_unknown"),
          reason: file.recognised.reasonCoded,
        })
      : message("logs.dropship.taken_before", { file: file.name, id });
    const archiving = vendor.is_archiving_files === 1;
    // One log line per file.
    const log = { ...vendorLog(vendor), action: "receive_file" as const, file_name: file.name, transmission_id: id };
    const outcome = releases[i];
    if (outcome.status === "skipped") {
      logs.push({
        ...log,
        status: "warning",
        ...logMessage(archiving ? "logs.dropship.not_archived_lost" : "logs.dropship.not_deleted_lost", { stored: storedText }),
      });
      continue;
    }
    if (outcome.status === "fulfilled" && "changed" in outcome.value) {
      // Stored, but not what the server holds now: left in place, so the whole file is taken as a new delivery (D59).
      report.count("files_changed_after_taken");
      logs.push({
        ...log,
        status: "warning",
        ...logMessage("logs.dropship.changed_after_taken", { file: file.name, stored: file.content.length, remote: outcome.value.changed }),
      });
      continue;
    }
    if (outcome.status === "fulfilled") {
      const archivedTo = "archivedTo" in outcome.value ? outcome.value.archivedTo : null;
      released.push({ id, archivedTo });
      logs.push({
        ...log,
        status: isNew ? "info" : "warning",
        ...(archivedTo
          ? logMessage("logs.dropship.archived_to", { stored: storedText, path: archivedTo })
          : logMessage("logs.dropship.deleted", { stored: storedText })),
      });
      continue;
    }
    const error = outcome.reason;
    if (!(error instanceof TransportError)) {
      unexpected ??= error;
      continue;
    }
    report.problem(message("logs.dropship.not_released_problem", { vendor: vendor.name, file: file.name, error: errorRunMessage(error) }));
    logs.push({
      ...log,
      status: "warning",
      ...logMessage(archiving ? "logs.dropship.archive_failed" : "logs.dropship.delete_failed", { stored: storedText, error: error.message }),
    });
    if (error.isConnectionFault) fault ??= error;
  }
  // The releases that happened are marked even when something unexpected failed beside them.
  await markReleasedMany(released);
  if (unexpected) throw unexpected;
  await writeLogs(logs);
  if (fault) throw fault;
}

/** Vendors whose files are downloaded, stored and released at once (D105). */
const VENDORS_AT_ONCE = 4;
/** Vendors connected at once: the others' listing and settle pause (D60) need no more than a connection (D132). */
const VENDORS_CONNECTED_AT_ONCE = 16;

/** The vendors whose incoming folders are read: enabled, not archived, with a server and an Incoming Folder. */
export function vendorsToRead(vendorId?: number) {
  return prisma.vendor.findMany({
    where: { enabled: 1, archived_at: null, sftp_host: { not: null }, sftp_incoming_folder: { not: null }, ...(vendorId ? { id: vendorId } : {}) },
    orderBy: { id: "asc" },
  });
}

export async function populateShipResponses(options: { vendorId?: number } = {}): Promise<StepResult> {
  const report = new StepReport();
  const vendors = await vendorsToRead(options.vendorId);
  // Several vendors at once, each over its own connection: one vendor's SFTP round trips and settle pause (D60)
  // overlap the others' (D105); a pause holds no transfer slot (D132). A vendor's files are its own connection's.
  const transfers = gate(VENDORS_AT_ONCE);
  const outcomes = await inFlight(vendors, VENDORS_CONNECTED_AT_ONCE, async (vendor) => {
    try {
      await withVendorTransport(vendor, (transport) => collectFromVendor(vendor, transport, report, transfers));
      report.count("vendors_read");
    } catch (error) {
      const text = errorMessage(error);
      report.problem(`${vendor.name}: ${text}`, message("transport.problems.vendor_error", { vendor: vendor.name, error: errorRunMessage(error) }));
      await writeLogs([
        {
          ...vendorLog(vendor),
          action: "populate_responses",
          status: "error",
          ...logMessage("logs.dropship.incoming_unreadable", { vendor: vendor.name, error: text }),
        },
      ]);
    }
  });
  // What even the error handling could not handle (the database gone) fails the step, as before.
  for (const outcome of outcomes) if (outcome.status === "rejected") throw outcome.reason;
  const stored = report.counts.files_stored ?? 0;
  const duplicates = report.counts.duplicates ?? 0;
  // Left because not whole yet, either way (D60, D181): looked at again next run.
  const changing = (report.counts.files_still_changing ?? 0) + (report.counts.files_not_whole ?? 0);
  const before = duplicates ? `, ${plural(duplicates, "file")} already stored before` : "";
  const written = changing ? `, ${plural(changing, "file")} still being written (left for the next run)` : "";
  const summary = `${plural(stored, "new file")} stored from ${plural(report.counts.vendors_read ?? 0, "vendor")}${before}${written}.`;
  return report.result(
    summary,
    message(`dropship_test.results.populate_responses${duplicates ? "_duplicates" : ""}${changing ? "_changing" : ""}`, {
      files: message("runs.n.new_file", { count: stored }),
      vendors: message("runs.n.vendor", { count: report.counts.vendors_read ?? 0 }),
      duplicates: message("runs.n.file", { count: duplicates }),
      changing: message("runs.n.file", { count: changing }),
    }),
  );
}
