// Vendors created through the API exchange files with real loopback servers
// over each mechanism, through the Tools page's Transmission Test over HTTP:
// the host key is pinned, faults come back in words, and the password never
// appears in an answer or in the server's output.
import { X509Certificate } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import selfsigned from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { followRun, runEnd } from "../support/runs";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { sha256Fingerprint } from "@edi/transport";
import { startSftpServer } from "@edi/transport/loopback";
import type { TestDatabase } from "../support/test-database";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const PASSWORD = "Loopback-Pa55-word";
let database: TestDatabase;
let app: RunningApp;
let db: AppWithDatabase["db"];
let root: string;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
let ftp: FtpTestServer;

async function createVendor(name: string, mechanism: 1 | 2 | 3, port: number, overrides: Record<string, unknown> = {}) {
  const response = await fetch(`${app.url}/api/dropship_vendor`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      name,
      store_id: `DS${mechanism}${name.length}`,
      enabled: 1,
      test_mode: 0,
      is_legacy: 0,
      transfer_mechanism_id: mechanism,
      sftp_host: "127.0.0.1",
      sftp_port: port,
      sftp_user: "vendor",
      sftp_pass: PASSWORD,
      sftp_incoming_folder: "/outbound",
      sftp_outcoming_folder: "/inbound",
      sftp_cancellation_pull_folder: "/missing-folder",
      edi_format: 1,
      edi_identifier: "LOOPBACK",
      edi_qualifier: "ZZ",
      ...VENDOR_DOCUMENT_FLAGS,
      ...overrides,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).id as number;
}

async function tool(vendorId: number, action: string) {
  const form = new FormData();
  form.set("vendor_id", String(vendorId));
  form.set("action", action);
  // Started in the background (202), followed to its end as the page does (D93).
  const { startStatus, body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit`, { method: "POST", body: form }));
  expect(JSON.stringify(body)).not.toContain(PASSWORD);
  const { status: _runStatus, ...answer } = body;
  return { status: startStatus, ...(answer as { error: boolean; message: string }) };
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "vendor-servers-"));
  for (const folder of ["outbound", "inbound"]) mkdirSync(path.join(root, folder));
  writeFileSync(path.join(root, "outbound", "856_20261121.edi"), "ISA*...");
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
  ({ database, app, db } = await startAppWithDatabase("test", { SEED_DEMO_DATA: "0", APP_SECRET_KEY: Buffer.alloc(32, 5).toString("base64") }));
}, 90_000);

afterAll(async () => {
  await stopAppWithDatabase({ db, app, database });
  await sftp?.stop();
  await ftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe.each([
  ["SFTP", 1 as const],
  ["FTP", 2 as const],
  ["Passive FTP", 3 as const],
])("Transmission Test over %s", (label, mechanism) => {
  let vendorId: number;
  const port = () => (mechanism === 1 ? sftp.port : ftp.port);

  it("connects with the saved settings", async () => {
    vendorId = await createVendor(`${label} Vendor`, mechanism, port());
    const answer = await tool(vendorId, "test-connection");
    expect(answer).toMatchObject({ status: 202, error: false });
    expect(answer.message).toContain(`Connected to ${label} 127.0.0.1:${port()} as vendor.`);
    // A login is not enough: the Incoming Folder was listed, over FTP on a data connection opened the vendor's way.
    const listed = {
      1: "Listed Incoming Folder (/outbound): 1 files.",
      2: "Listed Incoming Folder (/outbound) over an active FTP data connection (the server connected back to us): 1 files.",
      3: "Listed Incoming Folder (/outbound) over a passive FTP data connection: 1 files.",
    }[mechanism];
    expect(answer.message).toContain(listed);
    if (mechanism === 1) {
      expect(answer.message).toContain(`Its host key ${sftp.hostKey} is now pinned`);
      expect((await db.vendor.findUniqueOrThrow({ where: { id: vendorId } })).sftp_host_key).toBe(sftp.hostKey);
      expect((await tool(vendorId, "test-connection")).message).toContain("Its host key matches the pinned one.");
    }
  });

  it("lists each configured folder, naming the missing one", async () => {
    const answer = await tool(vendorId, "list-folders");
    expect(answer.error).toBe(true); // one folder is missing
    expect(answer.message).toContain("Incoming Folder (/outbound): 1 files: 856_20261121.edi");
    expect(answer.message).toContain("Outcoming Folder (/inbound): empty");
    expect(answer.message).toMatch(/Cancellation Pull Folder \(\/missing-folder\): .*does not exist/);
  });

  it("uploads a probe file, reads it back and removes it (verify-upload)", async () => {
    const answer = await tool(vendorId, "verify-upload");
    expect(answer).toMatchObject({ error: false });
    expect(answer.message).toMatch(/^Uploaded \/inbound\/probe-\d+-[0-9a-f]{6}\.txt \(\d+ bytes\), read it back intact, and removed it\.$/);
    expect(readdirSync(path.join(root, "inbound"))).toEqual([]); // nothing left behind, not even a .part
  });

  it("says so in words when the password is wrong", async () => {
    const wrong = await createVendor(`${label} Wrong Password`, mechanism, port(), { sftp_pass: "not-the-password" });
    const answer = await tool(wrong, "test-connection");
    expect(answer.error).toBe(true);
    expect(answer.message).toMatch(/wrong user name or password/i);
    expect(answer.message).not.toContain("not-the-password");
  });
});

describe("Transmission Test: data connections and FTPS", () => {
  it("fails Test Connection when the login works but the server refuses the data connection's mode", async () => {
    // A passive-only server: mechanism 2 (active FTP) logs in, then cannot list.
    const passiveOnly = await startFtpServer({ root, users: { vendor: PASSWORD }, disabledCommands: ["PORT", "EPRT"] });
    try {
      const vendorId = await createVendor("Passive Only Vendor", 2, passiveOnly.port);
      const answer = await tool(vendorId, "test-connection");
      expect(answer.error).toBe(true);
      expect(answer.message).toContain(
        `Connected to FTP 127.0.0.1:${passiveOnly.port} as vendor. Listing Incoming Folder ` +
          `(/outbound) failed: Passive Only Vendor: 127.0.0.1 refused active FTP data connections`,
      );
      expect(answer.message).toContain("choose transfer mechanism 3 (Passive FTP)");
    } finally {
      await passiveOnly.stop();
    }
  });

  it("connects over explicit FTPS when the vendor asks for it, pinning a self-signed certificate", async () => {
    const pems = await selfsigned.generate([{ name: "commonName", value: "vendor.test.invalid" }], {
      keyType: "ec",
      notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    });
    const fingerprint = sha256Fingerprint(new X509Certificate(pems.cert).raw);
    const ftps = await startFtpServer({ root, users: { vendor: PASSWORD }, tls: { key: pems.private, cert: pems.cert } });
    try {
      const vendorId = await createVendor("FTPS Vendor", 3, ftps.port);
      await db.vendor.update({ where: { id: vendorId }, data: { ftp_tls: 1 } });
      const answer = await tool(vendorId, "test-connection");
      expect(answer, JSON.stringify(answer)).toMatchObject({ error: false });
      expect(answer.message).toContain(`Connected to Passive FTP 127.0.0.1:${ftps.port} as vendor. Login and data are encrypted (FTPS).`);
      expect(answer.message).toContain(`has the fingerprint ${fingerprint} and is now pinned`);
      expect(answer.message).toContain("Listed Incoming Folder (/outbound) over a passive FTP data connection: 1 files.");
      expect((await db.vendor.findUniqueOrThrow({ where: { id: vendorId } })).sftp_host_key).toBe(fingerprint);
      expect((await tool(vendorId, "test-connection")).message).toContain("Its TLS certificate matches the pinned one.");
      expect((await tool(vendorId, "verify-upload")).error).toBe(false);
    } finally {
      await ftps.stop();
    }
  });
});

describe("Transmission Test: a failed check pins nothing", () => {
  it("neither an FTPS certificate nor an SFTP host key is pinned by a check that failed; the one that passes pins it", async () => {
    const pems = await selfsigned.generate([{ name: "commonName", value: "vendor.test.invalid" }], {
      keyType: "ec",
      notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    });
    const fingerprint = sha256Fingerprint(new X509Certificate(pems.cert).raw);
    const ftps = await startFtpServer({ root, users: { vendor: PASSWORD }, tls: { key: pems.private, cert: pems.cert } });
    try {
      const cases = [
        {
          name: "Unpinned FTPS Vendor",
          mechanism: 3 as const,
          port: ftps.port,
          key: fingerprint,
          said: `fingerprint ${fingerprint}; not pinned, as the check failed.`,
        },
        {
          name: "Unpinned SFTP Vendor",
          mechanism: 1 as const,
          port: sftp.port,
          key: sftp.hostKey,
          said: `Its host key is ${sftp.hostKey}; not pinned, as the check failed.`,
        },
      ];
      for (const { name, mechanism, port, key, said } of cases) {
        const wrongPassword = await createVendor(`${name} Wrong Password`, mechanism, port, { sftp_pass: "not-the-password" });
        const vendorId = await createVendor(name, mechanism, port, { sftp_incoming_folder: "/no-such-folder" });
        await db.vendor.updateMany({ where: { id: { in: [vendorId, wrongPassword] } }, data: { ftp_tls: mechanism === 1 ? 0 : 1 } });
        const pinned = async (id: number) => (await db.vendor.findUniqueOrThrow({ where: { id } })).sftp_host_key;

        expect((await tool(wrongPassword, "test-connection")).error).toBe(true);
        expect(await pinned(wrongPassword)).toBeNull();
        // Logged in, but the listing failed: the check failed, so nothing is trusted yet.
        const failed = await tool(vendorId, "test-connection");
        expect(failed.error).toBe(true);
        expect(failed.message).toContain(said);
        expect(failed.message).not.toContain("now pinned");
        expect(await pinned(vendorId)).toBeNull();
        expect((await tool(vendorId, "list-folders")).error).toBe(true);
        expect(await pinned(vendorId)).toBeNull();

        await db.vendor.update({ where: { id: vendorId }, data: { sftp_incoming_folder: "/outbound" } });
        const passed = await tool(vendorId, "test-connection");
        expect(passed.error, passed.message).toBe(false);
        expect(passed.message).toContain("now pinned");
        expect(await pinned(vendorId)).toBe(key);
      }
    } finally {
      await ftps.stop();
    }
  });
});

describe("Transmission Test faults", () => {
  it("refuses an SFTP server whose host key changed", async () => {
    const vendorId = await createVendor("Pinned Key Vendor", 1, sftp.port);
    await db.vendor.update({ where: { id: vendorId }, data: { sftp_host_key: "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    const attemptsBefore = sftp.passwordAttempts();
    const answer = await tool(vendorId, "test-connection");
    expect(answer.error).toBe(true);
    expect(answer.message).toMatch(/host key .* changed/i);
    expect(sftp.passwordAttempts()).toBe(attemptsBefore); // the password never reached the server
  });

  it("says a server that is gone is unreachable", async () => {
    const vendorId = await createVendor("Gone Vendor", 2, 1); // nothing listens on port 1
    const answer = await tool(vendorId, "test-connection");
    expect(answer.error).toBe(true);
    expect(answer.message).toMatch(/unreachable/i);
  });

  it("is stored as codes: a test started from an English page reads in German and French (D117)", async () => {
    const vendorId = await createVendor("Sprachen Vendor", 1, sftp.port, { sftp_pass: "not-the-password" });
    const form = new FormData();
    form.set("vendor_id", String(vendorId));
    form.set("action", "test-connection");
    const started = await fetch(`${app.url}/api/dropship_tools_submit?locale=en`, { method: "POST", body: form });
    expect(started.status).toBe(202);
    const { run_id } = (await started.json()) as { run_id: number };
    const english = await runEnd(app.url, run_id, { locale: "en" });
    expect(english.message).toBe(`Sprachen Vendor: Wrong user name or password for sftp://127.0.0.1:${sftp.port}`);
    expect((await runEnd(app.url, run_id, { locale: "de" })).message).toBe(
      `Sprachen Vendor: Falscher Benutzername oder falsches Passwort für sftp://127.0.0.1:${sftp.port}`,
    );
    expect((await runEnd(app.url, run_id, { locale: "fr" })).message).toBe(
      `Sprachen Vendor : Nom d'utilisateur ou mot de passe incorrect pour sftp://127.0.0.1:${sftp.port}`,
    );

    // A listing that works and one that fails, in one answer, in German.
    const listing = await createVendor("Ordner Vendor", 1, sftp.port);
    const listForm = new FormData();
    listForm.set("vendor_id", String(listing));
    listForm.set("action", "list-folders");
    const { body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit?locale=de`, { method: "POST", body: listForm }));
    expect(body.error).toBe(true);
    expect(body.message).toContain("Eingangsordner (/outbound): 1 Dateien: 856_20261121.edi");
    expect(body.message).toContain("Ausgangsordner (/inbound): leer");
    expect(body.message).toContain("(/missing-folder): Ordner Vendor: Der Ordner /missing-folder existiert auf 127.0.0.1 nicht");
  });

  it("answers a bad request with 422, and an unknown vendor with 404", async () => {
    const form = new FormData();
    form.set("vendor_id", "abc");
    form.set("action", "format-disk");
    const bad = await fetch(`${app.url}/api/dropship_tools_submit`, { method: "POST", body: form });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).errors).sort()).toEqual(["action", "vendor_id"]);
    expect((await tool(999_999, "test-connection")).status).toBe(404);
  });

  it("never wrote the password to the server's output", () => {
    expect(app.output()).not.toContain(PASSWORD);
  });
});
