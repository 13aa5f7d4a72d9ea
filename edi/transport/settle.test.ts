// A file still being written is not taken (D60), against the loopback SFTP
// server and the FTP test server: the second listing is what tells. The
// servers' listing hook grows a file between the two listings, so nothing
// here depends on timing.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFtpServer, type FtpTestServer } from "../../tests/support/ftp-server";
import { withTransport } from "./index";
import { startSftpServer, type SftpTestServer } from "./loopback/sftp-server";
import { settledFiles } from "./settle";
import type { ConnectionSettings } from "./types";

const PASSWORD = "settle-Pa55";
let root: string;
let sftp: SftpTestServer;
let ftp: FtpTestServer;
const servers = () => [
  {
    label: "SFTP",
    faults: sftp.faults,
    settings: { mechanism: 1, host: sftp.host, port: sftp.port, user: "v", password: PASSWORD, hostKey: sftp.hostKey } as ConnectionSettings,
  },
  { label: "FTP", faults: ftp.faults, settings: { mechanism: 3, host: ftp.host, port: ftp.port, user: "v", password: PASSWORD } as ConnectionSettings },
];
const options = { minAgeMs: 60_000, pauseMs: 1 };

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "settle-"));
  sftp = await startSftpServer({ root, users: { v: PASSWORD } });
  ftp = await startFtpServer({ root, users: { v: PASSWORD } });
});
afterAll(async () => {
  await sftp?.stop();
  await ftp?.stop();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  rmSync(path.join(root, "in"), { recursive: true, force: true });
  mkdirSync(path.join(root, "in"));
});

describe.each(["SFTP", "FTP"])("settledFiles over %s", (label) => {
  const server = () => servers().find((each) => each.label === label)!;

  it("leaves a file that grows between the two listings, and takes the others", async () => {
    writeFileSync(path.join(root, "in", "856_half.edi"), "ISA*00*half");
    writeFileSync(path.join(root, "in", "846_whole.csv"), "sku,quantity\nX,5\n");
    let listings = 0;
    server().faults.beforeListing(() => {
      if (++listings === 2) appendFileSync(path.join(root, "in", "856_half.edi"), "*more of it~");
    });
    try {
      const result = await withTransport(server().settings, async (transport) => settledFiles(transport, "/in", await transport.list("/in"), options));
      expect(result.ready.map((file) => file.name)).toEqual(["846_whole.csv"]);
      expect(result.changing.map((file) => file.name)).toEqual(["856_half.edi"]);
      expect(listings).toBe(2);
    } finally {
      server().faults.beforeListing(null);
    }
  });

  it("takes a young file that the second listing shows unchanged", async () => {
    writeFileSync(path.join(root, "in", "855_new.edi"), "ISA*00*whole~");
    let listings = 0;
    server().faults.beforeListing(() => void listings++);
    try {
      const result = await withTransport(server().settings, async (transport) => settledFiles(transport, "/in", await transport.list("/in"), options));
      expect(result.ready.map((file) => file.name)).toEqual(["855_new.edi"]);
      expect(result.changing).toEqual([]);
      expect(listings).toBe(2);
    } finally {
      server().faults.beforeListing(null);
    }
  });
});

it("takes an old file at once, with one listing (SFTP gives a modification time; the FTP server lists none)", async () => {
  writeFileSync(path.join(root, "in", "810_old.edi"), "ISA*00*old~");
  const anHourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(path.join(root, "in", "810_old.edi"), anHourAgo, anHourAgo);
  let listings = 0;
  sftp.faults.beforeListing(() => void listings++);
  try {
    const settings = servers()[0].settings;
    const result = await withTransport(settings, async (transport) => settledFiles(transport, "/in", await transport.list("/in"), options));
    expect(result.ready.map((file) => file.name)).toEqual(["810_old.edi"]);
    expect(listings).toBe(1);
  } finally {
    sftp.faults.beforeListing(null);
  }
});
