// Listings are bounded (issue 28 item 2, D180): a folder of many names, or a
// server that keeps listing, costs a bounded number of names and time. Over
// SFTP the directory is read a READDIR at a time and the reading stops; over
// FTP the LIST text is bounded in bytes (an error that says so) and the names
// past the limit are left.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFtpServer, type FtpTestServer } from "../../tests/support/ftp-server";
import { type SftpTestServer, startSftpServer } from "./loopback/sftp-server";
import { TransportError } from "./errors";
import { withTransport } from "./index";
import type { ConnectionSettings } from "./types";

const PASSWORD = "pw-listing-Qz8!";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "transport-listing-"));
  mkdirSync(path.join(root, "many"));
  for (let i = 0; i < 300; i++) writeFileSync(path.join(root, "many", `file-${String(i).padStart(4, "0")}.edi`), "x");
  sftp = await startSftpServer({ root, users: { acme: PASSWORD } });
  ftp = await startFtpServer({ root, users: { acme: PASSWORD } });
});
afterAll(async () => {
  await ftp?.stop();
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

const sftpSettings = (overrides: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
  mechanism: 1,
  host: sftp.host,
  port: sftp.port,
  user: "acme",
  password: PASSWORD,
  timeoutMs: 5_000,
  ...overrides,
});
const ftpSettings = (overrides: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
  mechanism: 3,
  host: ftp.host,
  port: ftp.port,
  user: "acme",
  password: PASSWORD,
  timeoutMs: 5_000,
  ...overrides,
});

describe("SFTP listings", () => {
  it("lists a folder whole when it is within the limits", async () => {
    const listing = await withTransport(sftpSettings(), (transport) => transport.list("/many"));
    expect(listing).toHaveLength(300);
    expect(listing.cut).toBeUndefined();
  });

  it("stops at the number of names allowed, and says so", async () => {
    const listing = await withTransport(sftpSettings({ maxListedNames: 100 }), (transport) => transport.list("/many"));
    expect(listing).toHaveLength(100);
    expect(listing.cut).toEqual({ reason: "names", limit: 100 });
  });

  it("stops a listing that goes on past its time, with what it read", async () => {
    // A listing of 100,000 names the server keeps sending: read until the time is up (none allowed here), not to its end.
    sftp.faults.injectListing(
      "/many",
      Array.from({ length: 100_000 }, (_, i) => ({ name: `endless-${i}.edi` })),
    );
    try {
      const listing = await withTransport(sftpSettings({ maxListingMs: 0 }), (transport) => transport.list("/many"));
      expect(listing.cut).toEqual({ reason: "time", limit: 0 });
      expect(listing.length).toBeLessThan(1_000);
    } finally {
      sftp.faults.injectListing("/many", []);
    }
  });
});

describe("FTP listings", () => {
  it("lists a folder whole when it is within the limits", async () => {
    const listing = await withTransport(ftpSettings(), (transport) => transport.list("/many"));
    expect(listing).toHaveLength(300);
    expect(listing.cut).toBeUndefined();
  });

  it("leaves the names past the number allowed, and says so", async () => {
    const listing = await withTransport(ftpSettings({ maxListedNames: 250 }), (transport) => transport.list("/many"));
    expect(listing).toHaveLength(250);
    expect(listing.cut).toEqual({ reason: "names", limit: 250 });
  });

  it("stops a listing that does not end in its time, with a message that says so", async () => {
    // The server holds its answer to LIST for 3 s (the operation's own timeout is 5 s): the listing's 300 ms end it first.
    ftp.faults.beforeListing(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
    try {
      const error = await withTransport(ftpSettings({ maxListingMs: 300 }), (transport) => transport.list("/many")).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TransportError);
      expect((error as TransportError).message).toBe("The listing of /many did not end within 0.3 s; the connection was closed");
    } finally {
      ftp.faults.beforeListing(null);
    }
  });

  it("refuses a listing over its bytes with a message that says so", async () => {
    // 10 names allowed: 5,120 bytes of LIST text, and 300 lines are more.
    const error = await withTransport(ftpSettings({ maxListedNames: 10 }), (transport) => transport.list("/many")).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toMatch(/The listing of \/many is over 5 KB; the connection was closed/);
  });
});
