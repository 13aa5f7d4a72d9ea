// Mechanism 1: SFTP through ssh2-sftp-client, with the server's host key checked
// against the pinned fingerprint before any password is sent.
import type { EventEmitter } from "node:events";
import type { Writable } from "node:stream";
import type { FileEntry, SFTPWrapper, Client as SshClient } from "ssh2";
import SftpClient from "ssh2-sftp-client";
import { type Activity, isConnectionLossCode, OperationRunner, TransportError, TransportErrors, unreachableReason, withDeadline } from "./errors";
import { sameFingerprint, sha256Fingerprint } from "./fingerprint";
import { connectAddress } from "./outbound-policy";
import { serverExcerpt } from "./server-text";
import { folderChain, parentOf } from "./paths";
// Listed names are data: every listed entry's path is built by listedEntryPath, through listedFiles (a name that is a path is refused).
import { listedFiles } from "./paths";
import { chunkedContent, type FileOperations } from "./policy";
import { RemoteTransport } from "./remote";
import {
  type ConnectionSettings,
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_LISTED_NAMES,
  DEFAULT_MAX_LISTING_MS,
  DEFAULT_TIMEOUT_MS,
  defaultPort,
  type ListingCut,
  type RemoteFile,
  type RemoteListing,
  remoteListing,
  SFTP_IN_FLIGHT,
  type VendorTransport,
} from "./types";

/** OpenSSH's fingerprint of a raw public key blob: "SHA256:" + unpadded base64 of its SHA-256. */
export function sshFingerprint(rawPublicKey: Buffer): string {
  return sha256Fingerprint(rawPublicKey);
}

// SFTP status codes (draft-ietf-secsh-filexfer-02), as ssh2 reports them in `code`.
const SFTP_NO_SUCH_FILE = 2;
const SFTP_PERMISSION_DENIED = 3;
const SFTP_NO_CONNECTION = 6;
const SFTP_CONNECTION_LOST = 7;

const CLOSE_TIMEOUT_MS = 5_000;
/** Uploaded files are readable by the owner's group at most, never by every account on the server. */
export const UPLOAD_FILE_MODE = 0o640;

/**
 * Reads of a download in flight at once, 32 KB each (D222): ssh2's read stream (under the
 * library's `get`) asks for the next block only once the last has arrived, so a download ran at
 * one block per round trip (about 250 KB/s against the loopback server).
 */
const DOWNLOAD_READS_IN_FLIGHT = 32;
const DOWNLOAD_READ_BYTES = 32 * 1024;

/**
 * Reads `path` to its end into `sink`, several reads in flight, handed to the sink in order (which
 * bounds the size and touches the runner as bytes arrive). A short read asks again for the rest;
 * an empty one is the end of the file.
 */
async function pipelinedRead(sftp: SFTPWrapper, connection: EventEmitter, path: string, sink: Writable): Promise<void> {
  // The connection's end fails the download at once (ssh2 does not answer the reads still pending then).
  let stop = () => {};
  const ended = new Promise<never>((_, reject) => {
    const fail = (error?: unknown) => reject(error instanceof Error ? error : new Error("Unexpected close event"));
    for (const event of ["close", "end", "error"]) connection.once(event, fail);
    stop = () => {
      for (const event of ["close", "end", "error"]) connection.removeListener(event, fail);
    };
  });
  ended.catch(() => {});
  const untilEnded = <T>(work: Promise<T>) => Promise.race([work, ended]);
  try {
    const handle = await untilEnded(
      new Promise<Buffer>((resolve, reject) => sftp.open(path, "r", (error, opened) => (error ? reject(error) : resolve(opened)))),
    );
    await readInOrder(sftp, handle, sink, untilEnded);
  } finally {
    stop();
  }
  await new Promise<void>((resolve) => sink.end(resolve));
}

async function readInOrder(sftp: SFTPWrapper, handle: Buffer, sink: Writable, untilEnded: <T>(work: Promise<T>) => Promise<T>): Promise<void> {
  const read = (position: number, length: number) => {
    const bytes = new Promise<Buffer>((resolve, reject) =>
      sftp.read(handle, Buffer.allocUnsafe(length), 0, length, position, (error, count, data) => (error ? reject(error) : resolve(data.subarray(0, count)))),
    );
    // A lost connection fails every read at once: the first is thrown, the others are not unhandled.
    bytes.catch(() => {});
    return { position, length, bytes };
  };
  // The sink's refusal (too large) comes back through write's callback.
  sink.on("error", () => {});
  const inFlight: Array<ReturnType<typeof read>> = [];
  let next = 0;
  try {
    for (;;) {
      while (inFlight.length < DOWNLOAD_READS_IN_FLIGHT) {
        inFlight.push(read(next, DOWNLOAD_READ_BYTES));
        next += DOWNLOAD_READ_BYTES;
      }
      const head = inFlight.shift()!;
      const bytes = await untilEnded(head.bytes);
      if (bytes.length === 0) break;
      await new Promise<void>((resolve, reject) => sink.write(bytes, (error) => (error ? reject(error) : resolve())));
      if (bytes.length < head.length) inFlight.unshift(read(head.position + bytes.length, head.length - bytes.length));
    }
  } finally {
    // Reads past the end answer empty; none is left pending on the handle we close.
    await untilEnded(Promise.allSettled(inFlight.map((each) => each.bytes))).catch(() => {});
    await untilEnded(new Promise<void>((resolve) => sftp.close(handle, () => resolve()))).catch(() => {});
  }
}

export async function connectSftp(settings: ConnectionSettings): Promise<VendorTransport> {
  const port = settings.port ?? defaultPort(1);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const errors = new TransportErrors({ scheme: "sftp", host: settings.host, port, label: settings.label }, [settings.password]);
  const pinned = settings.hostKey?.trim() || null;
  let seenKey: string | null = null;
  let keyRefused = false;
  let keyNotPinned = false;
  const trustOnFirstUse = settings.trustOnFirstUse ?? true;
  let lastRawError: unknown;

  // The library's default event callbacks write to the console; ours stay silent.
  const client = new SftpClient(`sftp ${settings.host}`, { error: () => {}, end: () => {}, close: () => {} });
  const raw = rawClientOf(client);
  client.on("error", (error: unknown) => {
    lastRawError = error;
  });
  // Some servers take the password only through keyboard-interactive prompts.
  client.on("keyboard-interactive", (_name: string, _instructions: string, _language: string, prompts: unknown[], finish: (answers: string[]) => void) => {
    finish(prompts.map(() => settings.password));
  });

  try {
    // The address checked is the address connected to: no second lookup that could answer otherwise (D195).
    const address = await connectAddress(settings, port, errors);
    await withDeadline(
      client.connect({
        host: address,
        port,
        username: settings.user,
        password: settings.password,
        tryKeyboard: true,
        readyTimeout: timeoutMs,
        // Runs before authentication: a changed key never receives the password.
        hostVerifier: (key: Buffer) => {
          seenKey = sshFingerprint(key);
          if (pinned && !sameFingerprint(pinned, seenKey)) {
            keyRefused = true;
            return false;
          }
          if (!pinned && !trustOnFirstUse) {
            keyNotPinned = true;
            return false;
          }
          return true;
        },
        keepaliveInterval: 10_000,
        keepaliveCountMax: 3,
      }),
      // A backstop: ssh2's readyTimeout should fire first.
      timeoutMs + 1_000,
      () => errors.connectTimeout(timeoutMs),
    );
  } catch (error) {
    raw.destroy();
    if (keyRefused && pinned && seenKey) throw errors.hostKeyChanged(pinned, seenKey);
    if (keyNotPinned && seenKey) throw errors.notPinned("host key", seenKey);
    throw classifyConnectError(error, lastRawError, errors, timeoutMs);
  }
  return new SftpTransport(client, raw, seenKey, errors, timeoutMs, settings.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES, {
    maxNames: settings.maxListedNames ?? DEFAULT_MAX_LISTED_NAMES,
    maxMs: settings.maxListingMs ?? DEFAULT_MAX_LISTING_MS,
  });
}

function rawClientOf(client: SftpClient): SshClient {
  return (client as unknown as { client: SshClient }).client;
}

function classifyConnectError(error: unknown, rawError: unknown, errors: TransportErrors, timeoutMs: number): TransportError {
  if (error instanceof TransportError) return error;
  const cause = rawError ?? error;
  const { code, level, message } = describe(cause);
  const reason = unreachableReason(code) ?? unreachableReason(describe(error).code);
  if (reason) return errors.unreachable(reason, cause);
  if (level === "client-authentication" || /authentication methods failed/i.test(message)) return errors.auth(cause);
  if (level === "client-timeout" || /timed out/i.test(message) || code === "ETIMEDOUT") return errors.connectTimeout(timeoutMs, cause);
  if (isConnectionLossCode(code) || /connection lost|unexpected (end|close)|socket hang up|closed/i.test(message))
    return errors.connectionLost("connecting", undefined, cause);
  return errors.protocol("no_sftp_session", {}, `Could not open an SFTP session with ${errors.url}`, cause);
}

function describe(error: unknown): { code: unknown; level: unknown; message: string } {
  if (error && typeof error === "object") {
    const { code, level, message } = error as { code?: unknown; level?: unknown; message?: unknown };
    return { code, level, message: typeof message === "string" ? message : "" };
  }
  return { code: undefined, level: undefined, message: String(error) };
}

type Subject = "folder" | "file" | "path";

class SftpTransport extends RemoteTransport implements VendorTransport {
  readonly mechanism = 1 as const;
  readonly inFlight = SFTP_IN_FLIGHT;
  protected readonly runner: OperationRunner;
  private closing = false;
  private lost = false;

  constructor(
    private readonly client: SftpClient,
    private readonly raw: SshClient,
    readonly hostKey: string | null,
    protected readonly errors: TransportErrors,
    private readonly timeoutMs: number,
    protected readonly maxDownloadBytes: number,
    private readonly listing: { maxNames: number; maxMs: number },
  ) {
    super();
    this.runner = new OperationRunner(timeoutMs, this.inFlight);
    // Each operation in flight listens for the connection's end, close and error while it runs (ssh2-sftp-client).
    raw.setMaxListeners(Math.max(raw.getMaxListeners(), 3 * this.inFlight + 10));
    client.on("close", () => {
      if (!this.closing) this.lost = true;
    });
  }

  list(folder: string): Promise<RemoteListing> {
    return this.operation("listing", folder, () => this.listNowBounded(folder));
  }

  /**
   * The folder read a READDIR at a time (a server answers some hundred names each), stopping at
   * maxListedNames or after maxListingMs: a folder of a million names, or a server that never
   * says the end, costs a bounded memory and time (D180). ssh2-sftp-client's list() reads to the end.
   */
  protected async listNowBounded(folder: string): Promise<RemoteListing> {
    const sftp = this.sftpSession();
    const handle = await this.step("listing", folder, "folder", () => callback<Buffer>((done) => sftp.opendir(folder, done)));
    const entries: SftpDirectoryEntry[] = [];
    const started = Date.now();
    let cut: ListingCut | undefined;
    try {
      for (;;) {
        const chunk = await this.step("listing", folder, "folder", () => readDirectoryChunk(sftp, handle));
        if (chunk === null) break;
        entries.push(...chunk);
        if (entries.length >= this.listing.maxNames) {
          if (entries.length > this.listing.maxNames || (await this.step("listing", folder, "folder", () => readDirectoryChunk(sftp, handle))) !== null)
            cut = { reason: "names", limit: this.listing.maxNames };
          entries.length = Math.min(entries.length, this.listing.maxNames);
          break;
        }
        if (Date.now() - started >= this.listing.maxMs) {
          cut = { reason: "time", limit: this.listing.maxMs };
          break;
        }
      }
    } finally {
      await callback<void>((done) => sftp.close(handle, done)).catch(() => undefined);
    }
    const named = entries.map((entry) => ({ ...entry, name: entry.filename }));
    const files = listedFiles(folder, named, (entry) => ({
      size: entry.attrs.size ?? 0,
      modifiedAt: entry.attrs.mtime ? new Date(entry.attrs.mtime * 1000) : null,
      type: entryType(entry),
    }));
    return remoteListing(files, cut);
  }

  private sftpSession(): SFTPWrapper {
    const sftp = (this.client as unknown as { sftp?: SFTPWrapper }).sftp;
    if (!sftp) throw this.errors.connectionLost();
    return sftp;
  }

  download(path: string, expectedSize?: number): Promise<Buffer> {
    return this.operation("reading", path, async () => {
      const stats = await this.step("reading", path, "file", () => this.client.stat(path));
      if (stats.isDirectory) throw this.errors.notAFile(path);
      const expected = expectedSize ?? stats.size;
      return this.receive(path, expected, (sink) => this.step("reading", path, "file", () => pipelinedRead(this.sftpSession(), this.raw, path, sink)));
    });
  }

  /** SFTP's side of the shared upload and archive rules (policy.ts). */
  protected readonly files: FileOperations = {
    exists: (path) => this.existsNow(path),
    write: async (folder, path, content) => {
      // Created 0640 (owner and group only): our files hold customers' names and addresses.
      // The server's umask may take more away, never add; the rename keeps the mode.
      const chunks = chunkedContent(content, () => this.runner.touch());
      await this.step("writing", folder, "folder", () => this.client.put(chunks, path, { writeStreamOptions: { mode: UPLOAD_FILE_MODE } }));
    },
    read: async (path) => (await this.step("reading", path, "file", () => this.client.get(path))) as Buffer,
    size: async (path) => (await this.step("writing", path, "file", () => this.client.stat(path))).size,
    remove: async (path) => {
      await this.step("writing", path, "file", () => this.client.delete(path));
    },
    removeQuietly: (path) => this.removeQuietly(path),
    rename: (from, to) => this.renameNow(from, to),
    makeFolder: (path) => this.makeFolderNow(path),
  };

  delete(path: string): Promise<void> {
    return this.operation("deleting", path, async () => {
      await this.step("deleting", path, "file", () => this.client.delete(path));
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await withDeadline(this.client.end(), Math.min(this.timeoutMs, CLOSE_TIMEOUT_MS), () => new Error("end timed out"));
    } catch {
      // A dead or hung connection cannot say goodbye; the socket is dropped below.
    } finally {
      this.raw.destroy();
    }
  }

  // The steps below run inside an operation: serialised, timed, classified.

  private async existsNow(path: string): Promise<false | "file" | "folder"> {
    const type = await this.step("reading", path, "path", () => this.client.exists(path));
    if (type === false) return false;
    if (type === "d") return "folder";
    if (type === "l") {
      const target = await this.step("reading", path, "path", () => this.client.stat(path)).catch(() => null);
      return target?.isDirectory ? "folder" : "file";
    }
    return "file";
  }

  private async renameNow(from: string, to: string): Promise<void> {
    try {
      await this.step("renaming", from, "file", () => this.client.rename(from, to));
    } catch (error) {
      // "does not exist" may mean the source or the target's folder: say which.
      if (error instanceof TransportError && error.kind === "not_found" && (await this.existsNow(from))) {
        throw this.errors.notFound("folder", parentOf(to));
      }
      throw error;
    }
  }

  private async makeFolderNow(path: string): Promise<void> {
    for (const folder of folderChain(path)) {
      const type = await this.existsNow(folder);
      if (type === "folder") continue;
      if (type === "file") throw this.errors.fileInTheWay(folder);
      try {
        await this.step("creating", folder, "folder", () => this.client.mkdir(folder, false));
      } catch (error) {
        // Another operation in flight (or another run) made it meanwhile: that is what was wanted.
        if (!(error instanceof TransportError) || error.isConnectionFault || (await this.existsNow(folder)) !== "folder") throw error;
      }
    }
  }

  private async removeQuietly(path: string): Promise<void> {
    if (this.lost || this.closing) return;
    try {
      await this.client.delete(path, true);
    } catch {
      // Best effort: a leftover ".part" file is hidden and never mistaken for a finished one.
    }
  }

  protected operation<T>(activity: Activity, path: string, work: () => Promise<T>): Promise<T> {
    return this.runner.run(
      async () => {
        if (this.closing) throw this.errors.closed();
        if (this.lost) throw this.errors.connectionLost();
        try {
          return await work();
        } catch (error) {
          throw this.classify(error, activity, path, "path");
        }
      },
      () => {
        // A hung server: give up on this connection so nothing waits on it any longer.
        this.lost = true;
        this.raw.destroy();
        return this.errors.operationTimeout(this.timeoutMs, activity, path);
      },
    );
  }

  private async step<T>(activity: Activity, path: string, subject: Subject, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.runner.touch();
      return result;
    } catch (error) {
      throw this.classify(error, activity, path, subject);
    }
  }

  private classify(error: unknown, activity: Activity, path: string, subject: Subject): TransportError {
    if (error instanceof TransportError) return error;
    const { code, message } = describe(error);
    if (this.lost) return this.errors.connectionLost(activity, path, error);
    if (code === SFTP_NO_SUCH_FILE || code === "ENOENT") return this.errors.notFound(subject, path, error);
    if (code === SFTP_PERMISSION_DENIED || code === "EACCES") return this.errors.permission(activity, path, error);
    if (code === SFTP_NO_CONNECTION || code === SFTP_CONNECTION_LOST || code === "ERR_NOT_CONNECTED" || isConnectionLossCode(code)) {
      this.lost = true;
      return this.errors.connectionLost(activity, path, error);
    }
    if (/unexpected (end|close) event|no response from server|no sftp connection|not connected/i.test(message)) {
      this.lost = true;
      return this.errors.connectionLost(activity, path, error);
    }
    if (/permission denied/i.test(message)) return this.errors.permission(activity, path, error);
    if (/no such file/i.test(message)) return this.errors.notFound(subject, path, error);
    return this.errors.refused(activity, path, serverWords(message), error);
  }
}

type SftpDirectoryEntry = FileEntry;

/** SFTP's end-of-file status: the directory has no more names. */
const SFTP_EOF = 1;

/** One READDIR of an open directory: its names ("." and ".." left out by ssh2), or null at the end. */
function readDirectoryChunk(sftp: SFTPWrapper, handle: Buffer): Promise<SftpDirectoryEntry[] | null> {
  return new Promise((resolve, reject) => {
    sftp.readdir(handle, (error, list) => {
      if (error) return (error as { code?: unknown }).code === SFTP_EOF ? resolve(null) : reject(error);
      resolve(list);
    });
  });
}

/** A file, folder or other, from the mode bits (the long name's first letter when there are none). */
function entryType(entry: SftpDirectoryEntry): RemoteFile["type"] {
  const format = (entry.attrs.mode ?? 0) & 0o170000;
  if (format === 0o100000) return "file";
  if (format === 0o040000) return "folder";
  if (format !== 0) return "other";
  const first = entry.longname?.charAt(0);
  return first === "-" ? "file" : first === "d" ? "folder" : "other";
}

function callback<T>(start: (done: (error: Error | null | undefined, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error ? reject(error) : resolve(value))));
}

/** The server's part of a library message: "_rename: Failure From: /a To: /b" → "Failure". */
function serverWords(message: string): string | undefined {
  const words = message
    .replace(/^[\w->]*:\s*/, "")
    .split(/\s+(From|Local|Remote):/)[0]
    ?.trim();
  return words ? serverExcerpt(words) : undefined;
}
