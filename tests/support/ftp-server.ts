// An FTP server in process, on 127.0.0.1, serving a folder on disk: for transport
// tests, other tests and a local demo vendor. Built on ftp-srv: active (PORT, EPRT)
// and passive (EPSV, PASV) data connections, explicit FTPS when given a certificate. Paths are confined
// to the root folder by ftp-srv itself. The same faults as the SFTP test server.
import type { EventEmitter } from "node:events";
import { promises as fs } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { Transform } from "node:stream";
import { createSecureContext, type SecureContextOptions, TLSSocket } from "node:tls";
import { FileSystem, type FtpConnection, FtpSrv } from "ftp-srv";
import { FaultState, type TransferFaults } from "@edi/transport/loopback";

export interface FtpServerOptions {
  /** The folder on disk that clients see as "/". */
  root: string;
  users: Record<string, string>;
  /** Default 0 (any free port); give the old port to restart a stopped server in place. */
  port?: number;
  /** Commands the server answers with 502, e.g. ["EPSV"] to play an old server. */
  disabledCommands?: string[];
  /** Offers explicit FTPS (AUTH TLS) with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
}

export interface FtpTestServer {
  host: "127.0.0.1";
  port: number;
  faults: TransferFaults;
  activeConnections(): number;
  stop(): Promise<void>;
}

/** What ftp-srv's connection has beyond its published types. */
interface ConnectionInternals {
  commandSocket: Socket;
  connector: { socket: Socket | null };
}

/**
 * ftp-srv answers AUTH TLS with 234 and starts TLS a turn of the event loop later: a client's
 * handshake arriving in between (a loaded machine) is read as plain commands. Here the command
 * socket stops emitting before 234 is written and TLS starts in the same turn, so the handshake
 * is read by TLS whenever it comes (buffered bytes are handed to it).
 */
function startTlsAtOnce(): void {
  const auth = createRequire(import.meta.url)("ftp-srv/src/commands/registration/auth.js") as { handler: (...args: unknown[]) => unknown; patched?: boolean };
  if (auth.patched) return;
  const original = auth.handler;
  auth.patched = true;
  auth.handler = function (this: AuthConnection, ...args: unknown[]) {
    const { command } = (args[0] ?? {}) as { command?: { arg?: string } };
    if (String(command?.arg ?? "").toUpperCase() !== "TLS" || !this.server.options.tls || this.secure) return original.apply(this, args);
    const raw = this.commandSocket;
    raw.pause();
    const secureContext = createSecureContext(this.server.options.tls);
    raw.write("234 Honored\r\n");
    const secure = new TLSSocket(raw, { isServer: true, secureContext });
    for (const event of ["data", "timeout", "end", "close", "drain", "error"]) secure.on(event, (...values: unknown[]) => raw.emit(event, ...values));
    this.commandSocket = secure;
    this.secure = true;
    return Promise.resolve();
  };
}

interface AuthConnection {
  server: { options: { tls: SecureContextOptions | false } };
  secure: boolean;
  commandSocket: Socket;
}

export async function startFtpServer(options: FtpServerOptions): Promise<FtpTestServer> {
  if (options.tls) startTlsAtOnce();
  const root = path.resolve(options.root);
  const faults = new FaultState();
  // Below Linux's ephemeral range (32768+), so outgoing connections do not take these ports.
  const pasvMin = 20_000 + Math.floor(Math.random() * 120) * 100;

  // ftp-srv installs SIGINT/SIGTERM/SIGQUIT handlers that exit the process; a test server must not.
  const signals = ["SIGINT", "SIGTERM", "SIGQUIT"] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const server = new FtpSrv({
    url: `ftp://127.0.0.1:${options.port ?? 0}`,
    pasv_url: "127.0.0.1",
    pasv_min: pasvMin,
    pasv_max: pasvMin + 99,
    anonymous: false,
    blacklist: options.disabledCommands ?? [],
    tls: options.tls ?? false,
    greeting: "Test FTP server",
    log: silentLogger(),
  });
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
  }

  const events = server as unknown as EventEmitter;
  const commandSockets = new Set<Socket>();
  events.on("connect", ({ connection }: { connection: FtpConnection }) => {
    const socket = (connection as unknown as ConnectionInternals).commandSocket;
    if (faults.takeRefusal()) {
      socket.destroy();
      return;
    }
    commandSockets.add(socket);
    socket.once("close", () => commandSockets.delete(socket));
  });
  events.on("client-error", () => {}); // clients that vanish are what the faults are for

  server.on("login", ({ connection, username, password }, resolve, reject) => {
    const expected = Object.hasOwn(options.users, username) ? options.users[username] : undefined;
    if (expected === undefined || password !== expected) return reject(new Error("Wrong user name or password"));
    resolve({ fs: new FaultyFileSystem(connection, root, faults) });
  });

  await server.listen();
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();

  return {
    host: "127.0.0.1",
    port: address.port,
    faults,
    activeConnections: () => commandSockets.size,
    stop: async () => {
      for (const socket of commandSockets) socket.destroy();
      await server.close();
    },
  };
}

/** ftp-srv's file system on the root folder, with the faults applied and plain-server habits. */
class FaultyFileSystem extends FileSystem {
  constructor(
    connection: FtpConnection,
    root: string,
    private readonly faults: FaultState,
  ) {
    super(connection, { root, cwd: "/" });
  }

  private serverPath(clientPath = "."): string {
    return path.posix.resolve("/", this.cwd, clientPath);
  }

  private localPath(clientPath: string): string {
    return path.join(this.root, this.serverPath(clientPath));
  }

  private refuseWrite(...clientPaths: string[]): void {
    if (clientPaths.some((clientPath) => this.faults.isWriteDenied(this.serverPath(clientPath)))) throw new Error("Permission denied");
  }

  /** A hung server: the command is never answered. */
  private stalled<T>(work: () => T): T {
    if (this.faults.takeStall()) return new Promise(() => {}) as T;
    return work();
  }

  /** Cuts the control and data connections, as a network failure would. */
  private dropConnection(): void {
    const connection = this.connection as unknown as ConnectionInternals;
    connection.connector.socket?.destroy(new Error("connection dropped by test fault"));
    connection.commandSocket.destroy();
  }

  override get(fileName: string) {
    return this.stalled(() => super.get(fileName));
  }

  override list(folder?: string) {
    return this.stalled(() => this.faults.listing(this.serverPath(folder)).then(() => super.list(folder)));
  }

  override chdir(folder?: string) {
    return this.stalled(() => super.chdir(folder));
  }

  override write(fileName: string, options?: { append?: boolean; start?: unknown }) {
    return this.stalled(() => {
      this.refuseWrite(fileName);
      // Checked here: ftp-srv's own cleanup of a failed write stream rejects unhandled.
      const parent = path.dirname(this.localPath(fileName));
      return fs.stat(parent).then(
        () => {
          const dropAfter = this.faults.takeDrop();
          const dataSocket = (this.connection as unknown as ConnectionInternals).connector.socket;
          if (dropAfter !== null && dataSocket) {
            let received = 0;
            dataSocket.on("data", (chunk: Buffer) => {
              received += chunk.length;
              if (received > dropAfter) this.dropConnection();
            });
          }
          return super.write(fileName, options);
        },
        () => {
          throw new Error(`No such file or directory: ${this.serverPath(path.posix.dirname(fileName))}`);
        },
      );
    });
  }

  override read(fileName: string, options?: { start?: unknown }) {
    return this.stalled(async () => {
      const { stream, clientPath } = await super.read(fileName, options);
      const dropAfter = this.faults.takeDrop();
      const truncateAfter = this.faults.takeTruncation();
      if (dropAfter === null && truncateAfter === null) return { stream, clientPath };
      let sent = 0;
      const faulty = new Transform({
        transform: (chunk: Buffer, _encoding, done) => {
          if (dropAfter !== null && sent + chunk.length > dropAfter) {
            this.dropConnection();
            return done();
          }
          const part = truncateAfter === null ? chunk : chunk.subarray(0, Math.max(0, truncateAfter - sent));
          sent += part.length;
          done(null, part);
        },
      });
      stream.on("error", (error: Error) => faulty.destroy(error));
      return { stream: stream.pipe(faulty), clientPath };
    });
  }

  override delete(target: string) {
    return this.stalled(() => {
      this.refuseWrite(target);
      return super.delete(target);
    });
  }

  // Plain servers refuse MKD when the parent is missing; ftp-srv would create parents.
  override mkdir(folder: string) {
    return this.stalled(() => {
      this.refuseWrite(folder);
      return fs.mkdir(this.localPath(folder)).then(() => this.serverPath(folder));
    });
  }

  override rename(from: string, to: string) {
    return this.stalled(() => {
      this.refuseWrite(from, to);
      return super.rename(from, to);
    });
  }

  override chmod(target: string, mode: string) {
    return this.stalled(() => {
      this.refuseWrite(target);
      return super.chmod(target, mode);
    });
  }
}

/** ftp-srv logs through bunyan by default; tests want silence. */
function silentLogger() {
  const logger: Record<string, unknown> = {};
  for (const level of ["trace", "debug", "info", "warn", "error", "fatal"]) logger[level] = () => {};
  logger.child = () => logger;
  return logger;
}
