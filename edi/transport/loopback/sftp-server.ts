// An SFTP server in process, on 127.0.0.1, serving a folder on disk: for transport
// tests, other tests and the local demo vendor. Built on ssh2's Server; password
// logins only; every path is confined to the root folder (".." stops at its top),
// or to a user's own folder under it (userRoots: one server for many vendors).
// Faults can be injected to test how clients cope with a misbehaving server.
import { promises as fs, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import ssh2, { type Attributes, type Connection, type FileEntry, type SFTPWrapper } from "ssh2";
import { sshFingerprint } from "../sftp";

const { Server, utils } = ssh2;
const { STATUS_CODE, OPEN_MODE } = utils.sftp;

/** Faults shared by the SFTP and FTP test servers. Each one applies once, to what comes next. */
export interface TransferFaults {
  /** The next file transfer (either direction) loses its connection after about `bytes` bytes. */
  dropNextTransferAfterBytes(bytes: number): void;
  /** The next download ends cleanly after `bytes` bytes, as if the file were shorter. */
  truncateNextDownloadAfterBytes(bytes: number): void;
  /** The next `count` connections are closed as soon as they open. */
  refuseNextConnections(count: number): void;
  /** Denies every write at or under a server path ("/inbound"); null allows writes again. */
  denyWrite(serverPath: string | null): void;
  /** The next request is never answered, as by a hung server. */
  stallNextRequest(): void;
  /** Until removed (null): called before each folder listing is answered, e.g. to grow a file between two listings. */
  beforeListing(hook: ((serverPath: string) => void | Promise<void>) | null): void;
  /** SFTP only, until cleared ([]): entries added to every listing of a folder, with names no disk holds ("../x", "a\\b"). */
  injectListing(serverPath: string, entries: Array<{ name: string; size?: number }>): void;
  /** SFTP only, until cleared (null): each READ is answered with at most `bytes` bytes, as a server may. */
  shortReads(bytes: number | null): void;
  /** SFTP only: the most READ requests the server had in hand at once so far (a client that waits for each answer: 1). */
  mostReadsAtOnce(): number;
}

/** The state behind TransferFaults, consumed by the servers. */
export class FaultState implements TransferFaults {
  private dropAfter: number | null = null;
  private truncateAfter: number | null = null;
  private refusals = 0;
  private deniedPath: string | null = null;
  private stall = false;
  private listingHook: ((serverPath: string) => void | Promise<void>) | null = null;
  private readonly injected = new Map<string, Array<{ name: string; size?: number }>>();
  readLimit: number | null = null;
  readsNow = 0;
  private mostReads = 0;

  shortReads(bytes: number | null): void {
    this.readLimit = bytes;
  }
  mostReadsAtOnce(): number {
    return this.mostReads;
  }
  /** Counts a READ in hand until `done`. */
  readStarted(): () => void {
    this.mostReads = Math.max(this.mostReads, ++this.readsNow);
    return () => void this.readsNow--;
  }

  dropNextTransferAfterBytes(bytes: number): void {
    this.dropAfter = bytes;
  }
  truncateNextDownloadAfterBytes(bytes: number): void {
    this.truncateAfter = bytes;
  }
  refuseNextConnections(count: number): void {
    this.refusals = count;
  }
  denyWrite(serverPath: string | null): void {
    this.deniedPath = serverPath === null ? null : path.posix.resolve("/", serverPath);
  }
  stallNextRequest(): void {
    this.stall = true;
  }

  beforeListing(hook: ((serverPath: string) => void | Promise<void>) | null): void {
    this.listingHook = hook;
  }
  injectListing(serverPath: string, entries: Array<{ name: string; size?: number }>): void {
    this.injected.set(path.posix.resolve("/", serverPath), entries);
  }

  async listing(serverPath: string): Promise<void> {
    await this.listingHook?.(serverPath);
  }
  injectedEntries(serverPath: string): Array<{ name: string; size?: number }> {
    return this.injected.get(serverPath) ?? [];
  }

  takeDrop(): number | null {
    const bytes = this.dropAfter;
    this.dropAfter = null;
    return bytes;
  }
  takeTruncation(): number | null {
    const bytes = this.truncateAfter;
    this.truncateAfter = null;
    return bytes;
  }
  takeRefusal(): boolean {
    if (this.refusals <= 0) return false;
    this.refusals--;
    return true;
  }
  takeStall(): boolean {
    const stall = this.stall;
    this.stall = false;
    return stall;
  }
  isWriteDenied(serverPath: string): boolean {
    const denied = this.deniedPath;
    if (denied === null) return false;
    return denied === "/" || serverPath === denied || serverPath.startsWith(`${denied}/`);
  }
}

export interface SftpServerOptions {
  /** The folder on disk that clients see as "/". */
  root: string;
  /** Read at each login: users may be added while the server runs. */
  users: Record<string, string>;
  /**
   * A user's own folder, relative to root: that user sees it as "/" and no path
   * leaves it. Users not listed see the whole root. Read at each login, like users.
   */
  userRoots?: Record<string, string>;
  /** A private host key (OpenSSH or PEM); a fresh ECDSA P-256 key by default. */
  hostKeyPem?: string;
  /** Default 0 (any free port); give the old port to restart a stopped server in place. */
  port?: number;
}

export interface SftpTestServer {
  host: "127.0.0.1";
  port: number;
  /** The host key's fingerprint, as a client pins it ("SHA256:…"). */
  hostKey: string;
  /** The private host key, to restart the server with the same identity. */
  hostKeyPem: string;
  faults: TransferFaults;
  activeConnections(): number;
  /** How many password logins were attempted: none may reach a server whose host key was refused. */
  passwordAttempts(): number;
  /**
   * Transfers in flight: files open (a download or upload, from OPEN to CLOSE) now on all
   * connections, and the most ever open at once on one connection since the last reset.
   */
  openFiles(): { now: number; peakPerConnection: number };
  resetOpenFilesPeak(): void;
  stop(): Promise<void>;
}

export async function startSftpServer(options: SftpServerOptions): Promise<SftpTestServer> {
  const root = path.resolve(options.root);
  // ECDSA, not ed25519: ssh2 cannot parse about 1 in 250 of the ed25519 keys its
  // own generator makes (measured: 12 of 3000), which made tests fail at random.
  const hostKeyPem = options.hostKeyPem ?? utils.generateKeyPairSync("ecdsa", { bits: 256 }).private;
  const parsedKey = utils.parseKey(hostKeyPem);
  if (parsedKey instanceof Error) throw parsedKey;
  const hostKey = sshFingerprint(parsedKey.getPublicSSH());
  const faults = new FaultState();
  const openFiles = { now: 0, peakPerConnection: 0 };
  const sockets = new Set<net.Socket>();
  let passwordAttempts = 0;

  const ssh = new Server({ hostKeys: [hostKeyPem] }, (client: Connection, info) => {
    // Find this connection's socket, to cut it abruptly for the drop fault.
    const socket = [...sockets].find((candidate) => candidate.remotePort === info.port);
    client.on("error", () => {}); // clients that vanish are what the faults are for
    let userRoot = root;
    client.on("authentication", (context) => {
      if (context.method === "password") passwordAttempts++;
      const expected = Object.hasOwn(options.users, context.username) ? options.users[context.username] : undefined;
      const ownRoot = rootOf(root, options.userRoots, context.username);
      if (context.method === "password" && expected !== undefined && context.password === expected && ownRoot !== null) {
        userRoot = ownRoot;
        context.accept();
      } else context.reject(["password"]);
    });
    client.on("ready", () => {
      client.on("session", (acceptSession) => {
        acceptSession().on("sftp", (acceptSftp) => {
          serveSftp(acceptSftp(), userRoot, faults, () => socket?.destroy(), openFiles);
        });
      });
    });
  });
  ssh.on("error", () => {});

  // Our own listener in front of ssh2's, so a connection can be refused before any SSH is spoken.
  const listener = net.createServer((socket) => {
    socket.on("error", () => {});
    if (faults.takeRefusal()) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    ssh.injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = listener.address() as net.AddressInfo;

  return {
    host: "127.0.0.1",
    port,
    hostKey,
    hostKeyPem,
    faults,
    activeConnections: () => sockets.size,
    passwordAttempts: () => passwordAttempts,
    openFiles: () => ({ ...openFiles }),
    resetOpenFilesPeak: () => {
      openFiles.peakPerConnection = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The folder a user sees as "/": root, or its userRoots entry; null when that entry would leave root. */
function rootOf(root: string, userRoots: Record<string, string> | undefined, user: string): string | null {
  if (!userRoots || !Object.hasOwn(userRoots, user)) return root;
  const own = path.resolve(root, userRoots[user]);
  return own === root || own.startsWith(root + path.sep) ? own : null;
}

interface OpenFile {
  kind: "file";
  file: FileHandle;
  path: string;
  written: number;
  dropAfter?: number | null;
  truncateAfter?: number | null;
  claimed: boolean;
}
interface OpenFolder {
  kind: "folder";
  path: string;
  entries: FileEntry[];
  /** How many entries were sent: READDIR answers in batches until EOF. */
  sent: number;
}

/** Entries per READDIR answer, to stay well inside an SSH packet. */
const READDIR_BATCH = 64;

const WRITE_FLAGS = OPEN_MODE.WRITE | OPEN_MODE.APPEND | OPEN_MODE.CREAT | OPEN_MODE.TRUNC;

/** Maps the SFTP subsystem's requests onto the root folder. */
function serveSftp(
  sftp: SFTPWrapper,
  root: string,
  faults: FaultState,
  dropConnection: () => void,
  openFiles: { now: number; peakPerConnection: number },
): void {
  const handles = new Map<number, OpenFile | OpenFolder>();
  /** Files open on this connection. */
  let open = 0;
  const opened = () => {
    open += 1;
    openFiles.now += 1;
    openFiles.peakPerConnection = Math.max(openFiles.peakPerConnection, open);
  };
  const closed = () => {
    open -= 1;
    openFiles.now -= 1;
  };
  let nextHandle = 1;
  const local = (serverPath: string) => path.join(root, serverPath);

  const newHandle = (state: OpenFile | OpenFolder): Buffer => {
    const id = nextHandle++;
    handles.set(id, state);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  };
  const lookup = (handle: Buffer) => (handle.length === 4 ? handles.get(handle.readUInt32BE(0)) : undefined);
  /**
   * The open file a READ or WRITE names (null, "Bad handle" answered, when it is not one). Its first use takes
   * the faults it will meet: a dropped connection, and for a read a truncation.
   */
  const openFile = (reqId: number, handle: Buffer, use: "read" | "write"): OpenFile | null => {
    const state = lookup(handle);
    if (state?.kind !== "file") {
      sftp.status(reqId, STATUS_CODE.FAILURE, "Bad handle");
      return null;
    }
    if (!state.claimed) {
      state.claimed = true;
      state.dropAfter = faults.takeDrop();
      if (use === "read") state.truncateAfter = faults.takeTruncation();
    }
    return state;
  };

  /** Registers a request handler: stall fault, and any file system error answered as a status. */
  const on = <A extends unknown[]>(event: string, handler: (reqId: number, ...args: A) => Promise<void>) => {
    sftp.on(event, (reqId: number, ...args: A) => {
      if (faults.takeStall()) return;
      handler(reqId, ...args).catch((error: unknown) => sftp.status(reqId, statusOf(error)));
    });
  };
  const denied = (reqId: number, ...serverPaths: string[]) => {
    if (!serverPaths.some((serverPath) => faults.isWriteDenied(serverPath))) return false;
    sftp.status(reqId, STATUS_CODE.PERMISSION_DENIED, "Permission denied");
    return true;
  };

  on("OPEN", async (reqId, filename: string, flags: number, attrs?: { mode?: number }) => {
    const serverPath = confine(filename);
    if (flags & WRITE_FLAGS && denied(reqId, serverPath)) return;
    const mode = utils.sftp.flagsToString(flags);
    if (!mode) return sftp.status(reqId, STATUS_CODE.FAILURE, "Unsupported open flags");
    // A new file takes the mode the client asks for (as OpenSSH's sftp-server does), under the umask.
    const file = await fs.open(local(serverPath), mode, attrs?.mode ?? 0o644);
    opened();
    sftp.handle(reqId, newHandle({ kind: "file", file, path: serverPath, written: 0, claimed: false }));
  });

  on("READ", async (reqId, handle: Buffer, offset: number, length: number) => {
    const state = openFile(reqId, handle, "read");
    if (!state) return;
    let wanted = faults.readLimit === null ? length : Math.min(length, faults.readLimit);
    if (state.truncateAfter != null) {
      if (offset >= state.truncateAfter) return sftp.status(reqId, STATUS_CODE.EOF);
      wanted = Math.min(wanted, state.truncateAfter - offset);
    }
    if (state.dropAfter != null && offset + wanted > state.dropAfter) return dropConnection();
    const buffer = Buffer.alloc(wanted);
    const done = faults.readStarted();
    const { bytesRead } = await state.file.read(buffer, 0, wanted, offset).finally(done);
    if (bytesRead === 0) return sftp.status(reqId, STATUS_CODE.EOF);
    sftp.data(reqId, buffer.subarray(0, bytesRead));
  });

  on("WRITE", async (reqId, handle: Buffer, offset: number, data: Buffer) => {
    const state = openFile(reqId, handle, "write");
    if (!state) return;
    if (state.dropAfter != null && state.written + data.length > state.dropAfter) {
      // Keep what "arrived" before the cut, as a real server would.
      const kept = Math.max(0, state.dropAfter - state.written);
      await state.file.write(data, 0, kept, offset);
      return dropConnection();
    }
    await state.file.write(data, 0, data.length, offset);
    state.written += data.length;
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("FSTAT", async (reqId, handle: Buffer) => {
    const state = lookup(handle);
    if (!state) return sftp.status(reqId, STATUS_CODE.FAILURE, "Bad handle");
    sftp.attrs(reqId, attributesOf(state.kind === "file" ? await state.file.stat() : await fs.stat(local(state.path))));
  });

  on("FSETSTAT", async (reqId) => sftp.status(reqId, STATUS_CODE.OK));
  on("SETSTAT", async (reqId) => sftp.status(reqId, STATUS_CODE.OK));

  on("CLOSE", async (reqId, handle: Buffer) => {
    const state = lookup(handle);
    if (!state) return sftp.status(reqId, STATUS_CODE.FAILURE, "Bad handle");
    handles.delete(handle.readUInt32BE(0));
    if (state.kind === "file") {
      closed();
      await state.file.close();
    }
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("OPENDIR", async (reqId, folder: string) => {
    const serverPath = confine(folder);
    await faults.listing(serverPath);
    const names = await fs.readdir(local(serverPath));
    const entries: FileEntry[] = [];
    for (const name of names.sort()) {
      const stats = await fs.lstat(path.join(local(serverPath), name)).catch(() => null);
      if (stats) entries.push({ filename: name, longname: longNameOf(name, stats), attrs: attributesOf(stats) });
    }
    // Hostile names, as a malicious or broken server would list them: regular files of the given size, an hour old.
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    for (const { name, size = 10 } of faults.injectedEntries(serverPath)) {
      const attrs: Attributes = { mode: 0o100644, uid: 0, gid: 0, size, atime: hourAgo, mtime: hourAgo };
      entries.push({ filename: name, longname: `-rw-r--r-- 1 0 0 ${size} Jan 01 00:00 ${name}`, attrs });
    }
    sftp.handle(reqId, newHandle({ kind: "folder", path: serverPath, entries, sent: 0 }));
  });

  on("READDIR", async (reqId, handle: Buffer) => {
    const state = lookup(handle);
    if (state?.kind !== "folder") return sftp.status(reqId, STATUS_CODE.FAILURE, "Bad handle");
    if (state.sent >= state.entries.length) return sftp.status(reqId, STATUS_CODE.EOF);
    const batch = state.entries.slice(state.sent, state.sent + READDIR_BATCH);
    state.sent += batch.length;
    sftp.name(reqId, batch);
  });

  on("STAT", async (reqId, target: string) => sftp.attrs(reqId, attributesOf(await fs.stat(local(confine(target))))));
  on("LSTAT", async (reqId, target: string) => sftp.attrs(reqId, attributesOf(await fs.lstat(local(confine(target))))));

  on("REMOVE", async (reqId, target: string) => {
    const serverPath = confine(target);
    if (denied(reqId, serverPath)) return;
    await fs.unlink(local(serverPath));
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("RENAME", async (reqId, from: string, to: string) => {
    const [source, target] = [confine(from), confine(to)];
    if (denied(reqId, source, target)) return;
    // As OpenSSH's sftp-server: SSH_FXP_RENAME never replaces an existing file.
    const targetExists = await fs.lstat(local(target)).then(
      () => true,
      () => false,
    );
    if (targetExists) return sftp.status(reqId, STATUS_CODE.FAILURE, "Target exists");
    await fs.rename(local(source), local(target));
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("MKDIR", async (reqId, folder: string) => {
    const serverPath = confine(folder);
    if (denied(reqId, serverPath)) return;
    await fs.mkdir(local(serverPath));
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("RMDIR", async (reqId, folder: string) => {
    const serverPath = confine(folder);
    if (denied(reqId, serverPath)) return;
    await fs.rmdir(local(serverPath));
    sftp.status(reqId, STATUS_CODE.OK);
  });

  on("REALPATH", async (reqId, target: string) => {
    const serverPath = confine(target);
    sftp.name(reqId, [{ filename: serverPath, longname: serverPath } as FileEntry]);
  });

  for (const unsupported of ["READLINK", "SYMLINK", "EXTENDED"]) {
    on(unsupported, async (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
  }

  sftp.on("close", () => {
    for (const state of handles.values()) {
      if (state.kind !== "file") continue;
      closed();
      void state.file.close().catch(() => {});
    }
    handles.clear();
  });
}

/** The server path a client path means, never above "/": "a/../../b" → "/b". (Symlinks are not followed out: the tests make none.) */
function confine(clientPath: string): string {
  return path.posix.resolve("/", clientPath || ".");
}

function statusOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return STATUS_CODE.NO_SUCH_FILE;
  if (code === "EACCES" || code === "EPERM") return STATUS_CODE.PERMISSION_DENIED;
  return STATUS_CODE.FAILURE;
}

function attributesOf(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

/** An "ls -l" line, as OpenSSH sends: clients read the entry type from its first character. */
function longNameOf(name: string, stats: Stats): string {
  const type = stats.isDirectory() ? "d" : stats.isSymbolicLink() ? "l" : "-";
  const permissions = ["r", "w", "x", "r", "w", "x", "r", "w", "x"].map((letter, index) => (stats.mode & (1 << (8 - index)) ? letter : "-")).join("");
  const date = stats.mtime.toUTCString().slice(5, 16);
  return `${type}${permissions} 1 ${stats.uid} ${stats.gid} ${stats.size} ${date} ${name}`;
}
