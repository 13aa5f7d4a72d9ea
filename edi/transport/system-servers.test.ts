// The transport against Debian's OpenSSH server and vsftpd (active only, passive only, and
// explicit FTPS), started privately on loopback by tests/support/system-servers.ts: the
// servers vendors and AS400s really run. Skipped, with the reason, only where they cannot
// run (programs missing, or not root); REQUIRE_SYSTEM_SERVERS=1 (set by .ci/run) turns
// that into a failure.
import { X509Certificate } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SystemServers, startSystemServers, systemServersUnavailable } from "../../tests/support/system-servers";
import { sha256Fingerprint } from "./fingerprint";
import { connectTransport, withTransport } from "./index";
import type { ConnectionSettings, VendorTransport } from "./types";
import { binaryContent, transportFailure } from "./test-support";

const unavailable = systemServersUnavailable();
const required = process.env.REQUIRE_SYSTEM_SERVERS === "1";
if (unavailable && !required) console.warn(`Skipping the tests against the system's sshd and vsftpd: ${unavailable}`);

describe.runIf(unavailable && required)("system servers required", () => {
  it("can run here", () => {
    throw new Error(`REQUIRE_SYSTEM_SERVERS=1 but the system's sshd and vsftpd cannot run: ${unavailable}`);
  });
});

type Target = "SFTP (OpenSSH)" | "FTP, active (vsftpd active only)" | "passive FTP (vsftpd passive only)" | "FTPS, active (vsftpd)" | "FTPS, passive (vsftpd)";
const TARGETS: Target[] = [
  "SFTP (OpenSSH)",
  "FTP, active (vsftpd active only)",
  "passive FTP (vsftpd passive only)",
  "FTPS, active (vsftpd)",
  "FTPS, passive (vsftpd)",
];

const failure = (promise: Promise<unknown>, password: string) => transportFailure(promise, (error) => expect(String(error)).not.toContain(password));

describe.skipIf(unavailable)("the transport against the system's sshd and vsftpd", () => {
  let servers: SystemServers;
  let folderCount = 0;

  beforeAll(async () => {
    servers = await startSystemServers();
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  const base = (target: Target): Pick<ConnectionSettings, "mechanism" | "port" | "tls"> => {
    switch (target) {
      case "SFTP (OpenSSH)":
        return { mechanism: 1, port: servers.sshd.port };
      case "FTP, active (vsftpd active only)":
        return { mechanism: 2, port: servers.vsftpd["active-only"].port };
      case "passive FTP (vsftpd passive only)":
        return { mechanism: 3, port: servers.vsftpd["passive-only"].port };
      case "FTPS, active (vsftpd)":
        return { mechanism: 2, port: servers.vsftpd.ftps.port, tls: true };
      case "FTPS, passive (vsftpd)":
        return { mechanism: 3, port: servers.vsftpd.ftps.port, tls: true };
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
  /** Where the server shows the user's home: "/" under vsftpd's chroot, the real path with sshd. */
  const remote = (target: Target, ...parts: string[]) => path.posix.join(target.startsWith("SFTP") ? servers.user.home : "/", ...parts);
  /** A fresh folder per test with an inbound (holding po1.edi) and an outbound folder, owned by the test user. */
  const freshFolder = () => {
    const name = `case-${++folderCount}`;
    const local = path.join(servers.user.home, name);
    mkdirSync(path.join(local, "inbound"), { recursive: true });
    mkdirSync(path.join(local, "outbound"));
    writeFileSync(path.join(local, "inbound", "po1.edi"), "ISA*00*~");
    servers.user.own();
    return { name, local: (...parts: string[]) => path.join(local, ...parts) };
  };

  describe.each(TARGETS)("%s", (target) => {
    const withIt = <T>(
      work: (transport: VendorTransport, folder: ReturnType<typeof freshFolder> & { remote: (...parts: string[]) => string }) => Promise<T>,
    ) => {
      const folder = freshFolder();
      return withTransport(settings(target), (transport) => work(transport, { ...folder, remote: (...parts) => remote(target, folder.name, ...parts) }));
    };

    it("lists a folder with names, sizes and types", async () => {
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
        expect(files.find((file) => file.name === "po1.edi")?.path).toBe(folder.remote("inbound", "po1.edi"));
      });
    });

    it("downloads, and tells files, folders and missing paths apart", async () => {
      await withIt(async (t, folder) => {
        expect((await t.download(folder.remote("inbound", "po1.edi"))).toString()).toBe("ISA*00*~");
        expect(await t.exists(folder.remote("inbound"))).toBe("folder");
        expect(await t.exists(folder.remote("inbound", "po1.edi"))).toBe("file");
        expect(await t.exists(folder.remote("inbound", "none.edi"))).toBe(false);
        expect((await failure(t.list(folder.remote("missing")), servers.user.password)).kind).toBe("not_found");
      });
    });

    it("uploads under a temporary name (the final name never shows part of it), created 0640", async () => {
      await withIt(async (t, folder) => {
        const content = binaryContent(300_000);
        const sizesSeen: number[] = [];
        const watcher = setInterval(() => {
          for (const name of readdirSync(folder.local("outbound"))) {
            if (name === "850_0001.edi") sizesSeen.push(statSync(folder.local("outbound", name)).size);
          }
        }, 1);
        try {
          expect(await t.upload(folder.remote("outbound"), "850_0001.edi", content)).toBe(folder.remote("outbound", "850_0001.edi"));
        } finally {
          clearInterval(watcher);
        }
        expect(sizesSeen.filter((size) => size !== content.length)).toEqual([]);
        expect(readdirSync(folder.local("outbound"))).toEqual(["850_0001.edi"]);
        const onDisk = statSync(folder.local("outbound", "850_0001.edi"));
        expect(readFileSync(folder.local("outbound", "850_0001.edi")).equals(content)).toBe(true);
        // Customers' names and addresses: owner and group only, though the servers' own defaults
        // (vsftpd here: file_open_mode=0666, local_umask=000) would leave it readable by all.
        expect((onDisk.mode & 0o777).toString(8)).toBe("640");
        expect(onDisk.uid).toBe(servers.user.uid);
        // An upload never replaces a file (D196): the second one fails and the first stays whole.
        await expect(t.upload(folder.remote("outbound"), "850_0001.edi", Buffer.from("second"))).rejects.toThrow(/already in/);
        expect(readFileSync(folder.local("outbound", "850_0001.edi")).equals(content)).toBe(true);
        expect(readdirSync(folder.local("outbound"))).toEqual(["850_0001.edi"]);
      });
    });

    it("moves a big file both ways byte for byte", async () => {
      await withIt(async (t, folder) => {
        const content = binaryContent(8 * 1024 * 1024 + 123);
        await t.upload(folder.remote("outbound"), "big.edi", content);
        expect(statSync(folder.local("outbound", "big.edi")).size).toBe(content.length);
        expect((await t.download(folder.remote("outbound", "big.edi"))).equals(content)).toBe(true);
      });
    }, 60_000);

    it("archives into archive/, never overwriting; renames, deletes and makes folders", async () => {
      await withIt(async (t, folder) => {
        expect(await t.archive(folder.remote("inbound", "po1.edi"))).toBe(folder.remote("inbound", "archive", "po1.edi"));
        writeFileSync(folder.local("inbound", "po1.edi"), "second");
        servers.user.own();
        expect(await t.archive(folder.remote("inbound", "po1.edi"))).toMatch(/\/inbound\/archive\/po1_\d{8}-\d{6}\.edi$/);
        expect(readdirSync(folder.local("inbound", "archive"))).toHaveLength(2);
        expect(readFileSync(folder.local("inbound", "archive", "po1.edi"), "utf8")).toBe("ISA*00*~");
        await t.makeFolder(folder.remote("outbound", "2024", "01"));
        await t.makeFolder(folder.remote("outbound", "2024", "01"));
        expect(statSync(folder.local("outbound", "2024", "01")).isDirectory()).toBe(true);
        await t.upload(folder.remote("outbound", "2024", "01"), "x.edi", Buffer.from("x"));
        await t.rename(folder.remote("outbound", "2024", "01", "x.edi"), folder.remote("outbound", "x.edi"));
        await t.delete(folder.remote("outbound", "x.edi"));
        expect(readdirSync(folder.local("outbound"))).toEqual(["2024"]);
      });
    });
  });

  describe("data connection modes: the error says what is wrong", () => {
    it("mechanism 2 (active) lists on the active-only server; mechanism 3 (passive) says the server refuses passive mode", async () => {
      const folder = freshFolder();
      const names = await withTransport(settings("FTP, active (vsftpd active only)"), async (t) =>
        (await t.list(`/${folder.name}/inbound`)).map((file) => file.name),
      );
      expect(names).toEqual(["po1.edi"]);
      const passive = await connectTransport({ ...settings("FTP, active (vsftpd active only)"), mechanism: 3 });
      try {
        // Logging in works either way: only the data connection shows the difference.
        const error = await failure(passive.list(`/${folder.name}/inbound`), servers.user.password);
        expect(error.kind).toBe("protocol");
        expect(error.message).not.toMatch(/^Permission denied/);
        expect(error.message).toBe(
          `127.0.0.1 refused passive FTP data connections (PASV: 550 Permission denied.) while listing ` +
            `/${folder.name}/inbound; it may allow active mode only: choose transfer mechanism 2 (FTP)`,
        );
      } finally {
        await passive.close();
      }
    });

    it("mechanism 2 on the passive-only server says the server refuses active mode", async () => {
      const folder = freshFolder();
      const error = await failure(
        withTransport({ ...settings("passive FTP (vsftpd passive only)"), mechanism: 2 }, (t) => t.list(`/${folder.name}/inbound`)),
        servers.user.password,
      );
      expect(error.message).toMatch(
        /^127\.0\.0\.1 refused active FTP data connections \(PORT: 550 Permission denied\.\) while listing .*choose transfer mechanism 3 \(Passive FTP\)$/,
      );
    });
  });

  describe("FTPS", () => {
    const fingerprint = () => sha256Fingerprint(new X509Certificate(servers.certificatePem).raw);

    it("pins a self-signed certificate on first use, and refuses another one", async () => {
      const seen = await withTransport(settings("FTPS, passive (vsftpd)"), async (t) => t.hostKey);
      expect(seen).toBe(fingerprint());
      expect(await withTransport(settings("FTPS, active (vsftpd)", { hostKey: fingerprint() }), async (t) => (await t.list("/")).length)).toBeGreaterThan(0);
      const other = `SHA256:${Buffer.alloc(32, 7).toString("base64").replace(/=+$/, "")}`;
      const error = await failure(connectTransport(settings("FTPS, passive (vsftpd)", { hostKey: other })), servers.user.password);
      expect(error.kind).toBe("host_key_changed");
      expect(error.message).toBe(
        `The TLS certificate of 127.0.0.1 changed: expected ${other}, got ${fingerprint()}; ` +
          `refusing to connect (if the vendor changed its certificate, clear the pinned key)`,
      );
    });

    it("says so when the server wants FTPS and TLS is off, or TLS is on and the server has none", async () => {
      const plain = await failure(connectTransport(settings("FTPS, passive (vsftpd)", { tls: false })), servers.user.password);
      expect(plain.kind).toBe("protocol");
      expect(plain.message).toMatch(/accepts only FTPS \(explicit TLS\): turn TLS on/);
      const none = await failure(connectTransport(settings("passive FTP (vsftpd passive only)", { tls: true })), servers.user.password);
      expect(none.kind).toBe("protocol");
      expect(none.message).toMatch(/does not offer FTPS \(explicit TLS\): AUTH TLS was refused/);
    });

    it("ignores tls for SFTP, which is encrypted anyway", async () => {
      expect(await withTransport(settings("SFTP (OpenSSH)", { tls: true }), async (t) => t.exists(servers.user.home))).toBe("folder");
    });
  });
});
