// How a transfer fails: one error type with a kind the caller can act on and a
// message for people. Library errors (ssh2, basic-ftp) never travel as they are:
// some carry their connection config, so every message here is written fresh and
// the original survives only as a sanitised, non-enumerable `cause`.

export type TransportErrorKind =
  | "auth"
  | "unreachable"
  | "timeout"
  | "not_found"
  | "permission"
  | "host_key_changed"
  | "incomplete"
  | "connection_lost"
  | "too_large"
  | "protocol";

/** Faults of the connection itself: a new attempt may well succeed. */
const CONNECTION_FAULTS: ReadonlySet<TransportErrorKind> = new Set(["unreachable", "timeout", "connection_lost"]);

export class TransportError extends Error {
  readonly kind: TransportErrorKind;

  constructor(kind: TransportErrorKind, message: string, options: { cause?: unknown; secrets?: readonly string[] } = {}) {
    const secrets = options.secrets ?? [];
    super(redact(message, secrets));
    this.name = "TransportError";
    this.kind = kind;
    if (options.cause !== undefined) {
      Object.defineProperty(this, "cause", { value: sanitiseCause(options.cause, secrets), enumerable: false, configurable: true });
    }
  }

  /** True for faults worth reconnecting for (unreachable, timeout, connection lost). */
  get isConnectionFault(): boolean {
    return CONNECTION_FAULTS.has(this.kind);
  }

  /** Feed logs store errors as JSON: keep the message, which Error's own serialisation drops. */
  toJSON() {
    return { name: this.name, kind: this.kind, message: this.message };
  }
}

/** A user-given path that would leave its folder, or is not a path at all. */
export class PathError extends Error {
  readonly path: string;

  constructor(path: string, reason: string) {
    super(`The path ${JSON.stringify(path)} is not allowed: ${reason}`);
    this.name = "PathError";
    this.path = path;
  }

  toJSON() {
    return { name: this.name, message: this.message, path: this.path };
  }
}

export function isTransportError(error: unknown, kind?: TransportErrorKind): error is TransportError {
  return error instanceof TransportError && (kind === undefined || error.kind === kind);
}

/** Replaces every secret (and its URL-encoded form) in a text. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) result = result.split(form).join("***");
  }
  return result;
}

/**
 * A copy of a library error that keeps what helps debugging (name, message, code,
 * level, stack frames) with secrets redacted, and drops everything else, such as
 * the connection config some errors carry.
 */
function sanitiseCause(cause: unknown, secrets: readonly string[]): Error {
  if (!(cause instanceof Error)) return new Error(redact(String(cause), secrets));
  const copy = new Error(redact(cause.message, secrets));
  copy.name = redact(cause.name, secrets);
  const { code, level } = cause as { code?: unknown; level?: unknown };
  if (typeof code === "string" || typeof code === "number") Object.defineProperty(copy, "code", { value: code, enumerable: true });
  if (typeof level === "string") Object.defineProperty(copy, "level", { value: level, enumerable: true });
  const frames = (cause.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  copy.stack = [`${copy.name}: ${copy.message}`, ...frames.map((line) => redact(line, secrets))].join("\n");
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

/** Every message a transport can fail with, in one place, bound to one endpoint. */
export class TransportErrors {
  constructor(
    private readonly endpoint: Endpoint,
    private readonly secrets: readonly string[],
  ) {}

  private make(kind: TransportErrorKind, message: string, cause?: unknown): TransportError {
    const prefix = this.endpoint.label ? `${this.endpoint.label}: ` : "";
    return new TransportError(kind, prefix + message, { cause, secrets: this.secrets });
  }

  get url(): string {
    return `${this.endpoint.scheme}://${this.endpoint.host}:${this.endpoint.port}`;
  }

  private get address(): string {
    return `${this.endpoint.host}:${this.endpoint.port}`;
  }

  auth(cause?: unknown) {
    return this.make("auth", `Wrong user name or password for ${this.url}`, cause);
  }

  unreachable(reason: string, cause?: unknown) {
    return this.make("unreachable", `${this.address} is unreachable (${reason})`, cause);
  }

  connectTimeout(ms: number, cause?: unknown) {
    return this.make("timeout", `${this.address} did not answer within ${formatDuration(ms)} (connecting)`, cause);
  }

  operationTimeout(ms: number, activity: Activity, path: string, cause?: unknown) {
    return this.make("timeout", `${this.endpoint.host} did not answer within ${formatDuration(ms)} while ${activity} ${path}; the connection was closed`, cause);
  }

  hostKeyChanged(expected: string, got: string) {
    return this.make(
      "host_key_changed",
      `The host key of ${this.endpoint.host} changed: expected ${expected}, got ${got}; refusing to connect (if the vendor changed its key, clear the pinned key)`,
    );
  }

  notFound(what: "folder" | "file" | "path", path: string, cause?: unknown) {
    const noun = what === "folder" ? "Folder " : what === "file" ? "File " : "";
    return this.make("not_found", `${noun}${path} does not exist on ${this.endpoint.host}`, cause);
  }

  permission(activity: Activity, path: string, cause?: unknown) {
    return this.make("permission", `Permission denied ${activity} ${path} on ${this.endpoint.host}`, cause);
  }

  incompleteDownload(path: string, got: number, expected: number) {
    const host = this.endpoint.host;
    if (got > expected) return this.make("incomplete", `Received ${got} bytes of ${path} from ${host} where ${expected} were expected; the file changed during the download`);
    return this.make("incomplete", `Received ${got} of ${expected} bytes of ${path} from ${host}; the download is incomplete`);
  }

  tooLarge(path: string, size: number, limit: number) {
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const what = size > limit ? `is ${mb(size)}, over` : "sent more than";
    return this.make("too_large", `${path} on ${this.endpoint.host} ${what} the ${mb(limit)} a download may take (MAX_DOWNLOAD_MB)`);
  }

  incompleteUpload(path: string, got: number, expected: number) {
    return this.make("incomplete", `Only ${got} of ${expected} bytes of ${path} reached ${this.endpoint.host}; the file was not published under its final name`);
  }

  connectionLost(activity?: Activity | "connecting", path?: string, cause?: unknown) {
    const during = activity ? ` while ${activity} ${path ?? ""}`.trimEnd() : "";
    return this.make("connection_lost", `The connection to ${this.address} was lost${during}`, cause);
  }

  closed() {
    return this.make("connection_lost", `The connection to ${this.address} is closed`);
  }

  /** Nothing pinned, and trust on first use is off: the fingerprint to pin is named. */
  notPinned(what: "host key" | "TLS certificate", got: string) {
    return this.make(
      "host_key_changed",
      `The ${what} of ${this.endpoint.host} (${got}) is not pinned and no certificate authority vouches for it; refusing to connect (pin it once you have checked it with the server's owner)`,
    );
  }

  certificateChanged(expected: string, got: string) {
    return this.make(
      "host_key_changed",
      `The TLS certificate of ${this.endpoint.host} changed: expected ${expected}, got ${got}; refusing to connect (if the vendor changed its certificate, clear the pinned key)`,
    );
  }

  /** The server refused the data connection's mode (PORT/EPRT or PASV), often in words that read as a file permission problem. */
  dataModeRefused(mode: "active" | "passive", activity: Activity, path: string, serverText: string, cause?: unknown) {
    const advice =
      mode === "active"
        ? "it may allow passive mode only: choose transfer mechanism 3 (Passive FTP)"
        : "it may allow active mode only: choose transfer mechanism 2 (FTP)";
    return this.make("protocol", `${this.endpoint.host} refused ${mode} FTP data connections (${serverText.slice(0, 200)}) while ${activity} ${path}; ${advice}`, cause);
  }

  /** The data connection could not be opened (active mode: the server could not connect back to us). */
  dataConnectionFailed(mode: "active" | "passive", activity: Activity, path: string, serverText: string | undefined, cause?: unknown) {
    const detail = serverText ? ` (${serverText.slice(0, 200)})` : "";
    const advice =
      mode === "active"
        ? "the server could not connect back to us, as a firewall or NAT between us prevents: choose transfer mechanism 3 (Passive FTP)"
        : "choose transfer mechanism 2 (FTP) if the server allows active mode";
    return this.make("protocol", `${this.endpoint.host} could not open a ${mode} FTP data connection${detail} while ${activity} ${path}; ${advice}`, cause);
  }

  /** Anything else the server or the protocol got wrong; `message` is a whole sentence. */
  protocol(message: string, cause?: unknown) {
    return this.make("protocol", message, cause);
  }

  notAFile(path: string) {
    return this.make("protocol", `${path} on ${this.endpoint.host} is a folder, not a file`);
  }

  notAFolder(path: string) {
    return this.make("protocol", `${path} on ${this.endpoint.host} is a file, not a folder`);
  }

  fileInTheWay(folder: string) {
    return this.make("protocol", `Cannot create folder ${folder} on ${this.endpoint.host}: a file of that name exists`);
  }

  /** A refusal the server did not explain further, e.g. "rename /a to /b failed: <server's words>". */
  refused(activity: Activity, path: string, serverText: string | undefined, cause?: unknown) {
    const detail = serverText ? `: ${serverText.slice(0, 200)}` : "";
    return this.make("protocol", `${this.endpoint.host} refused ${activity} ${path}${detail}`, cause);
  }
}

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
 * Runs a transport's operations one at a time (neither client allows two at once on
 * one connection) and gives each an idle timeout: `touch()` on progress keeps a long
 * transfer alive, silence for `timeoutMs` calls `onTimeout` (which should drop the
 * connection) and fails the operation with the error `onTimeout` returns.
 */
export class OperationRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private touchCurrent: () => void = () => {};

  constructor(private readonly timeoutMs: number) {}

  /** Marks progress of the running operation (data moved, a step done). */
  touch(): void {
    this.touchCurrent();
  }

  run<T>(work: () => Promise<T>, onTimeout: () => Error): Promise<T> {
    const result = this.tail.then(() => this.withIdleTimeout(work, onTimeout));
    this.tail = result.catch(() => undefined);
    return result;
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
          reject(onTimeout());
        }, this.timeoutMs);
      };
      this.touchCurrent = arm;
      arm();
      work().then(
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
      ).finally(() => {
        clearTimeout(timer);
        // A timed-out operation settles late, maybe while the next one runs.
        if (this.touchCurrent === arm) this.touchCurrent = () => {};
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
