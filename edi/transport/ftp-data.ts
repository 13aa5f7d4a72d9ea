// How FTP data connections are opened: active mode (PORT/EPRT) for mechanism 2, passive
// mode (PASV) for mechanism 3, and the checks both share when the session uses TLS.
//
// basic-ftp's transfers ask a "transfer strategy" to set `ftp.dataSocket` before they send
// the command (RETR, STOR, LIST), and read or write that socket once the server answers 150.
// Both strategies below hand basic-ftp a DataSocket: in active mode it listens on the control
// connection's local address (PORT for IPv4, EPRT for IPv6) and carries the bytes once the
// server's connection is accepted; in passive mode it connects to the PASV port. On TLS
// sessions its handshake starts only after the command's reply (RFC 4217), see DataSocket.
import { Duplex } from "node:stream";
import net, { type AddressInfo, type Socket } from "node:net";
import tls, { type TLSSocket } from "node:tls";
import type { FTPContext, FTPResponse } from "basic-ftp";
import { parsePasvResponse } from "basic-ftp/dist/transfer.js";
import { isLoopback } from "basic-ftp/dist/netUtils.js";
import { sameFingerprint, sha256Fingerprint } from "./fingerprint";

/** How long a data connection's TLS waits for the command's reply before it starts anyway: see DataSocket. */
export const DATA_TLS_REPLY_WAIT_MS = 300;

export type TransferStrategy = (ftp: FTPContext) => Promise<FTPResponse>;
export type DataMode = "active" | "passive";

/**
 * The server refused to set up a data connection (PORT/EPRT or PASV refused or unreadable).
 * Servers often say only "Permission denied" here, which reads as a file permission problem.
 */
export class DataConnectionRefused extends Error {
  constructor(
    readonly mode: DataMode,
    readonly command: string,
    readonly serverText: string,
    options?: { cause?: unknown },
  ) {
    super(`${command} refused: ${serverText}`, options);
    this.name = "DataConnectionRefused";
  }
}

/**
 * Checks every TLS data connection against the control connection: the same certificate, or a
 * resumed session of it (which only the server that holds the session can accept).
 */
export type DataTlsCheck = (socket: TLSSocket) => Error | null;

export function sameCertificateAs(controlFingerprint: string): DataTlsCheck {
  return (socket) => {
    if (socket.isSessionReused()) return null;
    const raw = socket.getPeerCertificate()?.raw;
    if (raw && sameFingerprint(controlFingerprint, sha256Fingerprint(raw))) return null;
    return new Error("The data connection presented another certificate than the control connection");
  };
}

/** Mechanism 3: plain PASV, the data connection going to the control connection's host. */
export function passiveStrategy(checkTls: DataTlsCheck | null): TransferStrategy {
  return async (ftp) => {
    let response: FTPResponse;
    let port: number;
    const control = unmapped(ftp.socket.remoteAddress);
    try {
      if (!control) throw new Error("Control socket is disconnected, can't open a data connection.");
      response = await ftp.request("PASV");
      const target = parsePasvResponse(response.message);
      if (!target) throw new Error(`Can't parse response to 'PASV': ${response.message}`);
      // Never to another host than the control connection's (FTP bounce), as basic-ftp does.
      if (target.host !== control && !(isLoopback(target.host) && isLoopback(control))) {
        throw new Error(`PASV returned another host (${target.host}) than the control connection's (${control})`);
      }
      port = target.port;
    } catch (error) {
      throw refusal("passive", "PASV", error);
    }
    const raw = await connectPassive(control, port, ftp.timeout);
    const data = new DataSocket(dataTls(ftp, checkTls));
    data.attach(raw);
    ftp.dataSocket = data as unknown as Socket;
    data.handedOver();
    return response;
  };
}

/** Mechanism 2: active mode; the server connects to a port we listen on. */
export function activeStrategy(checkTls: DataTlsCheck | null): TransferStrategy {
  return async (ftp) => {
    const control = ftp.socket;
    const local = unmapped(control.localAddress);
    const server = unmapped(control.remoteAddress);
    if (!local || !server) throw new Error("Control socket is disconnected, can't open a data connection.");
    const listener = net.createServer();
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen({ host: local, port: 0, exclusive: true }, () => {
        listener.removeListener("error", reject);
        resolve();
      });
    });
    const { port } = listener.address() as AddressInfo;
    const ipv4 = net.isIPv4(local);
    const command = ipv4 ? `PORT ${local.split(".").join(",")},${port >> 8},${port & 255}` : `EPRT |2|${local}|${port}|`;
    const data = new DataSocket(dataTls(ftp, checkTls), () => listener.close());
    // Only a connection from the server's own address is taken (anyone else reaching the port
    // first is turned away), and only one; then the port is closed.
    listener.on("connection", (raw: Socket) => {
      if (data.attached || data.destroyed || unmapped(raw.remoteAddress) !== server) {
        raw.destroy();
        return;
      }
      listener.close();
      data.attach(raw);
    });
    listener.on("error", (error: Error) => data.destroy(error));
    let response: FTPResponse;
    try {
      response = await ftp.request(command);
    } catch (error) {
      data.destroy();
      throw refusal("active", command.split(" ")[0]!, error);
    }
    ftp.dataSocket = data as unknown as Socket;
    data.handedOver();
    return response;
  };
}

/** Opens the TCP connection of a passive transfer (its TLS comes later: see DataSocket). */
function connectPassive(host: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const fail = (error: Error) => {
      socket.destroy();
      error.message = `Can't open data connection in passive mode: ${error.message}`;
      reject(error);
    };
    socket.setTimeout(timeoutMs, () => fail(new Error(`Timeout when trying to open data connection to ${host}:${port}`)));
    socket.once("error", fail);
    socket.once("connect", () => {
      socket.setTimeout(0);
      socket.removeListener("error", fail);
      resolve(socket);
    });
  });
}

/**
 * How a data connection becomes TLS when the control connection is: we are the TLS client
 * (RFC 4217), resuming the control connection's session (vsftpd's `require_ssl_reuse`,
 * Pure-FTPd and ProFTPD refuse a new one), and keeping the newest session for the next
 * data connection (TLS 1.3 tickets are single-use). Null in clear.
 */
function dataTls(ftp: FTPContext, checkTls: DataTlsCheck | null): ((raw: Socket) => TLSSocket) | null {
  if (!ftp.hasTLS) return null;
  return (raw) => {
    const secure = tls.connect({ ...ftp.tlsOptions, socket: raw, session: ftp.tlsSessionStore ?? (ftp.socket as TLSSocket).getSession() });
    secure.on("session", (session: Buffer) => {
      ftp.tlsSessionStore = session;
    });
    if (checkTls) guardTls(secure, checkTls);
    return secure;
  };
}

function refusal(mode: DataMode, command: string, error: unknown): Error {
  // Only the server's refusals are renamed; a lost connection stays what it is.
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === "number" || /^Can't parse|^PASV returned another host/.test(message)) {
    return new DataConnectionRefused(mode, command, message.replace(/\s*\(control socket\)$/, ""), { cause: error });
  }
  return error instanceof Error ? error : new Error(message);
}

/** Fails the data connection before any byte moves when its certificate is not the control connection's. */
function guardTls(socket: TLSSocket, check: DataTlsCheck): void {
  // Registered before basic-ftp's own "secureConnect" listeners, so it runs first.
  socket.once("secureConnect", () => {
    const problem = check(socket);
    if (problem) socket.destroy(problem);
  });
}

function unmapped(address: string | undefined): string | undefined {
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/**
 * What basic-ftp reads and writes as a data connection, active or passive: a stream that
 * passes bytes to and from the TCP connection once there is one (in active mode the server
 * may connect only after the command), and on TLS sessions starts the data connection's
 * handshake only once basic-ftp uses it, which it does on the server's 150 reply.
 *
 * Why after the reply: RFC 4217 clients (Python's ftplib, lftp) send the command, read the
 * server's 150, then start TLS on the data connection. A ClientHello sent earlier reaches
 * some servers before they know what the connection is for: pyftpdlib drops such a data
 * connection, which failed 8 of 10 transfers. Others (ftp-srv, in passive mode) wait for
 * the handshake before they answer: when no reply came DATA_TLS_REPLY_WAIT_MS after basic-ftp
 * took the socket (and sent the command), the handshake starts anyway, so neither side waits
 * for the other. pyftpdlib answers at once, well before that.
 */
class DataSocket extends Duplex {
  private inner: Socket | null = null;
  private raw: Socket | null = null;
  private ready = false;
  private wanted = false;
  private given = false;
  private fallback: NodeJS.Timeout | null = null;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly secure: ((raw: Socket) => TLSSocket) | null,
    private readonly onDestroy: () => void = () => undefined,
  ) {
    super({ allowHalfOpen: true });
  }

  get attached(): boolean {
    return this.raw !== null;
  }

  // What basic-ftp and its transfer watchdog read from a data socket.
  get bytesRead(): number {
    return this.inner?.bytesRead ?? 0;
  }

  get bytesWritten(): number {
    return this.inner?.bytesWritten ?? 0;
  }

  get remoteAddress(): string | undefined {
    return this.raw?.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.raw?.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.raw?.remoteFamily;
  }

  /** basic-ftp's watchdog times transfers; the control connection's timeout covers the wait for the server. */
  setTimeout(): this {
    return this;
  }

  /** The TCP connection to the server: used at once in clear, with TLS once basic-ftp wants it. */
  attach(raw: Socket): void {
    this.raw = raw;
    if (!this.secure) return this.use(raw);
    // Until then the raw connection's faults are the data connection's.
    raw.on("error", (error: Error) => this.destroy(error));
    raw.once("close", () => {
      if (this.inner || this.destroyed) return;
      // Before the reply, a server refusing the command (550) may just close it: no error, the reply says why.
      if (this.wanted) this.destroy(new Error("Data connection closed before the transfer started"));
      else this.destroy();
    });
    if (this.wanted) this.startTls();
    else this.armFallback();
  }

  /** basic-ftp has the socket and sends the command now. */
  handedOver(): void {
    this.given = true;
    this.armFallback();
  }

  private armFallback(): void {
    if (!this.given || !this.raw || !this.secure || this.inner || this.fallback) return;
    this.fallback = setTimeout(() => this.startTls(), DATA_TLS_REPLY_WAIT_MS);
  }

  /** basic-ftp reads or writes: the server has answered the command. */
  private want(): void {
    if (this.wanted) return;
    this.wanted = true;
    if (this.raw && !this.inner) this.startTls();
  }

  private startTls(): void {
    if (this.inner || this.destroyed || !this.raw || !this.secure) return;
    if (this.fallback) clearTimeout(this.fallback);
    this.use(this.secure(this.raw));
  }

  private use(socket: Socket): void {
    this.inner = socket;
    socket.on("data", (chunk: Buffer) => {
      if (!this.push(chunk)) socket.pause();
    });
    let ended = false;
    socket.on("end", () => {
      ended = true;
      this.push(null);
    });
    socket.on("error", (error: Error) => this.destroy(error));
    socket.on("close", () => {
      if (!ended && !this.destroyed) this.destroy(new Error("Data connection closed before the transfer ended"));
    });
    const go = () => {
      this.ready = true;
      for (const resume of this.waiting.splice(0)) resume();
    };
    if ("encrypted" in socket) socket.once("secureConnect", go);
    else go();
  }

  private whenReady(action: () => void): void {
    this.want();
    if (this.ready) action();
    else this.waiting.push(action);
  }

  override _read(): void {
    this.want();
    this.inner?.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.whenReady(() => {
      this.inner!.write(chunk, (error) => done(error ?? null));
    });
  }

  override _final(done: (error?: Error | null) => void): void {
    this.whenReady(() => {
      this.inner!.end(() => done());
    });
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    if (this.fallback) clearTimeout(this.fallback);
    this.onDestroy();
    this.inner?.destroy();
    this.raw?.destroy();
    this.waiting = [];
    done(error);
  }
}
