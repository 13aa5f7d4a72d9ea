// The AS400 exchange is configured in env and goes through the same transport.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withTransport } from "@edi/transport";
import { startLoopbackAs400, type LoopbackAs400 } from "../support/loopback-as400";

let root: string;
let sftp: LoopbackAs400;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "as400-"));
  mkdirSync(path.join(root, "eod"));
  writeFileSync(path.join(root, "eod", "EOD_20261120.csv"), "store,amount\n001,10.00\n");
  // Explicit FTPS for mechanisms 2 and 3; SFTP, encrypted anyway, ignores it.
  sftp = await startLoopbackAs400(root, { AS400_FTP_TLS: "1" });
});

afterAll(async () => {
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("AS400 connection", () => {
  it("is read from env and moves files through the vendor transport, with its pinned host key", async () => {
    const { as400ConnectionSettings } = await import("../../app/as400/connection.server");
    const settings = as400ConnectionSettings();
    // Local mode (these tests): the demo AS400 may be trusted on first use; embedded mode requires AS400_HOST_KEY or a CA.
    expect(settings).toMatchObject({
      mechanism: 1,
      host: "127.0.0.1",
      port: sftp.port,
      user: "as400",
      hostKey: sftp.hostKey,
      tls: true,
      label: "AS400",
      trustOnFirstUse: true,
    });
    const names = await withTransport(settings!, async (transport) => {
      await transport.upload("/eod", "EOD_20261121.csv", Buffer.from("store,amount\n001,12.50\n"));
      return (await transport.list("/eod")).map((file) => file.name).sort();
    });
    expect(names).toEqual(["EOD_20261120.csv", "EOD_20261121.csv"]);
  });
});
