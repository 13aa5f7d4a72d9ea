// Mechanisms 2 (FTP) and 3 (passive FTP) through basic-ftp, either in clear or as explicit
// FTPS (AUTH TLS, then PROT P for every data connection) when the settings say `tls`.
//
// Mechanism 2 is active FTP: the server opens each data connection to a port we listen on
// (PORT, or EPRT over IPv6), as the spec's "1 SFTP, 2 FTP, 3 Passive FTP" means; basic-ftp
// has no active mode, so ftp-data.ts supplies it. Mechanism 3 forces plain PASV, the data
// connection going to the control connection's host, never to an address the server names
// (basic-ftp's protection against FTP bounce attacks). A server that refuses the data
// connection's mode is reported as such, not as the "Permission denied" many servers answer.
//
// FTPS certificates: one that the system's CAs vouch for, for the host name, is accepted
// and not pinned (it is renewed every few months); any other (self-signed, private CA,
// other name) is pinned on first use as SFTP host keys are, through `hostKey`. A pinned
// fingerprint is always required to match, and each data connection must present the
// control connection's certificate or resume its session.
//
// Every path sent to the server is absolute: CWD is used only to probe folders and to
// list, so nothing depends on where a previous command left the working directory.
import { Client as FtpClient, type FileInfo, FTPError } from "basic-ftp";
import { Writable } from "node:stream";
import type { TLSSocket } from "node:tls";
import { isIP } from "node:net";
import { type Activity, isConnectionLossCode, OperationRunner, TransportError, TransportErrors, unreachableReason, withDeadline } from "./errors";
import { sameFingerprint, sha256Fingerprint } from "./fingerprint";
import { connectAddress } from "./outbound-policy";
import { serverExcerpt } from "./server-text";
import { activeStrategy, DataConnectionRefused, passiveStrategy, sameCertificateAs } from "./ftp-data";
import { baseName, folderChain, joinRemote, normaliseRemotePath, parentOf } from "./paths";
// Listed names are data: every listed entry's path is built by listedEntryPath, through listedFiles (a name that is a path is refused).
import { listedFiles } from "./paths";
import { chunkedContent, type FileOperations } from "./policy";
import { RemoteTransport } from "./remote";
import { type ConnectionSettings, DEFAULT_MAX_DOWNLOAD_BYTES, DEFAULT_TIMEOUT_MS, defaultPort, type VendorTransport } from "./types";
import { DEFAULT_MAX_LISTED_NAMES, DEFAULT_MAX_LISTING_MS, type ListingCut, LISTING_BYTES_PER_NAME, type RemoteListing, remoteListing } from "./types";

/** SITE CHMOD's argument: see UPLOAD_FILE_MODE in sftp.ts. */
const UPLOAD_FILE_MODE = "640";

export async function connectFtp(settings: ConnectionSettings): Promise<VendorTransport> {
  if (settings.mechanism === 1) throw new Error("connectFtp is for mechanisms 2 and 3; use connectSftp for 1");
  const port = settings.port ?? defaultPort(settings.mechanism);
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const errors = new TransportErrors({ scheme: "ftp", host: settings.host, port, label: settings.label }, [settings.password]);

  // basic-ftp's own timeout covers silence on the control and data sockets during a command.
  const client = new FtpClient(timeoutMs);
  client.ftp.verbose = false;
  const tls = settings.tls === true;
  const pinned = settings.hostKey?.trim() || null;
  let stage: ConnectStage = "connecting";
  // (Asserted, not annotated: it is assigned inside the closure below.)
  let certificate = null as { seen: string; pin: string | null } | null;

  let home: string;
  try {
    home = await withDeadline(
      (async () => {
        // The address checked is the address connected to: no second lookup that could answer otherwise (D195).
        await client.connect(await connectAddress(settings, port, errors), port);
        if (tls) {
          stage = "tls";
          // Checked here, by us, before the password is sent: see the header.
          await client.useTLS({ host: settings.host, servername: isIP(settings.host) ? undefined : settings.host, rejectUnauthorized: false });
          certificate = checkCertificate(client.ftp.socket as TLSSocket, pinned, errors, settings.trustOnFirstUse ?? true);
        }
        stage = "login";
        await client.sendIgnoringError("OPTS UTF8 ON");
        await client.login(settings.user, settings.password);
        stage = "settings";
        // TYPE I (binary): bytes arrive as they were sent. With TLS also PBSZ 0 and PROT P,
        // which basic-ftp sends ignoring a refusal: ours must not be ignored (data in clear).
        await client.useDefaultSettings();
        if (tls) {
          stage = "protect";
          await client.send("PROT P");
          stage = "settings";
        }
        return client.pwd();
      })(),
      timeoutMs + 1_000,
      () => errors.connectTimeout(timeoutMs),
    );
  } catch (error) {
    client.close();
    throw classifyConnectError(error, errors, timeoutMs, stage, tls);
  }
  const checkTls = certificate ? sameCertificateAs(certificate.seen) : null;
  client.prepareTransfer = settings.mechanism === 2 ? activeStrategy(checkTls) : passiveStrategy(checkTls);
  return new FtpTransport(
    settings.mechanism,
    client,
    home,
    errors,
    timeoutMs,
    settings.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
    certificate?.pin ?? null,
    { maxNames: settings.maxListedNames ?? DEFAULT_MAX_LISTED_NAMES, maxMs: settings.maxListingMs ?? DEFAULT_MAX_LISTING_MS },
  );
}

type ConnectStage = "connecting" | "tls" | "login" | "settings" | "protect";

/**
 * The server's certificate, checked before we log in. Returns what it was and what to pin:
 * null for a certificate the system's CAs vouch for (not pinned), its fingerprint otherwise.
 */
function checkCertificate(socket: TLSSocket, pinned: string | null, errors: TransportErrors, trustOnFirstUse: boolean): { seen: string; pin: string | null } {
  const raw = socket.getPeerCertificate()?.raw;
  if (!raw) throw errors.protocol("no_certificate", {}, `${errors.url} sent no TLS certificate`);
  const seen = sha256Fingerprint(raw);
  if (pinned) {
    if (!sameFingerprint(pinned, seen)) throw errors.certificateChanged(pinned, seen);
    return { seen, pin: seen };
  }
  if (socket.authorized) return { seen, pin: null };
  if (!trustOnFirstUse) throw errors.notPinned("TLS certificate", seen);
  return { seen, pin: seen };
}

function classifyConnectError(error: unknown, errors: TransportErrors, timeoutMs: number, stage: ConnectStage, tls: boolean): TransportError {
  if (error instanceof TransportError) return error;
  const { code, message } = describe(error);
  if (stage === "tls" && error instanceof FTPError) {
    return errors.protocol(
      "no_ftps",
      { server: serverWords(message) ?? String(error.code) },
      `${errors.url} does not offer FTPS (explicit TLS): AUTH TLS was refused (${serverWords(message) ?? error.code})`,
      error,
    );
  }
  if (stage === "tls" && !(error instanceof FTPError) && !isConnectionLossCode(code) && !/^timeout/i.test(message)) {
    return errors.protocol(
      "tls_handshake",
      { reason: serverExcerpt(message) },
      `The TLS handshake with ${errors.url} failed: ${serverExcerpt(message)}`,
      error,
    );
  }
  if (stage === "protect" && error instanceof FTPError) {
    return errors.protocol(
      "prot_refused",
      { server: serverWords(message) ?? String(error.code) },
      `${errors.url} refused to encrypt data connections (PROT P): ${serverWords(message) ?? error.code}`,
      error,
    );
  }
  if (error instanceof FTPError) {
    // vsftpd's "530 Non-anonymous sessions must use encryption.", and others' like it; and
    // Pure-FTPd's "421 Sorry, cleartext sessions … are not accepted … reconnect using TLS",
    // which closes the connection (a 421 only counts in clear: it is "closing" otherwise).
    const inClear = error.code === 421 && !tls;
    if (stage !== "tls" && (error.code >= 500 || inClear) && ENCRYPTION_REQUIRED_WORDS.test(message)) {
      return errors.ftpsRequired(serverWords(message), error);
    }
    if (error.code === 530 || error.code === 332) return errors.auth(error);
    if (error.code === 421) return errors.connectionLost("connecting", undefined, error);
    return serverWords(message)
      ? errors.protocol("login_refused_saying", { server: serverWords(message) }, `Could not log in to ${errors.url}: ${serverWords(message)}`, error)
      : errors.protocol("login_refused", {}, `Could not log in to ${errors.url}: refused`, error);
  }
  const reason = unreachableReason(code);
  if (reason) return errors.unreachable(reason, error);
  if (/^timeout/i.test(message) || code === "ETIMEDOUT") return errors.connectTimeout(timeoutMs, error);
  if (isConnectionLossCode(code) || LOST_MESSAGES.test(message)) return errors.connectionLost("connecting", undefined, error);
  return errors.protocol("no_ftp_session", {}, `Could not open an FTP session with ${errors.url}`, error);
}

/** "Syntax error, command unrecognized", "Command not implemented", "… for that parameter". */
const UNKNOWN_COMMAND_CODES = new Set([500, 502, 504]);
const LOST_MESSAGES = /server sent FIN|closed connection unexpectedly|client is closed|socket closed|socket hang up|no data connection/i;
const ENCRYPTION_REQUIRED_WORDS = /encrypt|\bTLS\b|\bSSL\b|secure/i;
const PERMISSION_WORDS = /permission|denied|not allowed|access|EACCES|EPERM|read-only/i;
const NOT_FOUND_WORDS = /no such|not found|not exist|doesn't exist|ENOENT|cannot find|can't find/i;
/** "Insufficient storage space" (452), "Exceeded storage allocation" (552). */
const DISK_FULL_CODES = new Set([452, 552]);
const DISK_FULL_WORDS = /no space|disk (is )?full|quota|insufficient (storage|space)|storage allocation|ENOSPC|EDQUOT/i;

function describe(error: unknown): { code: unknown; message: string } {
  if (error && typeof error === "object") {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return { code, message: typeof message === "string" ? message : "" };
  }
  return { code: undefined, message: String(error) };
}

/** "550 Permission denied." → "Permission denied.", as a short clean excerpt: the server may say anything (D197). */
function serverWords(message: string): string | undefined {
  const words = message.replace(/^\d{3}[\s-]*/, "").trim();
  return words ? serverExcerpt(words) : undefined;
}

type Subject = "folder" | "file" | "path";

/** What a failed command was about, to tell "missing" from "forbidden" when the server does not say. */
interface StepContext {
  activity: Activity;
  /** The path named in the message. */
  path: string;
  subject: Subject;
  /** The path whose existence decides between not_found and permission (default: `path`; null: do not probe). */
  probe?: string | null;
}

class FtpTransport extends RemoteTransport implements VendorTransport {
  /** basic-ftp runs one command, and one transfer, at a time on its control connection. */
  readonly inFlight = 1;
  protected readonly runner: OperationRunner;
  private closing = false;
  /** False once the server refused SITE CHMOD as unknown: not asked again on this connection. */
  private chmodSupported = true;

  constructor(
    readonly mechanism: 2 | 3,
    private readonly client: FtpClient,
    /** The login folder: relative paths are taken from here, as SFTP does. */
    private readonly home: string,
    protected readonly errors: TransportErrors,
    private readonly timeoutMs: number,
    protected readonly maxDownloadBytes: number,
    /** FTPS: the fingerprint of a certificate the system's CAs do not vouch for, to pin it. */
    readonly hostKey: string | null,
    private readonly listing: { maxNames: number; maxMs: number } = { maxNames: DEFAULT_MAX_LISTED_NAMES, maxMs: DEFAULT_MAX_LISTING_MS },
  ) {
    super();
    this.runner = new OperationRunner(timeoutMs);
    // Every LIST this connection reads (listings, and the probes of existsNow) stops at this many bytes.
    (client as unknown as { options: { maxListingBytes: number } }).options.maxListingBytes = listing.maxNames * LISTING_BYTES_PER_NAME;
  }

  list(folder: string): Promise<RemoteListing> {
    return this.operation("listing", folder, () => this.listNowBounded(folder));
  }

  /**
   * The folder's listing, bounded (D180): LIST/MLSD text is read up to maxListedNames × 512 bytes
   * (basic-ftp's maxListingBytes, 40 MB by default) and for maxListingMs at most; past either the
   * listing fails with its own message and the connection is closed (an FTP transfer cannot be cut
   * and the connection kept). Within the bytes, the names past maxListedNames are left (`cut`).
   */
  protected async listNowBounded(folder: string): Promise<RemoteListing> {
    const context: StepContext = { activity: "listing", path: folder, subject: "folder" };
    const maxBytes = this.listing.maxNames * LISTING_BYTES_PER_NAME;
    let entries: FileInfo[];
    try {
      entries = await withDeadline(this.listNow(folder, context), this.listing.maxMs, () => {
        this.client.close();
        const seconds = Math.round(this.listing.maxMs / 100) / 10;
        return this.errors.protocol(
          "listing_too_slow",
          { path: folder, seconds },
          `The listing of ${folder} did not end within ${seconds} s; the connection was closed`,
        );
      });
    } catch (error) {
      // basic-ftp stops reading at maxListingBytes and closes the connection; the step saw a lost connection.
      const raw = error instanceof TransportError ? error.cause : error;
      if (!/maximum bytes exceeded/i.test(describe(raw).message)) throw error;
      this.client.close();
      const kilobytes = Math.round(maxBytes / 1024);
      throw this.errors.protocol(
        "listing_too_large",
        { path: folder, kilobytes },
        `The listing of ${folder} is over ${kilobytes} KB; the connection was closed (move files out of the folder)`,
        raw,
      );
    }
    const cut: ListingCut | undefined = entries.length > this.listing.maxNames ? { reason: "names", limit: this.listing.maxNames } : undefined;
    const files = listedFiles(folder, cut ? entries.slice(0, this.listing.maxNames) : entries, (entry) => ({
      size: entry.size,
      // Only MLSD dates are reliable; LIST dates lack a year or a timezone.
      modifiedAt: entry.modifiedAt ?? null,
      type: entry.isFile ? "file" : entry.isDirectory ? "folder" : "other",
    }));
    return remoteListing(files, cut);
  }

  download(path: string, expectedSize?: number): Promise<Buffer> {
    return this.operation("reading", path, async () => {
      const context: StepContext = { activity: "reading", path, subject: "file" };
      const expected = expectedSize ?? (await this.sizeNow(path, context));
      return this.receive(path, expected, (sink) => this.step(context, () => this.client.downloadTo(sink, this.absolute(path))));
    });
  }

  /** FTP's side of the shared upload and archive rules (policy.ts). */
  protected readonly files: FileOperations = {
    exists: (path) => this.existsNow(path),
    write: async (folder, path, content) => {
      const chunks = chunkedContent(content, () => this.runner.touch());
      await this.step({ activity: "writing", path: folder, subject: "folder" }, () => this.client.uploadFrom(chunks, this.absolute(path)));
      await this.restrictMode(path);
    },
    read: async (path) => {
      const chunks: Buffer[] = [];
      const sink = new Writable({
        write: (chunk: Buffer, _encoding, done) => {
          chunks.push(chunk);
          done();
        },
      });
      await this.step({ activity: "reading", path, subject: "file" }, () => this.client.downloadTo(sink, this.absolute(path)));
      return Buffer.concat(chunks);
    },
    size: (path) => this.sizeNow(path, { activity: "writing", path, subject: "file" }),
    remove: async (path) => {
      await this.step({ activity: "writing", path, subject: "file" }, () => this.client.remove(this.absolute(path)));
    },
    removeQuietly: (path) => this.removeQuietly(path),
    rename: (from, to) => this.renameNow(from, to),
    makeFolder: (path) => this.makeFolderNow(path),
  };

  delete(path: string): Promise<void> {
    return this.operation("deleting", path, async () => {
      await this.step({ activity: "deleting", path, subject: "file" }, () => this.client.remove(this.absolute(path)));
    });
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.client.close(); // sends QUIT and closes both sockets, without waiting for an answer
  }

  // The steps below run inside an operation: serialised, timed, classified.

  private absolute(path: string): string {
    return path.startsWith("/") ? normaliseRemotePath(path) : joinRemote(this.home, path);
  }

  private async listNow(folder: string, context: StepContext): Promise<FileInfo[]> {
    // CWD first: some servers answer LIST of a missing folder with an empty listing.
    await this.step(context, () => this.client.cd(this.absolute(folder)));
    return this.step(context, () => this.client.list());
  }

  private async existsNow(path: string): Promise<false | "file" | "folder"> {
    const absolute = this.absolute(path);
    if (absolute === "/") return "folder";
    const context: StepContext = { activity: "reading", path, subject: "path" };
    if (await this.answersPositively(context, () => this.client.cd(absolute))) return "folder";
    // Not a folder we may enter: look for it in its parent's listing.
    if (!(await this.answersPositively(context, () => this.client.cd(parentOf(absolute))))) return false;
    // No probe on failure: probing is this very method.
    const entries = await this.step({ ...context, probe: null }, () => this.client.list());
    const entry = entries.find((candidate) => candidate.name === baseName(absolute));
    if (!entry) return false;
    return entry.isDirectory ? "folder" : "file";
  }

  /** Runs a command; false if the server refused it (an FTP error reply), throws on anything else. */
  private async answersPositively(context: StepContext, command: () => Promise<unknown>): Promise<boolean> {
    try {
      await command();
      this.runner.touch();
      return true;
    } catch (error) {
      if (error instanceof FTPError && error.code >= 400 && error.code !== 421) return false;
      throw await this.classify(error, context);
    }
  }

  private async sizeNow(path: string, context: StepContext): Promise<number> {
    try {
      const size = await this.client.size(this.absolute(path));
      this.runner.touch();
      return size;
    } catch (error) {
      // SIZE is an extension (RFC 3659): when the server lacks it, or answers what cannot be
      // read (ftp-srv says "213 File status" for an empty file), ask the listing instead.
      const refused = error instanceof FTPError && !UNKNOWN_COMMAND_CODES.has(error.code);
      if (refused || this.client.closed) throw await this.classify(error, context);
      const entries = await this.listNow(parentOf(path), { ...context, path: parentOf(path), subject: "folder" });
      const entry = entries.find((candidate) => candidate.name === baseName(path));
      if (!entry) throw this.errors.notFound("file", path);
      return entry.size;
    }
  }

  private async renameNow(from: string, to: string): Promise<void> {
    try {
      await this.step({ activity: "renaming", path: from, subject: "file" }, () => this.client.rename(this.absolute(from), this.absolute(to)));
    } catch (error) {
      // A refused RNTO may mean the target's folder is missing: say which.
      if (error instanceof TransportError && error.kind === "not_found" && (await this.existsNow(from))) {
        throw this.errors.notFound("folder", parentOf(to));
      }
      throw error;
    }
  }

  private async makeFolderNow(path: string): Promise<void> {
    for (const folder of folderChain(this.absolute(path))) {
      const type = await this.existsNow(folder);
      if (type === "folder") continue;
      if (type === "file") throw this.errors.fileInTheWay(folder);
      await this.step({ activity: "creating", path: folder, subject: "folder", probe: parentOf(folder) }, () => this.client.send(`MKD ${folder}`));
    }
  }

  /**
   * Our files hold customers' names and addresses: 0640, not the 0644 or 0666 FTP servers
   * create files with, where the server takes SITE CHMOD (vsftpd, ProFTPD, Pure-FTPd and
   * others do). A refusal is not an error: the file is there and the server decides.
   * Sent on the temporary name, before the rename publishes it.
   */
  private async restrictMode(path: string): Promise<void> {
    if (!this.chmodSupported) return;
    const response = await this.step({ activity: "writing", path, subject: "file", probe: null }, () =>
      this.client.sendIgnoringError(`SITE CHMOD ${UPLOAD_FILE_MODE} ${this.absolute(path)}`),
    );
    if (UNKNOWN_COMMAND_CODES.has(response.code)) this.chmodSupported = false;
  }

  private async removeQuietly(path: string): Promise<void> {
    if (this.client.closed || this.closing) return;
    try {
      await this.client.remove(this.absolute(path), true);
    } catch {
      // Best effort: a leftover ".part" file is hidden and never mistaken for a finished one.
    }
  }

  protected operation<T>(activity: Activity, path: string, work: () => Promise<T>): Promise<T> {
    return this.runner.run(
      async () => {
        if (this.closing) throw this.errors.closed();
        if (this.client.closed) throw this.errors.connectionLost();
        try {
          return await work();
        } catch (error) {
          throw await this.classify(error, { activity, path, subject: "path" });
        }
      },
      () => {
        // A hung server: give up on this connection so nothing waits on it any longer.
        this.client.close();
        return this.errors.operationTimeout(this.timeoutMs, activity, path);
      },
    );
  }

  private async step<T>(context: StepContext, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      this.runner.touch();
      return result;
    } catch (error) {
      throw await this.classify(error, context);
    }
  }

  private async classify(error: unknown, context: StepContext): Promise<TransportError> {
    if (error instanceof TransportError) return error;
    const { activity, path, subject } = context;
    const { code, message } = describe(error);
    if (error instanceof DataConnectionRefused) return this.errors.dataModeRefused(error.mode, activity, path, `${error.command}: ${error.serverText}`, error);
    if (error instanceof FTPError) {
      // A full disk or quota: 452 and 552 by RFC 959, or other codes saying so (pyftpdlib: "551 … No space left on device").
      if (
        error.code >= 400 &&
        (DISK_FULL_WORDS.test(message) || (DISK_FULL_CODES.has(error.code) && !PERMISSION_WORDS.test(message) && !NOT_FOUND_WORDS.test(message)))
      ) {
        return this.errors.diskFull(activity, path, serverWords(message), error);
      }
      if (error.code === 421) return this.errors.connectionLost(activity, path, error);
      // "Can't open data connection": in active mode, the server could not reach our port.
      if (error.code === 425 && this.mechanism === 2) return this.errors.dataConnectionFailed("active", activity, path, serverWords(message), error);
      // 45x: transient refusals; 55x: permanent ones. Both cover "missing" and "forbidden".
      if (error.code >= 450 && error.code < 560) {
        if (PERMISSION_WORDS.test(message)) return this.errors.permission(activity, path, error);
        if (NOT_FOUND_WORDS.test(message)) return this.errors.notFound(subject, path, error);
        const probe = context.probe === undefined ? path : context.probe;
        if (probe !== null) {
          const found = await this.existsQuietly(probe);
          if (found === false) return this.errors.notFound(subject, probe, error);
          if (found === "folder" && subject === "file" && probe === path) return this.errors.notAFile(path);
          if (found === "file" && subject === "folder" && probe === path) return this.errors.notAFolder(path);
          if (found) return this.errors.permission(activity, path, error);
        }
      }
      return this.errors.refused(activity, path, serverWords(message), error);
    }
    if (/^timeout/i.test(message)) return this.errors.operationTimeout(this.timeoutMs, activity, path, error);
    if (this.client.closed || isConnectionLossCode(code) || LOST_MESSAGES.test(message)) return this.errors.connectionLost(activity, path, error);
    return this.errors.refused(activity, path, message ? serverExcerpt(message) : undefined, error);
  }

  /** Whether a path exists, or null when even that cannot be told. */
  private async existsQuietly(path: string): Promise<false | "file" | "folder" | null> {
    if (this.client.closed) return null;
    try {
      return await this.existsNow(path);
    } catch {
      return null;
    }
  }
}
