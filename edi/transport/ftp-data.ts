// How FTP data connections are opened: active mode (PORT/EPRT) for mechanism 2, passive
// mode (PASV) for mechanism 3, and the checks both share when the session uses TLS.
//
// basic-ftp only opens data connections itself (passive mode). Its transfers ask a
// "transfer strategy" to set `ftp.dataSocket` before they send the command (RETR, STOR,
// LIST), and read or write that socket once the server answers 150. In active mode the
// server connects to us only after the command, so the strategy below listens on the
// control connection's local address, sends PORT (IPv4) or EPRT (IPv6), and hands
// basic-ftp a stand-in socket that carries the bytes once the server's connection is
// accepted (wrapped in TLS when the control connection is).
import { Duplex } from "node:stream";
import net, { type AddressInfo, type Socket } from "node:net";
import tls, { type TLSSocket } from "node:tls";
import type { FTPContext, FTPResponse } from "basic-ftp";
import { enterPassiveModeIPv4_forceControlHostIP } from "basic-ftp/dist/transfer.js";
import { sameFingerprint, sha256Fingerprint } from "./fingerprint";

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
    try {
      response = await enterPassiveModeIPv4_forceControlHostIP(ftp);
    } catch (error) {
      throw refusal("passive", "PASV", error);
    }
    const socket = ftp.dataSocket;
    if (checkTls && socket && "encrypted" in socket) guardTls(socket as TLSSocket, checkTls);
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
    const wrap = (raw: Socket): Socket => {
      if (!ftp.hasTLS) return raw;
      // We are the TLS client on data connections too (RFC 4217), resuming the control session.
      const secure = tls.connect({ ...ftp.tlsOptions, socket: raw, session: ftp.tlsSessionStore ?? (ftp.socket as TLSSocket).getSession() });
      secure.on("session", (session: Buffer) => {
        ftp.tlsSessionStore = session;
      });
      if (checkTls) guardTls(secure, checkTls);
      return secure;
    };
    const data = new ActiveDataSocket(listener, server, wrap);
    let response: FTPResponse;
    try {
      response = await ftp.request(command);
    } catch (error) {
      data.destroy();
      throw refusal("active", command.split(" ")[0]!, error);
    }
    ftp.dataSocket = data as unknown as Socket;
    return response;
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
 * What basic-ftp reads and writes in active mode before the server has connected: a stream
 * that passes bytes to and from the accepted connection once there is one. Only a connection
 * from the server's own address is taken (anyone else reaching the port first is turned away),
 * and only one; then the port is closed.
 */
class ActiveDataSocket extends Duplex {
  private inner: Socket | null = null;
  private ready = false;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly listener: net.Server,
    private readonly serverAddress: string,
    private readonly secure: (raw: Socket) => Socket,
  ) {
    super({ allowHalfOpen: true });
    listener.on("connection", (raw: Socket) => this.accept(raw));
    listener.on("error", (error: Error) => this.destroy(error));
  }

  // What basic-ftp and its transfer watchdog read from a data socket.
  get bytesRead(): number {
    return this.inner?.bytesRead ?? 0;
  }

  get bytesWritten(): number {
    return this.inner?.bytesWritten ?? 0;
  }

  get remoteAddress(): string | undefined {
    return this.inner?.remoteAddress;
  }

  get remotePort(): number | undefined {
    return this.inner?.remotePort;
  }

  get remoteFamily(): string | undefined {
    return this.inner?.remoteFamily;
  }

  /** basic-ftp's watchdog times transfers; the control connection's timeout covers the wait for the server. */
  setTimeout(): this {
    return this;
  }

  private accept(raw: Socket): void {
    if (this.inner || this.destroyed || unmapped(raw.remoteAddress) !== this.serverAddress) {
      raw.destroy();
      return;
    }
    this.listener.close();
    const socket = this.secure(raw);
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
    if (this.ready) action();
    else this.waiting.push(action);
  }

  override _read(): void {
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
    this.listener.close();
    this.inner?.destroy();
    this.waiting = [];
    done(error);
  }
}
