// The transport against Pure-FTPd (TLS required) and pyftpdlib (FTPS; Unix and DOS listings;
// a full disk), started privately on loopback by tests/support/system-servers.ts: the servers
// the review found faults with (issue 28). Skipped, with the reason, only where they cannot
// run; REQUIRE_SYSTEM_SERVERS=1 (set by .ci/run) turns that into a failure.
import { X509Certificate } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FtpServers, ftpServersUnavailable, startFtpServers } from "../../tests/support/system-servers";
import { sha256Fingerprint } from "./fingerprint";
import { connectTransport, withTransport } from "./index";
import type { ConnectionSettings, VendorTransport } from "./types";
import { binaryContent, transportFailure } from "./test-support";

const unavailable = ftpServersUnavailable();
const required = process.env.REQUIRE_SYSTEM_SERVERS === "1";
if (unavailable && !required) console.warn(`Skipping the tests against Pure-FTPd and pyftpdlib: ${unavailable}`);

describe.runIf(unavailable && required)("Pure-FTPd and pyftpdlib required", () => {
  it("can run here", () => {
    throw new Error(`REQUIRE_SYSTEM_SERVERS=1 but Pure-FTPd and pyftpdlib cannot run: ${unavailable}`);
  });
});

type Target =
  | "FTPS, passive (Pure-FTPd)"
  | "FTPS, active (Pure-FTPd)"
  | "FTPS, passive (pyftpdlib)"
  | "FTPS, active (pyftpdlib)"
  | "passive FTP, Unix listing (pyftpdlib)"
  | "FTP, active, DOS listing (pyftpdlib)";
const TARGETS: Target[] = [
  "FTPS, passive (Pure-FTPd)",
  "FTPS, active (Pure-FTPd)",
  "FTPS, passive (pyftpdlib)",
  "FTPS, active (pyftpdlib)",
  "passive FTP, Unix listing (pyftpdlib)",
  "FTP, active, DOS listing (pyftpdlib)",
];

const failure = (promise: Promise<unknown>, password: string) => transportFailure(promise, (error) => expect(String(error)).not.toContain(password));

describe.skipIf(unavailable)("the transport against Pure-FTPd and pyftpdlib", () => {
  let servers: FtpServers;
  let folderCount = 0;

  beforeAll(async () => {
    servers = await startFtpServers();
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  const base = (target: Target): Pick<ConnectionSettings, "mechanism" | "port" | "tls"> => {
    switch (target) {
      case "FTPS, passive (Pure-FTPd)":
        return { mechanism: 3, port: servers.pureFtpd.port, tls: true };
      case "FTPS, active (Pure-FTPd)":
        return { mechanism: 2, port: servers.pureFtpd.port, tls: true };
      case "FTPS, passive (pyftpdlib)":
        return { mechanism: 3, port: servers.pyftpdlib.tls.port, tls: true };
      case "FTPS, active (pyftpdlib)":
        return { mechanism: 2, port: servers.pyftpdlib.tls.port, tls: true };
      case "passive FTP, Unix listing (pyftpdlib)":
        return { mechanism: 3, port: servers.pyftpdlib.unix.port };
      case "FTP, active, DOS listing (pyftpdlib)":
        return { mechanism: 2, port: servers.pyftpdlib.dos.port };
    }
  };
  const settings = (target: Target, overrides: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
    ...base(target),
    host: "127.0.0.1",
    user: servers.user.name,
    password: servers.user.password,
    timeoutMs: 10_000,
    retries: 0,
    ...overrides,
  });
  /** A fresh folder per test with an inbound (holding po1.edi) and an outbound folder, owned by the test user. */
  const freshFolder = () => {
    const name = `case-${++folderCount}`;
    const local = path.join(servers.user.home, name);
    mkdirSync(path.join(local, "inbound"), { recursive: true });
    mkdirSync(path.join(local, "outbound"));
    writeFileSync(path.join(local, "inbound", "po1.edi"), "ISA*00*~");
    servers.user.own();
    return { name, local: (...parts: string[]) => path.join(local, ...parts), remote: (...parts: string[]) => path.posix.join("/", name, ...parts) };
  };

  describe.each(TARGETS)("%s", (target) => {
    const withIt = <T>(work: (transport: VendorTransport, folder: ReturnType<typeof freshFolder>) => Promise<T>) => {
      const folder = freshFolder();
      return withTransport(settings(target), (transport) => work(transport, folder));
    };

    it("lists a folder with names, sizes and types, and downloads", async () => {
      await withIt(async (t, folder) => {
        mkdirSync(folder.local("inbound", "sub"));
        servers.user.own();
        const files = await t.list(folder.remote("inbound"));
        expect(files.map(({ name, size, type }) => ({ name, size: type === "file" ? size : null, type })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
          [
            { name: "po1.edi", size: 8, type: "file" },
            { name: "sub", size: null, type: "folder" },
          ],
        );
        expect((await t.download(folder.remote("inbound", "po1.edi"))).toString()).toBe("ISA*00*~");
      });
    });

    it("uploads under a temporary name and renames it, byte for byte", async () => {
      await withIt(async (t, folder) => {
        const content = binaryContent(300_000);
        expect(await t.upload(folder.remote("outbound"), "850_0001.edi", content)).toBe(folder.remote("outbound", "850_0001.edi"));
        expect(readdirSync(folder.local("outbound"))).toEqual(["850_0001.edi"]);
        expect(readFileSync(folder.local("outbound", "850_0001.edi")).equals(content)).toBe(true);
        expect((await t.download(folder.remote("outbound", "850_0001.edi"))).equals(content)).toBe(true);
      });
    });

    it("archives into archive/, never overwriting", async () => {
      await withIt(async (t, folder) => {
        expect(await t.archive(folder.remote("inbound", "po1.edi"))).toBe(folder.remote("inbound", "archive", "po1.edi"));
        writeFileSync(folder.local("inbound", "po1.edi"), "second");
        servers.user.own();
        expect(await t.archive(folder.remote("inbound", "po1.edi"))).toMatch(/\/inbound\/archive\/po1_\d{8}-\d{6}\.edi$/);
        expect(readdirSync(folder.local("inbound", "archive"))).toHaveLength(2);
        expect(readdirSync(folder.local("inbound"))).toEqual(["archive"]);
      });
    });
  });

  it.each([3, 2] as const)(
    "pyftpdlib with TLS: 10 connections in a row all list, download and upload (mechanism %i)",
    async (mechanism) => {
      const folder = freshFolder();
      const target: Target = mechanism === 3 ? "FTPS, passive (pyftpdlib)" : "FTPS, active (pyftpdlib)";
      const outcomes: string[] = [];
      for (let attempt = 1; attempt <= 10; attempt++) {
        try {
          await withTransport(settings(target), async (t) => {
            await t.list(folder.remote("inbound"));
            await t.download(folder.remote("inbound", "po1.edi"));
            await t.upload(folder.remote("outbound"), `855_${attempt}.edi`, Buffer.from(`ack ${attempt}`));
          });
          outcomes.push("ok");
        } catch (error) {
          outcomes.push(String(error));
        }
      }
      expect(outcomes).toEqual(Array(10).fill("ok"));
      expect(readdirSync(folder.local("outbound"))).toHaveLength(10);
    },
    60_000,
  );

  it("pins pyftpdlib's self-signed certificate, and every data connection shows the same one", async () => {
    const fingerprint = sha256Fingerprint(new X509Certificate(servers.certificatePem).raw);
    expect(await withTransport(settings("FTPS, passive (pyftpdlib)"), async (t) => t.hostKey)).toBe(fingerprint);
    const folder = freshFolder();
    expect(
      await withTransport(settings("FTPS, active (pyftpdlib)", { hostKey: fingerprint }), async (t) => (await t.list(folder.remote("inbound"))).length),
    ).toBe(1);
  });

  it("Pure-FTPd requiring TLS, reached in clear: says the server requires TLS, not that the connection was lost", async () => {
    const error = await failure(connectTransport(settings("FTPS, passive (Pure-FTPd)", { tls: false })), servers.user.password);
    expect(error.kind).toBe("protocol");
    expect(error.code).toBe("transport.errors.ftps_required");
    expect(error.message).toMatch(/^ftp:\/\/127\.0\.0\.1:\d+ accepts only FTPS \(explicit TLS\): turn TLS on for this connection/);
  });

  it("a vendor's full disk (552 on STOR) says the disk is full, not that permission was denied", async () => {
    const folder = freshFolder();
    const error = await failure(
      withTransport({ ...settings("passive FTP, Unix listing (pyftpdlib)"), port: servers.pyftpdlib["disk-full"].port }, (t) =>
        t.upload(folder.remote("outbound"), "850_0001.edi", Buffer.from("ISA*00*~")),
      ),
      servers.user.password,
    );
    expect(error.code).toBe("transport.errors.disk_full");
    expect(error.message).toMatch(/^The server 127\.0\.0\.1 has no space left .*writing \/case-\d+\/outbound/);
    expect(error.message).not.toMatch(/Permission denied/);
    expect(readdirSync(folder.local("outbound"))).toEqual([]);
  });

  it("a wrong password is said as such, over TLS too", async () => {
    const error = await failure(connectTransport(settings("FTPS, passive (pyftpdlib)", { password: "wrong" })), servers.user.password);
    expect(error.kind).toBe("auth");
  });
});
