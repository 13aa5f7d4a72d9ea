// The app with OUTBOUND_ALLOW=none (D195): a vendor host typed as a refused address is a
// 422 on the host field; one that resolves to loopback, or to the app's own database, is
// refused by Test Connection in the same words whether its port is open or closed, and
// nothing reaches the port. Saved vendor fields that would leak a password or put a
// vendor's file among the AS400's own are refused too (D196, D198).
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningApp } from "../support/app-server";
import { startAppWithDatabase, stopAppWithDatabase, type AppWithDatabase } from "../support/app-with-database";
import { followRun } from "../support/runs";
import type { TestDatabase } from "../support/test-database";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const PASSWORD = "Outbound-Pa55-word";
let database: TestDatabase;
let app: RunningApp;
let db: AppWithDatabase["db"];
/** Counts connections: whatever reaches it was let through. */
let listener: net.Server;
let accepted = 0;
let closedPort: number;

const vendorBody = (name: string, fields: Record<string, unknown>) => ({
  name,
  store_id: `OB${name.length}`,
  enabled: 1,
  test_mode: 0,
  is_legacy: 0,
  transfer_mechanism_id: 1,
  sftp_host: "localhost",
  sftp_port: 22,
  sftp_user: "vendor",
  sftp_pass: PASSWORD,
  sftp_incoming_folder: "/outbound",
  sftp_outcoming_folder: "/inbound",
  edi_format: 1,
  edi_identifier: "OUTBOUND",
  edi_qualifier: "ZZ",
  ...VENDOR_DOCUMENT_FLAGS,
  ...fields,
});

const save = (name: string, fields: Record<string, unknown>) =>
  fetch(`${app.url}/api/dropship_vendor`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(vendorBody(name, fields)) });

async function testConnection(vendorId: number) {
  const form = new FormData();
  form.set("vendor_id", String(vendorId));
  form.set("action", "test-connection");
  const { body } = await followRun(app.url, await fetch(`${app.url}/api/dropship_tools_submit`, { method: "POST", body: form }));
  const { error, message } = body as { error: boolean; message: string };
  return { error, message };
}

beforeAll(async () => {
  listener = net.createServer((socket) => {
    accepted += 1;
    socket.end("SSH-2.0-InternalService_1.0 secret-banner\r\n");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  ({ database, app, db } = await startAppWithDatabase("outbound", {
    SEED_DEMO_DATA: "0",
    APP_SECRET_KEY: Buffer.alloc(32, 6).toString("base64"),
    OUTBOUND_ALLOW: "none",
  }));
}, 90_000);

afterAll(async () => {
  await stopAppWithDatabase({ db, app, database });
  await new Promise<void>((resolve) => listener.close(() => resolve()));
});

describe("outbound policy without OUTBOUND_ALLOW", () => {
  it("refuses a host typed as a loopback or link-local address on save, on the host field", async () => {
    for (const [host, reason] of [
      ["127.0.0.1", "a loopback address"],
      ["169.254.169.254", "a link-local address"],
      ["::1", "a loopback address"],
    ]) {
      const refused = await save(`Typed ${host}`, { sftp_host: host });
      expect(refused.status, host).toBe(422);
      expect((await refused.json()).errors, host).toEqual({
        sftp_host: [`Host is an address the app may not connect to (${reason}); OUTBOUND_ALLOW can allow it`],
      });
    }
  });

  it("refuses a host that resolves to loopback or to the database, the same open or closed, reaching nothing", async () => {
    const created = await save("Resolved Loopback", { sftp_host: "localhost", sftp_port: (listener.address() as net.AddressInfo).port });
    expect(created.status).toBe(200);
    const { id } = (await created.json()) as { id: number };
    const open = await testConnection(id);
    await db.vendor.update({ where: { id }, data: { sftp_port: closedPort } });
    const closed = await testConnection(id);
    expect(open).toEqual({ error: true, message: closed.message });
    expect(closed.error).toBe(true);
    expect(open.message).toBe("Resolved Loopback: localhost is not a server the app may connect to (a loopback address); OUTBOUND_ALLOW can allow it");
    expect(open.message).not.toContain("secret-banner");

    const databasePort = Number(new URL(database.url).port);
    await db.vendor.update({ where: { id }, data: { sftp_port: databasePort } });
    const toDatabase = await testConnection(id);
    expect(toDatabase).toMatchObject({ error: true });
    expect(toDatabase.message).toBe(
      "Resolved Loopback: localhost is not a server the app may connect to (the app's own database); OUTBOUND_ALLOW can allow it",
    );
    expect(accepted).toBe(0);
  });

  it("refuses a typed password inside the host, the user or a folder", async () => {
    const refused = await save("Password Folder", { sftp_incoming_folder: `/in/${PASSWORD}`, sftp_user: `u${PASSWORD}` });
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors).toEqual({
      sftp_user: ["User must not contain the password"],
      sftp_incoming_folder: ["Incoming Folder must not contain the password"],
    });
  });

  it("takes AS400 copy folders only inside their set's root, written relative to it", async () => {
    for (const bad of ["/as400/realtime/sales", "/", "../realtime/sales", "ACME/../../realtime", "a\\b", "AC\u0000ME", "a//b"]) {
      const refused = await save("AS400 Paths", { "846_as400_filepath": bad });
      expect(refused.status, JSON.stringify(bad)).toBe(422);
      expect(Object.keys((await refused.json()).errors), JSON.stringify(bad)).toEqual(["846_as400_filepath"]);
    }
    const refused = await save("AS400 Paths", { "810_as400_filepath": "/as400/invoices" });
    expect((await refused.json()).errors["810_as400_filepath"][0]).toContain("must be a folder inside /as400/invoices on the AS400");
    const saved = await save("AS400 Paths", { "846_as400_filepath": "ACME/stock", "810_as400_filepath": "." });
    expect(saved.status).toBe(200);
  });
});
