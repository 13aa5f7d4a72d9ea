// The three mechanisms against real loopback servers: the same behaviour from each.
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import selfsigned from "selfsigned";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFtpServer } from "../../tests/support/ftp-server";
import { startSftpServer, type TransferFaults } from "./loopback/sftp-server";
import { PathError, TransportError, type TransportErrorKind } from "./errors";
import { sha256Fingerprint } from "./fingerprint";
import { connectTransport, withTransport } from "./index";
import type { ConnectionSettings, TransferMechanism, VendorTransport } from "./types";
import { binaryContent, transportFailure } from "./test-support";

const USER = "acme";
const PASSWORD = "pw-Zq7!secret-9041";

/** USER's settings for a test server, without retries; `fields` add or change the rest. */
const settingsFor = (server: { host: string; port: number }, mechanism: TransferMechanism, fields: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
  mechanism,
  host: server.host,
  port: server.port,
  user: USER,
  password: PASSWORD,
  retries: 0,
  ...fields,
});

interface RunningServer {
  host: string;
  port: number;
  faults: TransferFaults;
  activeConnections(): number;
  stop(): Promise<void>;
  /** Starts the same server again on the same port (same host key for SFTP). */
  restart(): Promise<RunningServer>;
}

async function startServer(mechanism: TransferMechanism, root: string, port?: number, hostKeyPem?: string): Promise<RunningServer> {
  const users = { [USER]: PASSWORD };
  if (mechanism === 1) {
    const server = await startSftpServer({ root, users, port, hostKeyPem });
    return { ...server, restart: () => startServer(mechanism, root, server.port, server.hostKeyPem) };
  }
  const server = await startFtpServer({ root, users, port });
  return { ...server, restart: () => startServer(mechanism, root, server.port) };
}

/** The password must not leak through any way an error gets printed or stored. */
function expectNoPassword(error: unknown) {
  const cause = (error as { cause?: unknown }).cause;
  const renderings = [String(error), JSON.stringify(error), (error as Error).stack ?? "", inspect(error, { depth: 5 })];
  if (cause !== undefined) renderings.push(String(cause), JSON.stringify(cause) ?? "", (cause as Error).stack ?? "", inspect(cause, { depth: 5 }));
  for (const text of renderings) expect(text).not.toContain(PASSWORD);
}

const failure = (promise: Promise<unknown>) => transportFailure(promise, expectNoPassword);

async function expectKind(promise: Promise<unknown>, kind: TransportErrorKind, message?: RegExp): Promise<TransportError> {
  const error = await failure(promise);
  expect({ kind: error.kind, message: error.message }).toMatchObject({ kind });
  if (message) expect(error.message).toMatch(message);
  return error;
}

async function eventually(check: () => boolean, timeoutMs = 2_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const NAMES: Record<TransferMechanism, string> = { 1: "SFTP", 2: "FTP", 3: "passive FTP" };

describe.each([1, 2, 3] as const)("transfer mechanism %i", (mechanism) => {
  let root: string;
  let server: RunningServer;
  let transport: VendorTransport | undefined;

  const settings = (overrides: Partial<ConnectionSettings> = {}) => settingsFor(server, mechanism, { timeoutMs: 3_000, retryDelayMs: 50, ...overrides });
  const connect = async (overrides?: Partial<ConnectionSettings>) => {
    transport = await connectTransport(settings(overrides));
    return transport;
  };
  const onDisk = (...parts: string[]) => path.join(root, ...parts);

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), `transport-${mechanism}-`));
    mkdirSync(onDisk("inbound"));
    mkdirSync(onDisk("outbound"));
    writeFileSync(onDisk("inbound", "po1.edi"), "ISA*00*~");
    server = await startServer(mechanism, root);
  });

  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  describe(`${NAMES[mechanism]}: file operations`, () => {
    it("lists a folder with names, paths, sizes and types", async () => {
      mkdirSync(onDisk("inbound", "sub"));
      const t = await connect();
      const files = await t.list("/inbound");
      expect(files.map(({ name, path, size, type }) => ({ name, path, size, type })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        { name: "po1.edi", path: "/inbound/po1.edi", size: 8, type: "file" },
        { name: "sub", path: "/inbound/sub", size: expect.any(Number), type: "folder" },
      ]);
      if (mechanism === 1) expect(files.find((file) => file.name === "po1.edi")?.modifiedAt).toBeInstanceOf(Date);
    });

    it("tells files, folders and missing paths apart", async () => {
      const t = await connect();
      expect(await t.exists("/inbound")).toBe("folder");
      expect(await t.exists("/inbound/po1.edi")).toBe("file");
      expect(await t.exists("/inbound/none.edi")).toBe(false);
      expect(await t.exists("/nowhere/none.edi")).toBe(false);
      expect(await t.exists("/")).toBe("folder");
    });

    it("uploads and downloads binary content byte for byte", async () => {
      const t = await connect();
      const content = binaryContent(300_000);
      expect(await t.upload("/outbound", "850_0001.edi", content)).toBe("/outbound/850_0001.edi");
      expect(readFileSync(onDisk("outbound", "850_0001.edi")).equals(content)).toBe(true);
      expect(readdirSync(onDisk("outbound"))).toEqual(["850_0001.edi"]); // no temporary file left
      // Customers' names and addresses: owner and group only (0640), whatever the server's default.
      expect((statSync(onDisk("outbound", "850_0001.edi")).mode & 0o777).toString(8)).toBe("640");
      expect((await t.download("/outbound/850_0001.edi")).equals(content)).toBe(true);
    });

    it("publishes an upload under its final name only once it is complete", async () => {
      const t = await connect();
      const content = binaryContent(4 * 1024 * 1024);
      const sizesSeen: number[] = [];
      let sawTemporaryName = false;
      // Watch the folder as a vendor polling it would, while the upload runs.
      const watcher = setInterval(() => {
        for (const name of readdirSync(onDisk("outbound"))) {
          if (name === ".big.edi.part") sawTemporaryName = true;
          if (name === "big.edi") sizesSeen.push(statSync(onDisk("outbound", name)).size);
        }
      }, 1);
      try {
        await t.upload("/outbound", "big.edi", content);
      } finally {
        clearInterval(watcher);
      }
      expect(sawTemporaryName).toBe(true);
      expect(sizesSeen.filter((size) => size !== content.length)).toEqual([]);
    });

    it("never replaces an existing file on upload: it says so, and the same bytes count as sent", async () => {
      writeFileSync(onDisk("outbound", "eod.csv"), "the AS400's own file");
      const t = await connect();
      const error = await expectKind(
        t.upload("/outbound", "eod.csv", Buffer.from("new content")),
        "protocol",
        /A file named eod\.csv is already in \/outbound/,
      );
      expect(error.code).toBe("transport.errors.already_there");
      expect(readFileSync(onDisk("outbound", "eod.csv"), "utf8")).toBe("the AS400's own file");
      // An earlier attempt of ours that published the file before the run died: the same bytes are no conflict.
      writeFileSync(onDisk("outbound", "850_1.edi"), "ISA*same~");
      expect(await t.upload("/outbound", "850_1.edi", Buffer.from("ISA*same~"))).toBe("/outbound/850_1.edi");
      expect(readdirSync(onDisk("outbound")).sort()).toEqual(["850_1.edi", "eod.csv"]);
    });

    it("removes the empty .part files that uploads cut short left in the folder, and only those", async () => {
      const old = new Date(Date.now() - 60 * 60 * 1000);
      for (const [name, content] of [
        [".lost.edi.part", ""],
        [".probe.txt.part", ""],
        [".fresh.edi.part", ""],
        [".partial.edi.part", "some bytes"],
        ["keep.part", ""],
      ] as const) {
        writeFileSync(onDisk("outbound", name), content);
        if (name !== ".fresh.edi.part") utimesSync(onDisk("outbound", name), old, old);
      }
      const t = await connect();
      await t.upload("/outbound", "new.edi", Buffer.from("x"));
      const left = readdirSync(onDisk("outbound")).sort();
      if (mechanism === 1) expect(left).toEqual([".fresh.edi.part", ".partial.edi.part", "keep.part", "new.edi"]);
      // Over FTP only a server that gives times (MLSD) lets them be told stale; none is removed otherwise.
      else expect(left).toEqual(expect.arrayContaining([".fresh.edi.part", ".partial.edi.part", "keep.part", "new.edi"]));
    });

    it("uploads and downloads an empty file", async () => {
      const t = await connect();
      await t.upload("/outbound", "empty.txt", Buffer.alloc(0));
      expect((await t.download("/outbound/empty.txt")).length).toBe(0);
    });

    it("takes paths relative to the login folder", async () => {
      const t = await connect();
      expect(await t.exists("inbound/po1.edi")).toBe("file");
      expect((await t.download("inbound/po1.edi")).toString()).toBe("ISA*00*~");
    });

    it("renames, deletes and creates folders with their parents", async () => {
      const t = await connect();
      await t.rename("/inbound/po1.edi", "/inbound/po1.done");
      expect(existsSync(onDisk("inbound", "po1.done"))).toBe(true);
      await t.makeFolder("/outbound/2024/01");
      await t.makeFolder("/outbound/2024/01"); // nothing to do the second time
      expect(await t.exists("/outbound/2024/01")).toBe("folder");
      await t.delete("/inbound/po1.done");
      expect(existsSync(onDisk("inbound", "po1.done"))).toBe(false);
    });

    it("archives into archive/, created when missing, never overwriting", async () => {
      const t = await connect();
      expect(await t.archive("/inbound/po1.edi")).toBe("/inbound/archive/po1.edi");
      writeFileSync(onDisk("inbound", "po1.edi"), "second");
      const second = await t.archive("/inbound/po1.edi");
      expect(second).toMatch(/^\/inbound\/archive\/po1_\d{8}-\d{6}\.edi$/);
      writeFileSync(onDisk("inbound", "po1.edi"), "third");
      const third = await t.archive("/inbound/po1.edi");
      expect(new Set([second, third]).size).toBe(2);
      expect(readFileSync(onDisk("inbound", "archive", "po1.edi"), "utf8")).toBe("ISA*00*~");
      expect(readdirSync(onDisk("inbound", "archive"))).toHaveLength(3);
      expect(readdirSync(onDisk("inbound"))).toEqual(["archive"]);
    });

    it("runs operations called at once one after another", async () => {
      const t = await connect();
      const results = await Promise.all([
        t.list("/inbound"),
        t.exists("/inbound/po1.edi"),
        t.download("/inbound/po1.edi"),
        t.upload("/outbound", "a.txt", Buffer.from("a")),
      ]);
      expect(results[1]).toBe("file");
      expect(results[3]).toBe("/outbound/a.txt");
    });

    it("refuses upload names that are not plain file names", async () => {
      const t = await connect();
      await expect(t.upload("/outbound", "../escape.txt", Buffer.from("x"))).rejects.toBeInstanceOf(PathError);
      await expect(t.upload("/outbound", "sub/x.txt", Buffer.from("x"))).rejects.toBeInstanceOf(PathError);
    });
  });

  describe(`${NAMES[mechanism]}: refusals`, () => {
    it("reports wrong credentials as auth, without retrying and without the password", async () => {
      const started = Date.now();
      const error = await expectKind(connectTransport(settings({ password: `${PASSWORD}-wrong`, retries: 2, retryDelayMs: 5_000 })), "auth");
      expect(error.message).toBe(`Wrong user name or password for ${mechanism === 1 ? "sftp" : "ftp"}://127.0.0.1:${server.port}`);
      expect(Date.now() - started).toBeLessThan(4_000); // no retry pause
      const labelled = await expectKind(connectTransport(settings({ user: "nobody", label: "Acme" })), "auth");
      expect(labelled.message).toMatch(/^Acme: Wrong user name or password/);
    });

    it("reports a missing folder or file as not_found", async () => {
      const t = await connect();
      await expectKind(t.list("/missing"), "not_found", /^Folder \/missing does not exist on 127\.0\.0\.1$/);
      await expectKind(t.upload("/missing", "x.edi", Buffer.from("x")), "not_found", /^Folder \/missing does not exist/);
      await expectKind(t.download("/inbound/none.edi"), "not_found", /^File \/inbound\/none\.edi does not exist/);
      await expectKind(t.delete("/inbound/none.edi"), "not_found");
      await expectKind(t.rename("/inbound/none.edi", "/inbound/x.edi"), "not_found");
      await expectKind(t.rename("/inbound/po1.edi", "/missing/x.edi"), "not_found", /^Folder \/missing does not exist/);
      await expectKind(t.archive("/inbound/none.edi"), "not_found");
      // A refusal does not spoil the connection.
      expect(await t.exists("/inbound/po1.edi")).toBe("file");
    });

    it("reports a denied write as permission", async () => {
      const t = await connect();
      server.faults.denyWrite("/inbound");
      await expectKind(t.upload("/inbound", "x.edi", Buffer.from("x")), "permission", /^Permission denied writing \/inbound on 127\.0\.0\.1$/);
      await expectKind(t.delete("/inbound/po1.edi"), "permission", /^Permission denied deleting \/inbound\/po1\.edi/);
      await expectKind(t.rename("/inbound/po1.edi", "/inbound/po2.edi"), "permission");
      await expectKind(t.makeFolder("/inbound/new"), "permission");
      await expectKind(t.archive("/inbound/po1.edi"), "permission");
      expect(readdirSync(onDisk("inbound"))).toEqual(["po1.edi"]);
      server.faults.denyWrite(null);
      await expectKind(t.download("/inbound"), "protocol", /^\/inbound on 127\.0\.0\.1 is a folder, not a file$/);
      await t.upload("/inbound", "x.edi", Buffer.from("x"));
    });
  });

  describe(`${NAMES[mechanism]}: faults`, () => {
    it("never shows a half-uploaded file under its final name", async () => {
      const t = await connect();
      server.faults.dropNextTransferAfterBytes(64 * 1024);
      await expectKind(t.upload("/outbound", "big.edi", binaryContent(512 * 1024)), "connection_lost");
      // Nothing under the final name; at most a hidden ".part" file remains.
      expect(existsSync(onDisk("outbound", "big.edi"))).toBe(false);
      const fresh = await connectTransport(settings());
      try {
        const names = (await fresh.list("/outbound")).map((file) => file.name);
        expect(names.filter((name) => name !== ".big.edi.part")).toEqual([]);
        await fresh.upload("/outbound", "big.edi", binaryContent(512 * 1024));
        expect(readFileSync(onDisk("outbound", "big.edi")).equals(binaryContent(512 * 1024))).toBe(true);
      } finally {
        await fresh.close();
      }
    });

    it("fails the operations after a lost connection, clearly", async () => {
      const t = await connect();
      server.faults.dropNextTransferAfterBytes(1024);
      writeFileSync(onDisk("inbound", "large.edi"), binaryContent(256 * 1024));
      await expectKind(t.download("/inbound/large.edi"), "connection_lost", /^The connection to 127\.0\.0\.1:\d+ was lost/);
      await expectKind(t.list("/inbound"), "connection_lost");
    });

    it("verifies the size of a download", async () => {
      writeFileSync(onDisk("inbound", "large.edi"), binaryContent(200_000));
      const t = await connect();
      server.faults.truncateNextDownloadAfterBytes(50_000);
      await expectKind(t.download("/inbound/large.edi"), "incomplete", /^Received 50000 of 200000 bytes of \/inbound\/large\.edi/);
      await expectKind(t.download("/inbound/po1.edi", 9), "incomplete", /8 of 9 bytes/);
      expect((await t.download("/inbound/large.edi", 200_000)).length).toBe(200_000);
    });

    it("stops a download over the size limit, whether the listing says so or the server sends more than it said", async () => {
      writeFileSync(onDisk("inbound", "large.edi"), binaryContent(200_000));
      const t = await connect({ maxDownloadBytes: 100_000 });
      await expectKind(
        t.download("/inbound/large.edi"),
        "too_large",
        /^\/inbound\/large\.edi on 127\.0\.0\.1 is 0\.2 MB, over the 0\.1 MB a download may take \(MAX_DOWNLOAD_MB\)$/,
      );
      // Refused before any byte moved: the connection goes on with the next file.
      expect((await t.download("/inbound/po1.edi")).toString()).toBe("ISA*00*~");
      // A size given smaller than the file: the bytes themselves are counted, and stopped at the limit
      // (an FTP transfer cut short also ends its connection).
      await expectKind(t.download("/inbound/large.edi", 1_000), "too_large", /sent more than the 0\.1 MB a download may take/);
    });

    it("times out an operation the server never answers, and drops the connection", async () => {
      const t = await connect({ timeoutMs: 400 });
      server.faults.stallNextRequest();
      const started = Date.now();
      await expectKind(t.list("/inbound"), "timeout", /did not answer within 400 ms while listing \/inbound/);
      expect(Date.now() - started).toBeLessThan(2_000);
      await expectKind(t.exists("/inbound"), "connection_lost");
    });

    it("times out a connection to a server that accepts but never speaks", async () => {
      const silent = net.createServer(() => {});
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      const { port } = silent.address() as net.AddressInfo;
      try {
        const started = Date.now();
        const error = await expectKind(connectTransport(settings({ port, timeoutMs: 300 })), "timeout", /did not answer within 300 ms/);
        expect(error.isConnectionFault).toBe(true);
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        silent.close();
      }
    });

    it("reports a stopped server as unreachable and connects again once it is back", async () => {
      await server.stop();
      await expectKind(connectTransport(settings()), "unreachable", /^127\.0\.0\.1:\d+ is unreachable \(connection refused\)$/);
      server = await server.restart();
      const t = await connect();
      expect(await t.exists("/inbound/po1.edi")).toBe("file");
    });

    it("retries while the server restarts", async () => {
      await server.stop();
      const restarting = new Promise<void>((resolve) =>
        setTimeout(async () => {
          server = await server.restart();
          resolve();
        }, 150),
      );
      const t = await connect({ retries: 4, retryDelayMs: 100 });
      await restarting;
      expect(await t.exists("/inbound")).toBe("folder");
    });

    it("succeeds within its retries when the first connections are refused", async () => {
      server.faults.refuseNextConnections(2);
      const t = await connect({ retries: 2 });
      expect(await t.exists("/inbound")).toBe("folder");
    });

    it("gives up after its retries", async () => {
      server.faults.refuseNextConnections(3);
      const error = await failure(connectTransport(settings({ retries: 2 })));
      expect(error.isConnectionFault).toBe(true);
    });
  });

  describe(`${NAMES[mechanism]}: secrets`, () => {
    it("keeps the password out of every kind of error", async () => {
      const kinds = new Set<TransportErrorKind>();
      // failure() checks String, JSON, stack and inspect of each error and of its cause.
      const collect = async (operation: Promise<unknown>) => kinds.add((await failure(operation)).kind);
      await collect(connectTransport(settings({ user: "nobody" })));
      const t = await connect();
      await collect(t.list("/missing"));
      server.faults.denyWrite("/outbound");
      await collect(t.upload("/outbound", "x.edi", Buffer.from("x")));
      server.faults.truncateNextDownloadAfterBytes(2);
      await collect(t.download("/inbound/po1.edi"));
      await collect(t.download("/inbound"));
      server.faults.stallNextRequest();
      const hung = await connect({ timeoutMs: 300 });
      await collect(hung.list("/inbound"));
      server.faults.dropNextTransferAfterBytes(1);
      await collect(t.download("/inbound/po1.edi"));
      if (mechanism === 1) await collect(connectTransport(settings({ hostKey: "SHA256:not-the-key" })));
      await server.stop();
      await collect(connectTransport(settings()));
      server = await server.restart();
      const expected: TransportErrorKind[] = ["auth", "connection_lost", "incomplete", "not_found", "permission", "protocol", "timeout", "unreachable"];
      if (mechanism === 1) expected.push("host_key_changed");
      expect([...kinds].sort()).toEqual(expected.sort());
    });
  });

  describe(`${NAMES[mechanism]}: withTransport`, () => {
    it("returns the work's result and closes the connection", async () => {
      const names = await withTransport(settings(), async (t) => (await t.list("/inbound")).map((file) => file.name));
      expect(names).toEqual(["po1.edi"]);
      await eventually(() => server.activeConnections() === 0);
    });

    it("closes the connection when the work fails", async () => {
      let used: VendorTransport | undefined;
      await expect(
        withTransport(settings(), async (t) => {
          used = t;
          await t.list("/inbound");
          throw new Error("the job failed");
        }),
      ).rejects.toThrow("the job failed");
      await eventually(() => server.activeConnections() === 0);
      await expectKind(used!.list("/inbound"), "connection_lost", /is closed/);
    });
  });
});

describe("FTP specifics", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "transport-pasv-"));
    writeFileSync(path.join(root, "a.txt"), "a");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const transferWith = async (mechanism: 2 | 3, disabledCommands: string[]) => {
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD }, disabledCommands });
    try {
      return await withTransport(settingsFor(server, mechanism, { timeoutMs: 2_000 }), async (t) => (await t.download("/a.txt")).toString());
    } finally {
      await server.stop();
    }
  };

  it("mechanism 2 is active FTP: the server connects to us (PORT), neither EPSV nor PASV is needed", async () => {
    expect(await transferWith(2, ["PASV", "EPSV"])).toBe("a");
    const error = await expectKind(transferWith(2, ["PORT", "EPRT"]), "protocol");
    expect(error.message).toMatch(
      new RegExp(
        String.raw`^127\.0\.0\.1 refused active FTP data connections \(PORT: .+\) while reading /a\.txt; ` +
          String.raw`it may allow passive mode only: choose transfer mechanism 3 \(Passive FTP\)$`,
      ),
    );
  });

  it("mechanism 3 uses PASV only, and says so when the server refuses it", async () => {
    expect(await transferWith(3, ["EPSV", "PORT", "EPRT"])).toBe("a");
    const error = await expectKind(transferWith(3, ["PASV"]), "protocol");
    expect(error.message).toMatch(
      new RegExp(
        String.raw`^127\.0\.0\.1 refused passive FTP data connections \(PASV: .+\) while reading /a\.txt; ` +
          String.raw`it may allow active mode only: choose transfer mechanism 2 \(FTP\)$`,
      ),
    );
  });

  it("checks sizes from the listing when the server lacks SIZE", async () => {
    expect(await transferWith(2, ["SIZE"])).toBe("a");
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD }, disabledCommands: ["SIZE"] });
    try {
      await withTransport(settingsFor(server, 3), async (t) => {
        expect(await t.upload("/", "b.txt", Buffer.from("bee"))).toBe("/b.txt");
        await expectKind(t.download("/none.txt"), "not_found");
      });
    } finally {
      await server.stop();
    }
  });

  it("lists many files", async () => {
    for (let index = 0; index < 150; index++) writeFileSync(path.join(root, `file-${index}.edi`), String(index));
    for (const mechanism of [1, 2] as const) {
      const server = await startServer(mechanism, root);
      try {
        const files = await withTransport(settingsFor(server, mechanism), (t) => t.list("/"));
        expect(files).toHaveLength(151);
      } finally {
        await server.stop();
      }
    }
  });
});

describe("FTPS (explicit TLS) against the in-process server", () => {
  let root: string;
  let pems: { private: string; cert: string };
  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "transport-ftps-"));
    mkdirSync(path.join(root, "inbound"));
    writeFileSync(path.join(root, "inbound", "po1.edi"), "ISA*00*~");
    pems ??= await selfsigned.generate([{ name: "commonName", value: "ftps.test.invalid" }], {
      keyType: "ec",
      notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const fingerprint = () => sha256Fingerprint(new X509Certificate(pems.cert).raw);

  it.each([2, 3] as const)("mechanism %i: logs in over TLS, moves files, pins the self-signed certificate, refuses another", async (mechanism) => {
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD }, tls: { key: pems.private, cert: pems.cert } });
    const settings = settingsFor(server, mechanism, { timeoutMs: 3_000, tls: true });
    try {
      const seen = await withTransport(settings, async (t) => {
        expect((await t.list("/inbound")).map((file) => file.name)).toEqual(["po1.edi"]);
        await t.upload("/inbound", "850.edi", binaryContent(100_000));
        expect((await t.download("/inbound/850.edi")).equals(binaryContent(100_000))).toBe(true);
        return t.hostKey;
      });
      expect(seen).toBe(fingerprint());
      expect(await withTransport({ ...settings, hostKey: fingerprint() }, (t) => t.exists("/inbound/850.edi"))).toBe("file");
      const other = `SHA256:${Buffer.alloc(32, 9).toString("base64").replace(/=+$/, "")}`;
      await expectKind(connectTransport({ ...settings, hostKey: other }), "host_key_changed", /^The TLS certificate of 127\.0\.0\.1 changed/);
    } finally {
      await server.stop();
    }
  });

  it("without trust on first use (the AS400 in embedded mode), refuses a self-signed certificate that is not pinned", async () => {
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD }, tls: { key: pems.private, cert: pems.cert } });
    const settings = settingsFor(server, 2, { tls: true, trustOnFirstUse: false });
    try {
      await expectKind(
        connectTransport(settings),
        "host_key_changed",
        new RegExp(`TLS certificate of 127\\.0\\.0\\.1 \\(${fingerprint().replace(/[+/]/g, "\\$&")}\\) is not pinned`),
      );
      expect(await withTransport({ ...settings, hostKey: fingerprint() }, (t) => t.exists("/inbound/po1.edi"))).toBe("file");
    } finally {
      await server.stop();
    }
  });

  it("says so when TLS is asked of a server without it", async () => {
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD } });
    try {
      await expectKind(connectTransport(settingsFor(server, 2, { tls: true })), "protocol", /does not offer FTPS \(explicit TLS\): AUTH TLS was refused/);
    } finally {
      await server.stop();
    }
  });

  it("takes a pin in OpenSSL's hexadecimal form (openssl x509 -fingerprint -sha256) as the same pin", async () => {
    const hex = Buffer.from(fingerprint().slice("SHA256:".length), "base64").toString("hex").toUpperCase().match(/../g)!.join(":");
    const server = await startFtpServer({ root, users: { [USER]: PASSWORD }, tls: { key: pems.private, cert: pems.cert } });
    try {
      const settings = settingsFor(server, 3, { tls: true, hostKey: hex });
      expect(await withTransport(settings, async (t) => t.hostKey)).toBe(fingerprint());
    } finally {
      await server.stop();
    }
  });
});
