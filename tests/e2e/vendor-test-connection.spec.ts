// Test Connection on the vendor form (issue 32 item 6): "change a vendor's password and test the
// connection" is open the vendor, type the password, Test Connection, Save. The test uses the form's
// values as typed (a wrong password fails and says why), in English and German, against a loopback
// SFTP server of this file (its password is known here; the demo vendor's is random).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startSftpServer } from "@edi/transport/loopback";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";
import { dbQuery, open } from "./support";

const PASSWORD = "e2e-Connection-Pa55";
let root: string;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
const created: number[] = [];

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "e2e-test-connection-"));
  mkdirSync(path.join(root, "outbound"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
});

test.afterAll(async ({ request }) => {
  for (const id of created) await request.delete(`/api/dropship_vendor/${id}`, { data: {} });
  await sftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** A vendor on the loopback server whose stored password is an old one. */
async function vendorWithOldPassword(request: Page["request"], storeId: string): Promise<number> {
  const answer = await request.post("/api/dropship_vendor", {
    data: {
      name: `Connection ${storeId}`,
      store_id: storeId,
      enabled: 0,
      test_mode: 0,
      is_legacy: 0,
      transfer_mechanism_id: 1,
      sftp_host: "127.0.0.1",
      sftp_port: sftp.port,
      sftp_user: "vendor",
      sftp_pass: "old-Password-1",
      sftp_incoming_folder: "/outbound",
      edi_format: 1,
      edi_identifier: storeId,
      edi_qualifier: "ZZ",
      ...VENDOR_DOCUMENT_FLAGS,
    },
  });
  expect(answer.status()).toBe(200);
  const { id } = (await answer.json()) as { id: number };
  created.push(id);
  return id;
}

const storedPassword = async (id: number) => (await dbQuery<{ sftp_pass: string }>("SELECT sftp_pass FROM dropship_vendor WHERE id = $1", [id]))[0].sftp_pass;

for (const language of [
  {
    name: "English",
    query: "",
    password: "Password",
    button: "Test Connection",
    refused: "Wrong user name or password for",
    connected: (port: number) => `Connected to SFTP 127.0.0.1:${port} as vendor.`,
    save: "Save Vendor",
    saved: "Vendor saved successfully",
  },
  {
    name: "German",
    query: "&locale=de",
    password: "Passwort",
    button: "Verbindung testen",
    refused: "Falscher Benutzername oder falsches Passwort für",
    connected: (port: number) => `Verbunden mit SFTP 127.0.0.1:${port} als vendor.`,
    save: "Lieferant speichern",
    saved: "Lieferant erfolgreich gespeichert",
  },
]) {
  test(`a changed password is tested on the vendor form, then saved (${language.name})`, async ({ page }) => {
    const id = await vendorWithOldPassword(page.request, `TC${language.name.slice(0, 2).toUpperCase()}${Date.now().toString(36).slice(-5)}`);
    const before = await storedPassword(id);
    await open(page, `/dropship/vendor/edit?id=${id}${language.query}`);
    const connection = page.locator(".Polaris-Banner").filter({ hasText: "127.0.0.1" });

    // A wrong password: the failure, in the page's language.
    await page.getByLabel(language.password, { exact: true }).fill("Wrong-Password-2");
    await page.getByRole("button", { name: language.button, exact: true }).click();
    await expect(connection).toContainText(language.refused);

    // The right one: connected, listed; nothing is stored until Save.
    await page.getByLabel(language.password, { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: language.button, exact: true }).click();
    await expect(connection).toContainText(language.connected(sftp.port));
    expect(await storedPassword(id)).toBe(before);
    // The typed password is never shown back.
    await expect(page.locator("body")).not.toContainText(PASSWORD);

    await page.getByRole("button", { name: language.save, exact: true }).first().click();
    await expect(page.getByText(language.saved)).toBeVisible();
    expect(await storedPassword(id)).not.toBe(before);
  });
}

test("Test Connection with a host that cannot be one lists German field messages on the German form (422)", async ({ page }) => {
  const id = await vendorWithOldPassword(page.request, `TC422${Date.now().toString(36).slice(-5)}`);
  await open(page, `/dropship/vendor/edit?id=${id}&locale=de`);
  await page.getByLabel("Host", { exact: true }).fill("kein host!");
  await page.getByLabel("Port", { exact: true }).fill("70000");
  await page.getByLabel("Passwort", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Verbindung testen", exact: true }).click();
  const refused = page.locator(".Polaris-Banner").filter({ hasText: "Die Verbindung konnte nicht getestet werden" });
  await expect(refused.getByRole("listitem")).toHaveText([
    "Host muss ein Hostname oder eine IP-Adresse sein",
    "Port muss eine Portnummer von 1 bis 65535 sein",
  ]);
});
