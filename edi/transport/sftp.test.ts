// SFTP host keys: seen on first connection, pinned afterwards, refused when changed.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import ssh2 from "ssh2";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SftpTestServer, startSftpServer } from "./loopback/sftp-server";
import { TransportError } from "./errors";
import { connectTransport } from "./index";
import { sshFingerprint } from "./sftp";
import type { ConnectionSettings } from "./types";

const PASSWORD = "pw-hostkey-Zq7!";

describe("SFTP host keys", () => {
  let root: string;
  let server: SftpTestServer;
  const settings = (overrides: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
    mechanism: 1,
    host: server.host,
    port: server.port,
    user: "acme",
    password: PASSWORD,
    timeoutMs: 3_000,
    retries: 2,
    retryDelayMs: 5_000,
    ...overrides,
  });

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "transport-hostkey-"));
    server = await startSftpServer({ root, users: { acme: PASSWORD } });
  });
  afterEach(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("computes fingerprints as OpenSSH does", () => {
    // The SHA-256 of no bytes, in base64 without the "=" padding, as OpenSSH prints fingerprints.
    expect(sshFingerprint(Buffer.alloc(0))).toBe("SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU");
    expect(server.hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  it("exposes the key seen on a first connection, to pin it", async () => {
    const transport = await connectTransport(settings({ hostKey: null }));
    try {
      expect(transport.hostKey).toBe(server.hostKey);
    } finally {
      await transport.close();
    }
  });

  it("connects when the pinned key matches, however it was pasted", async () => {
    for (const pinned of [server.hostKey, server.hostKey.replace("SHA256:", ""), `${server.hostKey}=`, ` ${server.hostKey} `]) {
      const transport = await connectTransport(settings({ hostKey: pinned }));
      expect(transport.hostKey).toBe(server.hostKey);
      await transport.close();
    }
  });

  it("refuses a changed key before sending the password, without retrying", async () => {
    const other = sshFingerprint(Buffer.from("another key"));
    const started = Date.now();
    let caught: unknown;
    try {
      await connectTransport(settings({ hostKey: other }));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TransportError);
    const error = caught as TransportError;
    expect(error.kind).toBe("host_key_changed");
    expect(error.message).toBe(
      `The host key of 127.0.0.1 changed: expected ${other}, got ${server.hostKey}; refusing to connect (if the vendor changed its key, clear the pinned key)`,
    );
    expect(Date.now() - started).toBeLessThan(4_000); // no retry pause
    expect(server.passwordAttempts()).toBe(0);
    for (const text of [String(error), JSON.stringify(error), error.stack ?? "", inspect(error)]) expect(text).not.toContain(PASSWORD);
  });

  it("without trust on first use (the AS400 in embedded mode), refuses an unpinned key before sending the password, naming it", async () => {
    const refused = connectTransport(settings({ hostKey: null, trustOnFirstUse: false }));
    await expect(refused).rejects.toMatchObject({ kind: "host_key_changed" });
    await expect(refused).rejects.toThrow(`The host key of 127.0.0.1 (${server.hostKey}) is not pinned`);
    expect(server.passwordAttempts()).toBe(0);
    const transport = await connectTransport(settings({ hostKey: server.hostKey, trustOnFirstUse: false }));
    await transport.close();
  });

  it("keeps its identity across a restart with the same key", async () => {
    const port = server.port;
    const before = server.hostKey;
    await server.stop();
    server = await startSftpServer({ root, users: { acme: PASSWORD }, port, hostKeyPem: server.hostKeyPem });
    expect(server.hostKey).toBe(before);
    const transport = await connectTransport(settings({ hostKey: before }));
    await transport.close();
  });

  it("derives the fingerprint from the private key it was given", async () => {
    // An ed25519 key, as many vendors use; ssh2 cannot parse about 1 in 250 of
    // those it generates, so take the first one it can.
    let pem = "";
    let parsed: ReturnType<typeof ssh2.utils.parseKey> = new Error("no key");
    for (let attempt = 0; attempt < 20 && parsed instanceof Error; attempt++) {
      pem = ssh2.utils.generateKeyPairSync("ed25519").private;
      parsed = ssh2.utils.parseKey(pem);
    }
    if (parsed instanceof Error) throw parsed;
    const own = await startSftpServer({ root, users: { acme: PASSWORD }, hostKeyPem: pem });
    try {
      expect(own.hostKey).toBe(sshFingerprint(parsed.getPublicSSH()));
    } finally {
      await own.stop();
    }
  });
});

// Downloads keep several reads in flight (D222): waiting for each 32 KB block before asking the
// next made a 100 MB file take minutes. The file must still arrive whole and in order, also from a
// server that answers reads short.
describe("SFTP downloads", () => {
  let root: string;
  let server: SftpTestServer;

  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "transport-download-"));
    server = await startSftpServer({ root, users: { acme: PASSWORD } });
  });
  afterEach(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const download = async (name: string) => {
    const transport = await connectTransport({
      mechanism: 1,
      host: server.host,
      port: server.port,
      user: "acme",
      password: PASSWORD,
      timeoutMs: 10_000,
      retries: 0,
    });
    try {
      return await transport.download(`/${name}`);
    } finally {
      await transport.close();
    }
  };

  it("asks for several blocks at once and gets the file whole, in order", async () => {
    const content = randomBytes(3 * 1024 * 1024 + 17);
    writeFileSync(path.join(root, "big.edi"), content);
    expect((await download("big.edi")).equals(content)).toBe(true);
    expect(server.faults.mostReadsAtOnce()).toBeGreaterThan(1);
  });

  it("gets the file whole from a server that answers each read short", async () => {
    const content = randomBytes(300 * 1024 + 5);
    writeFileSync(path.join(root, "short.edi"), content);
    server.faults.shortReads(1000);
    expect((await download("short.edi")).equals(content)).toBe(true);
  });

  it("gets an empty file", async () => {
    writeFileSync(path.join(root, "empty.edi"), "");
    expect((await download("empty.edi")).length).toBe(0);
  });
});
