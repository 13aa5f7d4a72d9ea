// What the SFTP and FTP transports share above their protocols: the operations that are
// the same calls on each one's primitives (FileOperations), inside each one's operation.
import type { Writable } from "node:stream";
import { type Activity, type OperationRunner, TransportError, type TransportErrors } from "./errors";
import { assertPlainFileName, baseName, joinRemote, parentOf } from "./paths";
import { ArchiveFolders, archiveIntoSubfolder, boundedDownload, type FileOperations, stalePartFiles, uploadViaTemporaryName } from "./policy";
import type { RemoteFile, RemoteListing } from "./types";

export abstract class RemoteTransport {
  protected abstract readonly errors: TransportErrors;
  /** Serialises and times the operations; touched as bytes move. */
  protected abstract readonly runner: OperationRunner;
  protected abstract readonly maxDownloadBytes: number;
  /** The protocol's side of the shared upload and archive rules (policy.ts). */
  protected abstract readonly files: FileOperations;
  abstract list(folder: string): Promise<RemoteFile[]>;
  abstract delete(path: string): Promise<void>;
  /** Runs `work` as one operation: serialised, timed, its failures classified. */
  protected abstract operation<T>(activity: Activity, path: string, work: () => Promise<T>): Promise<T>;

  /** The archive folders this connection made and listed (policy.ts): one rename per archived file. */
  private readonly archiveFolders = new ArchiveFolders();
  /** The protocol's listing, bounded; used inside an operation (archiving lists its folder once). */
  protected abstract listNowBounded(folder: string): Promise<RemoteListing>;

  exists(path: string): Promise<false | "file" | "folder"> {
    return this.operation("reading", path, () => this.files.exists(path));
  }

  size(path: string): Promise<number> {
    return this.operation("reading", path, () => this.files.size(path));
  }

  async upload(folder: string, name: string, content: Buffer): Promise<string> {
    assertPlainFileName(name);
    const finalPath = joinRemote(folder, name);
    await this.sweepStaleParts(folder);
    return this.operation("writing", finalPath, () =>
      uploadViaTemporaryName(this.files, folder, name, content, {
        incomplete: (size) => this.errors.incompleteUpload(finalPath, size, content.length),
        alreadyThere: (path) =>
          this.errors.protocol(
            "already_there",
            { path, name: baseName(path), folder: parentOf(path) },
            `A file named ${baseName(path)} is already in ${parentOf(path)}; it was not replaced (the next run tries again)`,
          ),
      }),
    );
  }

  /** Folders whose stale ".part" files this connection looked for already: once each. */
  private readonly swept = new Set<string>();

  /** Removes the empty ".part" files earlier uploads cut short left in `folder` (policy.ts), at the first upload there. */
  private async sweepStaleParts(folder: string): Promise<void> {
    if (this.swept.has(folder)) return;
    this.swept.add(folder);
    try {
      for (const stale of stalePartFiles(await this.list(folder))) await this.delete(stale.path);
    } catch (error) {
      // Best effort: the upload itself says what is wrong with the folder or the connection.
      if (!(error instanceof TransportError)) throw error;
    }
  }

  rename(from: string, to: string): Promise<void> {
    return this.operation("renaming", from, () => this.files.rename(from, to));
  }

  archive(path: string): Promise<string> {
    const files = { ...this.files, list: (folder: string) => this.listNowBounded(folder) };
    return this.operation("archiving", path, () => archiveIntoSubfolder(files, this.archiveFolders, path, () => this.errors.notFound("file", path)));
  }

  makeFolder(path: string): Promise<void> {
    return this.operation("creating", path, () => this.files.makeFolder(path));
  }

  /** A download's bytes, through `transfer` into a sink bounded by maxDownloadBytes (policy.ts). */
  protected receive(path: string, expected: number, transfer: (sink: Writable) => Promise<unknown>): Promise<Buffer> {
    return boundedDownload(this.errors, path, expected, this.maxDownloadBytes, () => this.runner.touch(), transfer);
  }
}
