// How a transfer fails: one error type with a kind the caller can act on and a
// message for people. Library errors (ssh2, basic-ftp) never travel as they are:
// some carry their connection config, so every message here is written fresh and
// the original survives only as a sanitised, non-enumerable `cause`.
// Besides its English `message` (logs), each error carries a message code with
// parameters (`transport.errors.*`), which the app renders in the reader's
// language (D117); edi/ knows no i18n library.
import { coded, type CodedMessage } from "../messages";
import { redactAround, serverExcerpt } from "./server-text";

export type TransportErrorKind =
  "auth" | "unreachable" | "timeout" | "not_found" | "permission" | "host_key_changed" | "incomplete" | "connection_lost" | "too_large" | "protocol";

/** Faults of the connection itself: a new attempt may well succeed. */
const CONNECTION_FAULTS: ReadonlySet<TransportErrorKind> = new Set(["unreachable", "timeout", "connection_lost"]);

export interface TransportErrorOptions {
  cause?: unknown;
  secrets?: readonly string[];
  /** Values staff typed (host, paths…): shown as they are, a secret inside them too, so redaction tells no guess (D198). */
  known?: readonly string[];
  /** The message as a code (under `transport.errors.`) and its parameters; without one, the English message is shown as it is. */
  code?: string;
  params?: Record<string, unknown>;
  /** Whose server it is ("AS400", a vendor's name): shown before the message. */
  label?: string;
}

export class TransportError extends Error {
  readonly kind: TransportErrorKind;
  /** An i18n key such as `transport.errors.unreachable`, or null for an error made without one. */
  readonly code: string | null;
  readonly params: Record<string, unknown>;
  readonly label: string | null;

  constructor(kind: TransportErrorKind, message: string, options: TransportErrorOptions = {}) {
    const secrets = options.secrets ?? [];
    const known = options.known ?? [];
    super(redact(message, secrets, known));
    this.name = "TransportError";
    this.kind = kind;
    this.code = options.code ?? null;
    this.params = redactParams(options.params ?? {}, secrets, known);
    this.label = options.label ?? null;
    if (options.cause !== undefined) {
      Object.defineProperty(this, "cause", { value: sanitiseCause(options.cause, secrets, known), enumerable: false, configurable: true });
    }
  }

  /** True for faults worth reconnecting for (unreachable, timeout, connection lost). */
  get isConnectionFault(): boolean {
    return CONNECTION_FAULTS.has(this.kind);
  }

  /** The message for people as a code with parameters (the label first, when there is one), or the English text. */
  get coded(): CodedMessage {
    const inner: CodedMessage = this.code ? { code: this.code, params: this.params } : { text: this.message };
    return this.label ? { code: "transport.labelled", params: { label: this.label, message: inner } } : inner;
  }

  /** Feed logs store errors as JSON: keep the message, which Error's own serialisation drops. */
  toJSON() {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}

/** Parameters with every secret redacted, nested messages included. */
function redactParams(params: Record<string, unknown>, secrets: readonly string[], known: readonly string[]): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return redact(value, secrets, known);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    return value;
  };
  return walk(params) as Record<string, unknown>;
}

/** A user-given path that would leave its folder, or is not a path at all. */
export class PathError extends Error {
  readonly path: string;
  /** The reason as a code (under `transport.path.`) with its parameters, when the caller gave one. */
  readonly reason: CodedMessage | null;

  constructor(path: string, reason: string, coded?: { code: string; params?: Record<string, unknown> }) {
    super(`The path ${JSON.stringify(path)} is not allowed: ${reason}`);
    this.name = "PathError";
    this.path = path;
    this.reason = coded ? { code: `transport.path.${coded.code}`, params: coded.params ?? {} } : null;
  }

  get coded(): CodedMessage {
    return this.reason ? { code: "transport.path.not_allowed", params: { path: JSON.stringify(this.path), reason: this.reason } } : { text: this.message };
  }

  toJSON() {
    return { name: this.name, message: this.message, path: this.path };
  }
}

export function isTransportError(error: unknown, kind?: TransportErrorKind): error is TransportError {
  return error instanceof TransportError && (kind === undefined || error.kind === kind);
}

/** Replaces every secret (and its URL-encoded form) in a text, except inside the `known` values (server-text.ts). */
export function redact(text: string, secrets: readonly string[], known: readonly string[] = []): string {
  return redactAround(text, secrets, known);
}

/**
 * A copy of a library error that keeps what helps debugging (name, message, code,
 * level, stack frames) with secrets redacted, and drops everything else, such as
 * the connection config some errors carry.
 */
function sanitiseCause(cause: unknown, secrets: readonly string[], known: readonly string[]): Error {
  if (!(cause instanceof Error)) return new Error(redact(String(cause), secrets, known));
  const copy = new Error(redact(cause.message, secrets, known));
  copy.name = redact(cause.name, secrets, known);
  const { code, level } = cause as { code?: unknown; level?: unknown };
  if (typeof code === "string" || typeof code === "number") Object.defineProperty(copy, "code", { value: code, enumerable: true });
  if (typeof level === "string") Object.defineProperty(copy, "level", { value: level, enumerable: true });
  const frames = (cause.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  copy.stack = [`${copy.name}: ${copy.message}`, ...frames.map((line) => redact(line, secrets, known))].join("\n");
  return copy;
}

/** Where a transport connects, for messages: "sftp://edi.acme.example:22". */
export interface Endpoint {
  scheme: "sftp" | "ftp";
  host: string;
  port: number;
  label?: string;
}

/** What an operation was doing, for messages: "Permission denied writing /inbound on …". */
export type Activity = "listing" | "reading" | "writing" | "renaming" | "deleting" | "creating" | "archiving";

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Parameters that hold what staff typed (or what follows from it), shown as they are (D198). */
const KNOWN_PARAMS = ["host", "path", "folder", "address", "url"] as const;

/** Every message a transport can fail with, in one place, bound to one endpoint. */
export class TransportErrors {
  constructor(
    private readonly endpoint: Endpoint,
    private readonly secrets: readonly string[],
  ) {}

  /** `code` is the key under `transport.errors.`; `message` the same in English, for logs. */
  private make(kind: TransportErrorKind, code: string, params: Record<string, unknown>, message: string, cause?: unknown): TransportError {
    const prefix = this.endpoint.label ? `${this.endpoint.label}: ` : "";
    const known = [this.endpoint.host, this.endpoint.label ?? "", ...KNOWN_PARAMS.map((key) => params[key]).filter((value) => typeof value === "string")];
    return new TransportError(kind, prefix + message, {
      cause,
      secrets: this.secrets,
      known,
      code: `transport.errors.${code}`,
      params,
      label: this.endpoint.label,
    });
  }

  get url(): string {
    return `${this.endpoint.scheme}://${this.endpoint.host}:${this.endpoint.port}`;
  }

  private get address(): string {
    return `${this.endpoint.host}:${this.endpoint.port}`;
  }

  private get host(): string {
    return this.endpoint.host;
  }

  auth(cause?: unknown) {
    return this.make("auth", "auth", { url: this.url }, `Wrong user name or password for ${this.url}`, cause);
  }

  unreachable(reason: string, cause?: unknown) {
    const reasonCode = UNREACHABLE_REASON_CODES[reason];
    const reasonParam = reasonCode ? coded(`transport.reasons.${reasonCode}`) : reason;
    return this.make("unreachable", "unreachable", { address: this.address, reason: reasonParam }, `${this.address} is unreachable (${reason})`, cause);
  }

  connectTimeout(ms: number, cause?: unknown) {
    return this.make(
      "timeout",
      "connect_timeout",
      { address: this.address, duration: durationMessage(ms) },
      `${this.address} did not answer within ${formatDuration(ms)} (connecting)`,
      cause,
    );
  }

  operationTimeout(ms: number, activity: Activity, path: string, cause?: unknown) {
    return this.make(
      "timeout",
      "operation_timeout",
      { host: this.host, duration: durationMessage(ms), activity: activityMessage(activity), path },
      `${this.endpoint.host} did not answer within ${formatDuration(ms)} while ${activity} ${path}; the connection was closed`,
      cause,
    );
  }

  hostKeyChanged(expected: string, got: string) {
    return this.make(
      "host_key_changed",
      "host_key_changed",
      { host: this.host, expected, got },
      `The host key of ${this.endpoint.host} changed: expected ${expected}, got ` +
        `${got}; refusing to connect (if the vendor changed its key, clear the pinned key)`,
    );
  }

  notFound(what: "folder" | "file" | "path", path: string, cause?: unknown) {
    const noun = what === "folder" ? "Folder " : what === "file" ? "File " : "";
    return this.make("not_found", `not_found_${what}`, { path, host: this.host }, `${noun}${path} does not exist on ${this.endpoint.host}`, cause);
  }

  permission(activity: Activity, path: string, cause?: unknown) {
    return this.make(
      "permission",
      "permission",
      { activity: activityMessage(activity), path, host: this.host },
      `Permission denied ${activity} ${path} on ${this.endpoint.host}`,
      cause,
    );
  }

  /**
   * The vendor's disk or quota is full (FTP 452/552, or words like "No space left on device"):
   * said as such, not as the "Permission denied" a later probe of the folder would suggest.
   */
  diskFull(activity: Activity, path: string, serverText: string | undefined, cause?: unknown) {
    const detail = serverText ? ` (${serverText.slice(0, 200)})` : "";
    return this.make(
      "protocol",
      "disk_full",
      { host: this.host, activity: activityMessage(activity), path, server: serverWordsMessage(serverText) },
      `The server ${this.endpoint.host} has no space left (disk full or quota reached) while ${activity} ${path}; ask the vendor to free space${detail}`,
      cause,
    );
  }

  /**
   * The server takes no login in clear: vsftpd's "530 Non-anonymous sessions must use
   * encryption", Pure-FTPd's "421 … Please reconnect using TLS" (which closes the connection,
   * and read as "connection lost" before).
   */
  ftpsRequired(serverText: string | undefined, cause?: unknown) {
    const server = serverText?.slice(0, 200) ?? "";
    return this.make(
      "protocol",
      "ftps_required",
      { url: this.url, server },
      `${this.url} accepts only FTPS (explicit TLS): turn TLS on for this connection (${server})`,
      cause,
    );
  }

  incompleteDownload(path: string, got: number, expected: number) {
    const host = this.endpoint.host;
    const params = { path, host, got, expected };
    if (got > expected)
      return this.make(
        "incomplete",
        "download_grew",
        params,
        `Received ${got} bytes of ${path} from ${host} where ${expected} were expected; the file changed during the download`,
      );
    return this.make("incomplete", "download_incomplete", params, `Received ${got} of ${expected} bytes of ${path} from ${host}; the download is incomplete`);
  }

  tooLarge(path: string, size: number, limit: number) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const inMb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    const over = size > limit;
    const what = over ? `is ${mb(size)}, over` : "sent more than";
    return this.make(
      "too_large",
      over ? "too_large" : "too_large_sent",
      { path, host: this.host, size: inMb(size), limit: inMb(limit) },
      `${path} on ${this.endpoint.host} ${what} the ${mb(limit)} a download may take (MAX_DOWNLOAD_MB)`,
    );
  }

  incompleteUpload(path: string, got: number, expected: number) {
    return this.make(
      "incomplete",
      "upload_incomplete",
      { path, host: this.host, got, expected },
      `Only ${got} of ${expected} bytes of ${path} reached ${this.endpoint.host}; the file was not published under its final name`,
    );
  }

  connectionLost(activity?: Activity | "connecting", path?: string, cause?: unknown) {
    const during = activity ? ` while ${activity} ${path ?? ""}`.trimEnd() : "";
    const code = !activity ? "connection_lost" : path ? "connection_lost_during" : "connection_lost_while";
    return this.make(
      "connection_lost",
      code,
      { address: this.address, activity: activity ? activityMessage(activity) : "", path: path ?? "" },
      `The connection to ${this.address} was lost${during}`,
      cause,
    );
  }

  closed() {
    return this.make("connection_lost", "closed", { address: this.address }, `The connection to ${this.address} is closed`);
  }

  /** Nothing pinned, and trust on first use is off: the fingerprint to pin is named. */
  notPinned(what: "host key" | "TLS certificate", got: string) {
    return this.make(
      "host_key_changed",
      what === "host key" ? "host_key_not_pinned" : "certificate_not_pinned",
      { host: this.host, got },
      `The ${what} of ${this.endpoint.host} (${got}) is not pinned and no certificate authority ` +
        `vouches for it; refusing to connect (pin it once you have checked it with the server's owner)`,
    );
  }

  certificateChanged(expected: string, got: string) {
    return this.make(
      "host_key_changed",
      "certificate_changed",
      { host: this.host, expected, got },
      `The TLS certificate of ${this.endpoint.host} changed: expected ${expected}, got ${got}; ` +
        `refusing to connect (if the vendor changed its certificate, clear the pinned key)`,
    );
  }

  /** The server refused the data connection's mode (PORT/EPRT or PASV), often in words that read as a file permission problem. */
  dataModeRefused(mode: "active" | "passive", activity: Activity, path: string, serverText: string, cause?: unknown) {
    const advice =
      mode === "active"
        ? "it may allow passive mode only: choose transfer mechanism 3 (Passive FTP)"
        : "it may allow active mode only: choose transfer mechanism 2 (FTP)";
    const server = serverExcerpt(serverText);
    return this.make(
      "protocol",
      `data_mode_refused_${mode}`,
      { host: this.host, server, activity: activityMessage(activity), path },
      `${this.endpoint.host} refused ${mode} FTP data connections (${server}) while ${activity} ${path}; ${advice}`,
      cause,
    );
  }

  /** The data connection could not be opened (active mode: the server could not connect back to us). */
  dataConnectionFailed(mode: "active" | "passive", activity: Activity, path: string, serverText: string | undefined, cause?: unknown) {
    const detail = serverText ? ` (${serverExcerpt(serverText)})` : "";
    const advice =
      mode === "active"
        ? "the server could not connect back to us, as a firewall or NAT between us prevents: choose transfer mechanism 3 (Passive FTP)"
        : "choose transfer mechanism 2 (FTP) if the server allows active mode";
    return this.make(
      "protocol",
      `data_connection_failed_${mode}`,
      { host: this.host, server: serverWordsMessage(serverText), activity: activityMessage(activity), path },
      `${this.endpoint.host} could not open ${mode === "active" ? "an" : "a"} ${mode} FTP data connection${detail} while ${activity} ${path}; ${advice}`,
      cause,
    );
  }

  /**
   * Anything else the server or the protocol got wrong: `code` names it under
   * `transport.errors.`, `params` are its values (`url` is added), `message` is a whole English sentence.
   */
  protocol(code: string, params: Record<string, unknown>, message: string, cause?: unknown) {
    return this.make("protocol", code, { url: this.url, ...params }, message, cause);
  }

  notAFile(path: string) {
    return this.make("protocol", "not_a_file", { path, host: this.host }, `${path} on ${this.endpoint.host} is a folder, not a file`);
  }

  notAFolder(path: string) {
    return this.make("protocol", "not_a_folder", { path, host: this.host }, `${path} on ${this.endpoint.host} is a file, not a folder`);
  }

  fileInTheWay(folder: string) {
    return this.make(
      "protocol",
      "file_in_the_way",
      { folder, host: this.host },
      `Cannot create folder ${folder} on ${this.endpoint.host}: a file of that name exists`,
    );
  }

  /** A refusal the server did not explain further, e.g. "rename /a to /b failed: <server's words>". */
  refused(activity: Activity, path: string, serverText: string | undefined, cause?: unknown) {
    const detail = serverText ? `: ${serverExcerpt(serverText)}` : "";
    return this.make(
      "protocol",
      serverText ? "refused_saying" : "refused",
      { host: this.host, activity: activityMessage(activity), path, server: (serverText === undefined ? undefined : serverExcerpt(serverText)) ?? "" },
      `${this.endpoint.host} refused ${activity} ${path}${detail}`,
      cause,
    );
  }
}

/** "500 ms" or "1.5 s" in the reader's numbers. */
function durationMessage(ms: number): CodedMessage {
  return ms < 1000 ? coded("transport.duration.ms", { value: ms }) : coded("transport.duration.s", { value: Math.round(ms / 100) / 10 });
}

/** "listing", "writing"… as words of the reader's language (the gerund of the English message). */
function activityMessage(activity: Activity | "connecting"): CodedMessage {
  return coded(`transport.activities.${activity}`);
}

/** A server's own words in brackets, or nothing: they stay as they are, inside a translated frame. */
function serverWordsMessage(serverText: string | undefined): CodedMessage | string {
  return serverText ? coded("transport.server_words", { text: serverExcerpt(serverText) }) : "";
}

/** unreachableReason's words, as codes under `transport.reasons.`. */
const UNREACHABLE_REASON_CODES: Record<string, string> = {
  "connection refused": "connection_refused",
  "host name not found": "host_not_found",
  "no route to host": "no_route",
  "network unreachable": "network_unreachable",
};

/** Node's socket error codes that mean "could not reach the host at all". */
export function unreachableReason(code: unknown): string | null {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return "host name not found";
    case "EHOSTUNREACH":
    case "EHOSTDOWN":
      return "no route to host";
    case "ENETUNREACH":
      return "network unreachable";
    default:
      return null;
  }
}

const CONNECTION_LOSS_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_SOCKET_CLOSED", "ERR_STREAM_DESTROYED"]);

export function isConnectionLossCode(code: unknown): boolean {
  return typeof code === "string" && CONNECTION_LOSS_CODES.has(code);
}

/**
 * Runs a transport's operations, at most `inFlight` at once, in call order
 * (FTP allows one at a time on a connection; SFTP several requests on one
 * channel), and gives each an idle timeout: `touch()` on progress of the
 * connection keeps long transfers alive (every running operation: with several
 * in flight, one waits on the channel while another moves data), silence for
 * `timeoutMs` calls `onTimeout` (which should drop the connection) and fails the
 * operation with the error `onTimeout` returns.
 */
export class OperationRunner {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  private readonly timers = new Set<() => void>();
  /** Most operations that ran at once (tests read it). */
  peak = 0;

  constructor(
    private readonly timeoutMs: number,
    readonly inFlight = 1,
  ) {}

  /** Marks progress of the running operations (data moved, a step done). */
  touch(): void {
    for (const arm of this.timers) arm();
  }

  run<T>(work: () => Promise<T>, onTimeout: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        this.peak = Math.max(this.peak, this.running);
        this.withIdleTimeout(work, onTimeout)
          .then(resolve, reject)
          .finally(() => {
            this.running -= 1;
            this.queue.shift()?.();
          });
      };
      if (this.running < this.inFlight) start();
      else this.queue.push(start);
    });
  }

  private withIdleTimeout<T>(work: () => Promise<T>, onTimeout: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          if (settled) return;
          settled = true;
          this.timers.delete(arm);
          reject(onTimeout());
        }, this.timeoutMs);
      };
      this.timers.add(arm);
      arm();
      work()
        .then(
          (value) => {
            if (settled) return;
            settled = true;
            resolve(value);
          },
          (error: unknown) => {
            if (settled) return;
            settled = true;
            reject(error);
          },
        )
        .finally(() => {
          clearTimeout(timer);
          // A timed-out operation settles late, maybe while others run.
          this.timers.delete(arm);
        });
    });
  }
}

/** Rejects with `onTimeout()` if `promise` has not settled within `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
