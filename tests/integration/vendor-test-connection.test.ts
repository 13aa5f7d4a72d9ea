// Test Connection on the vendor form (issue 32 item 6) over HTTP: the form's connection as typed, in the
// background; a typed password is tried and never stored, kept with the run or answered back; a blank one
// means the stored one, which goes only to the server it was given for (D64); nothing of a test with
// unsaved settings is noted (partner contact) or pinned (host key); a new vendor can be tested before Save.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSftpServer } from "@edi/transport/loopback";
import { useAppWithDatabase } from "../support/app-with-database";
import { followRun } from "../support/runs";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const STORED = "Stored-Pa55-word";
const TYPED = "Typed-Pa55-word";
const suite = useAppWithDatabase("vendor_test_connection", { SEED_DEMO_DATA: "0", APP_SECRET_KEY: Buffer.alloc(32, 5).toString("base64") });
let root: string;
let stored: Awaited<ReturnType<typeof startSftpServer>>;
let typed: Awaited<ReturnType<typeof startSftpServer>>;
let vendorId: number;

const form = (overrides: Record<string, unknown> = {}) => ({
  name: "Connection Vendor",
  store_id: "CONN1",
  enabled: 0,
  test_mode: 0,
  is_legacy: 0,
  transfer_mechanism_id: 1,
  sftp_host: "127.0.0.1",
  sftp_port: stored.port,
  sftp_user: "vendor",
  sftp_pass: "",
  sftp_incoming_folder: "/outbound",
  edi_format: 1,
  edi_identifier: "CONN1",
  edi_qualifier: "ZZ",
  ...VENDOR_DOCUMENT_FLAGS,
  ...overrides,
});

const test = (path: string, body: Record<string, unknown>, locale = "en") =>
  fetch(`${suite.app.url}${path}?locale=${locale}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
    (started) => followRun(suite.app.url, started),
  );

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "vendor-test-connection-"));
  mkdirSync(path.join(root, "outbound"));
  stored = await startSftpServer({ root, users: { vendor: STORED } });
  typed = await startSftpServer({ root, users: { vendor: TYPED } });
  const created = await fetch(`${suite.app.url}/api/dropship_vendor`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(form({ sftp_pass: STORED })),
  });
  expect(created.status).toBe(200);
  vendorId = ((await created.json()) as { id: number }).id;
}, 60_000);

afterAll(async () => {
  await stored?.stop();
  await typed?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("Test Connection on the vendor form", () => {
  it("with the form unchanged: the stored password, as Tools tests it (contact noted, first key pinned)", async () => {
    const run = await test(`/api/dropship_vendor/${vendorId}/test_connection`, form());
    expect(run.startStatus).toBe(202);
    expect(run.body).toMatchObject({ error: false, status: "finished" });
    expect(run.body.message).toContain(`Connected to SFTP 127.0.0.1:${stored.port} as vendor.`);
    const row = await suite.db.vendor.findUniqueOrThrow({ where: { id: vendorId } });
    expect(row.sftp_host_key).toBe(stored.hostKey);
    expect(await suite.db.partnerContact.findUnique({ where: { partner: `vendor:${vendorId}` } })).not.toBeNull();
  });

  it("with a typed password for another server: tried, never stored, kept or answered; nothing noted or pinned", async () => {
    await suite.db.partnerContact.deleteMany({});
    const before = await suite.db.vendor.findUniqueOrThrow({ where: { id: vendorId } });
    const run = await test(`/api/dropship_vendor/${vendorId}/test_connection`, form({ sftp_port: typed.port, sftp_pass: TYPED }));
    expect(run.body).toMatchObject({ error: false, status: "finished" });
    expect(run.body.message).toContain(`Connected to SFTP 127.0.0.1:${typed.port} as vendor.`);
    expect(run.body.message).toContain("it is pinned at the first connection after Save");
    const after = await suite.db.vendor.findUniqueOrThrow({ where: { id: vendorId } });
    expect(after).toEqual(before);
    expect(await suite.db.partnerContact.findMany({})).toEqual([]);
    const runs = await suite.db.backgroundRun.findMany({ where: { kind: "dropship_vendor_test", action: "test-connection" } });
    expect(JSON.stringify(runs)).not.toContain(TYPED);
    expect(runs.at(-1)!.params).toMatchObject({ vendor_id: vendorId, from: "vendor_form", unsaved: true });
  });

  it("a wrong typed password fails and says so", async () => {
    const run = await test(`/api/dropship_vendor/${vendorId}/test_connection`, form({ sftp_pass: "Wrong-Pa55-word" }), "de");
    expect(run.body).toMatchObject({ error: true, status: "finished" });
    expect(run.body.message).toContain("Falscher Benutzername oder falsches Passwort");
  });

  it("refuses the stored password for another server, with the same rule as Save (422, nothing started)", async () => {
    const run = await test(`/api/dropship_vendor/${vendorId}/test_connection`, form({ sftp_port: typed.port }));
    expect(run.startStatus).toBe(422);
    expect(Object.keys((run.body as { errors: Record<string, string[]> }).errors)).toEqual(["sftp_pass"]);
  });

  it("checks only the connection: another field's problem is left to Save", async () => {
    const run = await test(`/api/dropship_vendor/${vendorId}/test_connection`, form({ edi_qualifier: "not a qualifier" }));
    expect(run.startStatus).toBe(202);
    expect(run.body).toMatchObject({ error: false });
  });

  it("tests a new vendor before it is saved, and an unknown vendor is a 404", async () => {
    const run = await test("/api/dropship_vendor/test_connection", form({ store_id: "CONN2", sftp_port: typed.port, sftp_pass: TYPED }));
    expect(run.body).toMatchObject({ error: false, status: "finished" });
    expect(await suite.db.vendor.count()).toBe(1);
    expect((await test("/api/dropship_vendor/999999/test_connection", form())).startStatus).toBe(404);
  });
});
