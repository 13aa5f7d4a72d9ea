// Issue 32 item 6 inside the admin: Test Connection on the vendor form with a changed password (a wrong
// one fails and says why, the right one connects), then Save in the admin's title bar; a German 422
// from Test Connection lists German field messages; a rejected request's revise page in German says
// its status, the vendor's reason and what Save does, and saved, the grid shows it pending.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSftpServer } from "@edi/transport/loopback";
import { badgeLabels } from "../support";
import { dbQuery, expect, test } from "./fixtures";

const PASSWORD = "e2e-Embedded-Conn-Pa55";
let root: string;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
let vendorId: number;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "e2e-embedded-connection-"));
  mkdirSync(path.join(root, "outbound"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  const storeId = `EC${Date.now().toString(36).slice(-6).toUpperCase()}`;
  // No stored password: staff type it on the form.
  [{ id: vendorId }] = await dbQuery<{ id: number }>(
    `INSERT INTO dropship_vendor (name, store_id, enabled, sftp_host, sftp_port, sftp_user, sftp_incoming_folder, edi_identifier, edi_qualifier, updated_at)
     VALUES ($1, $2, 0, '127.0.0.1', $3, 'vendor', '/outbound', $2, 'ZZ', now()) RETURNING id`,
    [`Embedded Connection ${storeId}`, storeId, sftp.port],
  );
});

test.afterAll(async () => {
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

test("a changed password is tested on the vendor form inside the admin, then saved from the title bar", async ({ admin }) => {
  const app = await admin.open(`/dropship/vendor/edit?id=${vendorId}`);
  const password = app.getByLabel("Password", { exact: true });
  const connection = app.locator(".Polaris-Banner").filter({ hasText: "127.0.0.1" });

  await password.fill("Wrong-Password-3");
  await app.getByRole("button", { name: "Test Connection", exact: true }).click();
  await expect(connection).toContainText(`Wrong user name or password for`);

  await password.fill(PASSWORD);
  await app.getByRole("button", { name: "Test Connection", exact: true }).click();
  await expect(connection).toContainText(`Connected to SFTP 127.0.0.1:${sftp.port} as vendor.`);
  expect((await dbQuery<{ sftp_pass: string | null }>("SELECT sftp_pass FROM dropship_vendor WHERE id = $1", [vendorId]))[0].sftp_pass).toBeNull();

  await admin.titleBar.getByRole("button", { name: "Save Vendor" }).click();
  await expect(app.getByText("Vendor saved successfully")).toBeVisible();
  expect((await dbQuery<{ sftp_pass: string | null }>("SELECT sftp_pass FROM dropship_vendor WHERE id = $1", [vendorId]))[0].sftp_pass).toMatch(/^v2:/);
});

test("Test Connection with a host that cannot be one answers 422 with German field messages on the German form", async ({ admin }) => {
  admin.expectErrors(/status of 422/); // Chromium logs the refused test
  const app = await admin.open(`/dropship/vendor/edit?id=${vendorId}&locale=de`);
  await app.getByLabel("Host", { exact: true }).fill("kein host!");
  await app.getByLabel("Passwort", { exact: true }).fill(PASSWORD);
  await app.getByRole("button", { name: "Verbindung testen", exact: true }).click();
  const refused = app.locator(".Polaris-Banner").filter({ hasText: "Die Verbindung konnte nicht getestet werden" });
  await expect(refused.getByRole("listitem")).toHaveText(["Host muss ein Hostname oder eine IP-Adresse sein"]);
});

test("a rejected request's revise page in German says its status, the vendor's reason and what Save does; saved, it is pending", async ({ admin }) => {
  const [request] = await dbQuery<{ id: number; po_number: string }>(
    `UPDATE dropship_request SET status = 'rejected', vendor_codes = ARRAY['IR'], vendor_note = 'Item discontinued'
      WHERE request_id = (SELECT request_id FROM dropship_request WHERE status IN ('pending', 'sent', 'acknowledged', 'rejected')
                           AND archived_at IS NULL ORDER BY request_id DESC LIMIT 1)
      RETURNING request_id AS id, po_number`,
  );
  const app = await admin.open(`/dropship/requests/revise?id=${request.id}&locale=de`);
  await expect(badgeLabels(app.locator("#revise-status"))).toHaveText("Abgelehnt");
  await expect(app.locator("#revise-vendor-reason")).toHaveText("Begründung des Lieferanten: IR · Item discontinued");
  await expect(app.locator("#revise-save-effect")).toHaveText(
    "Speichern sendet diese Anfrage erneut an den Lieferanten: ihr Status wechselt von Abgelehnt zu Ausstehend.",
  );
  await admin.titleBar.getByRole("button", { name: "Speichern" }).click();
  await expect(app.getByText("Anfrage erfolgreich aktualisiert.", { exact: false })).toBeVisible();
  const grid = await admin.open(`/dropship/requests/?po_number=${request.po_number}&locale=de`);
  await expect(badgeLabels(grid.locator('tbody tr [data-column="status"]'))).toHaveText(["Ausstehend"]);
});
