// is_archiving_files decides what happens to a vendor's file once it is stored.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseIncomingFile } from "../../app/dropship/vendor-connection.server";
import { withTransport } from "@edi/transport";
import { startSftpServer } from "@edi/transport/loopback";

let root: string;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
const settings = () => ({ mechanism: 1 as const, host: sftp.host, port: sftp.port, user: "v", password: "pw", hostKey: sftp.hostKey });

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "incoming-"));
  mkdirSync(path.join(root, "outbound"));
  sftp = await startSftpServer({ root, users: { v: "pw" } });
});
afterAll(async () => {
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("releasing an incoming file", () => {
  it("archives it when the vendor archives files", async () => {
    writeFileSync(path.join(root, "outbound", "856_1.edi"), "ISA...");
    const result = await withTransport(settings(), (t) => releaseIncomingFile(t, { is_archiving_files: 1 }, "/outbound/856_1.edi"));
    expect(result.archivedTo).toBe("/outbound/archive/856_1.edi");
    expect(readdirSync(path.join(root, "outbound"))).toEqual(["archive"]);
    expect(readdirSync(path.join(root, "outbound", "archive"))).toEqual(["856_1.edi"]);
  });

  it("deletes it when the vendor does not", async () => {
    writeFileSync(path.join(root, "outbound", "856_2.edi"), "ISA...");
    const result = await withTransport(settings(), (t) => releaseIncomingFile(t, { is_archiving_files: 0 }, "/outbound/856_2.edi"));
    expect(result.archivedTo).toBeNull();
    expect(existsSync(path.join(root, "outbound", "856_2.edi"))).toBe(false);
  });
});
