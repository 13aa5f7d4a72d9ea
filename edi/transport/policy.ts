// The rules every protocol follows when writing and archiving, written once:
// a vendor never sees half a file, and neither an upload nor an archived file overwrites one.
import { Readable, Writable } from "node:stream";
import type { TransportErrors } from "./errors";
import { ARCHIVE_FOLDER, archiveNameCandidates, baseName, isTemporaryUploadName, joinRemote, parentOf, temporaryUploadName } from "./paths";
import type { RemoteFile, RemoteListing } from "./types";

/** What a protocol gives the shared rules; each call already runs inside one operation. */
export interface FileOperations {
  exists(path: string): Promise<false | "file" | "folder">;
  /** Writes the whole content at `path`, a file of `folder`. */
  write(folder: string, path: string, content: Buffer): Promise<void>;
  /** Reads a whole (small) file: only to compare a file already there with the one to upload. */
  read(path: string): Promise<Buffer>;
  size(path: string): Promise<number>;
  remove(path: string): Promise<void>;
  removeQuietly(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  makeFolder(path: string): Promise<void>;
}

/** What an upload fails with, in the transport's words. */
export interface UploadErrors {
  incomplete(size: number): Error;
  /** A file of that name is already in the folder, with other content: it is never replaced (D196). */
  alreadyThere(path: string): Error;
}

/**
 * Writes under a temporary name in the same folder, checks the size, then
 * renames: the final name only ever shows a complete file. A failed upload
 * tries to remove the temporary one. An existing file of the final name is
 * never replaced (D196): the upload fails saying so, and the next run tries
 * again (the vendor or the AS400 may have taken it by then), unless that file
 * has the very bytes being sent: then an earlier attempt of ours published it
 * (the run died before recording it) and it counts as sent.
 */
export async function uploadViaTemporaryName(files: FileOperations, folder: string, name: string, content: Buffer, errors: UploadErrors): Promise<string> {
  const finalPath = joinRemote(folder, name);
  const temporaryPath = joinRemote(folder, temporaryUploadName(name));
  try {
    await files.write(folder, temporaryPath, content);
    const size = await files.size(temporaryPath);
    if (size !== content.length) throw errors.incomplete(size);
    // Checked just before the rename, once per upload as before (over FTP it lists the folder): SFTP's
    // rename refuses an existing target anyway, but some FTP servers would replace it.
    if ((await files.exists(finalPath)) !== false) {
      if (!(await sameContent(files, finalPath, content))) throw errors.alreadyThere(finalPath);
      await files.removeQuietly(temporaryPath);
      return finalPath;
    }
    await files.rename(temporaryPath, finalPath);
    return finalPath;
  } catch (error) {
    await files.removeQuietly(temporaryPath);
    throw error;
  }
}

async function sameContent(files: FileOperations, path: string, content: Buffer): Promise<boolean> {
  if ((await files.exists(path)) !== "file" || (await files.size(path)) !== content.length) return false;
  return (await files.read(path)).equals(content);
}

/** A ".name.part" left this long ago is no upload in flight: longer than an upload's lease (ten minutes, D69). */
export const STALE_PART_MS = 15 * 60 * 1000;

/**
 * The empty ".name.part" files an upload cut short left in a folder (a lost connection
 * leaves the temporary file, and nothing may be removed then): stale ones to remove.
 * Only empty ones, only older than STALE_PART_MS, and only when the server gives a time.
 */
export function stalePartFiles(entries: readonly RemoteFile[], now = Date.now()): RemoteFile[] {
  return entries.filter(
    (entry) =>
      entry.type === "file" &&
      entry.path !== "" &&
      isTemporaryUploadName(entry.name) &&
      entry.size === 0 &&
      entry.modifiedAt !== null &&
      now - entry.modifiedAt.getTime() > STALE_PART_MS,
  );
}

/**
 * What one connection knows of the archive folders it moved files into: made once, and
 * the names in each, listed once; every file after that costs one rename (D183).
 */
export class ArchiveFolders {
  private readonly known = new Map<string, Promise<{ names: Set<string>; complete: boolean }>>();

  /** The archive folder's names, made and listed on first use; `complete` false when the listing was cut. */
  names(files: ArchiveOperations, archiveFolder: string): Promise<{ names: Set<string>; complete: boolean }> {
    let entry = this.known.get(archiveFolder);
    if (!entry) {
      entry = (async () => {
        await files.makeFolder(archiveFolder);
        const listing = await files.list(archiveFolder);
        return { names: new Set(listing.map((file) => file.name)), complete: !listing.cut };
      })();
      // A failure is not remembered: the next file tries again.
      entry.catch(() => this.known.delete(archiveFolder));
      this.known.set(archiveFolder, entry);
    }
    return entry;
  }
}

/** The operations archiving needs beyond FileOperations: the archive folder's listing. */
export interface ArchiveOperations extends FileOperations {
  list(folder: string): Promise<RemoteListing>;
}

/**
 * Moves a file into `<its folder>/archive/` (created if missing), under a new name if its own is
 * taken: one rename per file. The first candidate not among the archive's names (listed once per
 * connection) is tried; a rename refused because the name exists after all (another run archived
 * there meanwhile) tries the next. The names are checked one by one only when the archive's listing
 * was cut. A source that is gone is `notFound`, told by the rename's failure, not by a listing.
 */
export async function archiveIntoSubfolder(files: ArchiveOperations, folders: ArchiveFolders, path: string, notFound: () => Error): Promise<string> {
  const archiveFolder = joinRemote(parentOf(path), ARCHIVE_FOLDER);
  const known = await folders.names(files, archiveFolder);
  for (const candidate of archiveNameCandidates(baseName(path))) {
    if (known.names.has(candidate)) continue;
    const target = joinRemote(archiveFolder, candidate);
    // FTP servers often replace an existing file on rename: an unlisted name is checked first.
    if (!known.complete && (await files.exists(target))) {
      known.names.add(candidate);
      continue;
    }
    try {
      await files.rename(path, target);
    } catch (error) {
      if (isConnectionFault(error)) throw error;
      if ((await files.exists(target)) !== false) {
        known.names.add(candidate);
        continue;
      }
      if ((await files.exists(path)) === false) throw notFound();
      throw error;
    }
    known.names.add(candidate);
    return target;
  }
  throw new Error("unreachable: archive names are endless");
}

const isConnectionFault = (error: unknown) => (error as { isConnectionFault?: boolean } | null)?.isConnectionFault === true;

/**
 * Where a download's bytes go: kept in memory up to `limit`, and an error as
 * soon as more arrive (a server may list one size and send more).
 */
export function boundedSink(limit: number, onChunk: () => void, tooLarge: () => Error, expected = 0) {
  // The listed size's buffer, filled as bytes arrive: no second copy of the file at the end (D221).
  // Bytes past it (a file grown since its listing) go to a list; the size check refuses that file anyway.
  const whole = Buffer.allocUnsafe(Math.min(expected, limit));
  const beyond: Buffer[] = [];
  let received = 0;
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      if (received + chunk.length > limit) {
        received += chunk.length;
        return done(tooLarge());
      }
      const fits = Math.max(0, Math.min(chunk.length, whole.length - received));
      chunk.copy(whole, received, 0, fits);
      if (fits < chunk.length) beyond.push(chunk.subarray(fits));
      received += chunk.length;
      onChunk();
      done();
    },
  });
  const content = () => (received === whole.length ? whole : Buffer.concat([whole.subarray(0, Math.min(received, whole.length)), ...beyond]));
  return { sink, content, exceeded: () => received > limit };
}

/**
 * Downloads `path` through `transfer` into a bounded sink: a file larger than `limit` is
 * refused before and while it arrives, and one that ends at another size than `expected`
 * is an incomplete download.
 */
export async function boundedDownload(
  errors: TransportErrors,
  path: string,
  expected: number,
  limit: number,
  onChunk: () => void,
  transfer: (sink: Writable) => Promise<unknown>,
): Promise<Buffer> {
  if (expected > limit) throw errors.tooLarge(path, expected, limit);
  const tooLarge = () => errors.tooLarge(path, expected, limit);
  const bounded = boundedSink(limit, onChunk, tooLarge, expected);
  // The library reports the sink's refusal as its own failure: the limit is what counts.
  await transfer(bounded.sink).catch((error: unknown) => {
    throw bounded.exceeded() ? tooLarge() : error;
  });
  const content = bounded.content();
  if (content.length !== expected) throw errors.incompleteDownload(path, content.length, expected);
  return content;
}

/** Upload chunk: small enough that the idle timer sees steady progress. */
const UPLOAD_CHUNK_BYTES = 32 * 1024;

/** An upload's content as a stream of small chunks, calling `onChunk` before each. */
export function chunkedContent(content: Buffer, onChunk: () => void): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < content.length; offset += UPLOAD_CHUNK_BYTES) {
        onChunk();
        yield content.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
      }
    })(),
  );
}
