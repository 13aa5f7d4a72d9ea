// A vendor created through the UI exchanges files with real loopback servers
// over each mechanism, checked from the Tools page's Transmission Test.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startFtpServer, type FtpTestServer } from "../support/ftp-server";
import { startSftpServer } from "@edi/transport/loopback";
import { open } from "./support";

const PASSWORD = "e2e-Exchange-Pa55";
let root: string;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
let ftp: FtpTestServer;

test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "e2e-vendor-"));
  mkdirSync(path.join(root, "inbound"));
  mkdirSync(path.join(root, "outbound"));
  sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  ftp = await startFtpServer({ root, users: { vendor: PASSWORD } });
});

test.afterAll(async () => {
  await sftp?.stop();
  await ftp?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function chooseVendor(page: Page, name: string) {
  const select = page.getByLabel("Vendor");
  const value = await select.locator("option", { hasText: name }).first().getAttribute("value");
  await select.selectOption(value!);
}

/** What every vendor here has: the loopback host, its user, and our EDI identity with it. */
const LOOPBACK_FIELDS = { Host: "127.0.0.1", User: "vendor", "EDI Identifier": "LOOPBACK", "EDI Qualifier": "ZZ" };

/** Makes a vendor in the New Vendor form (mechanism first, then each field by its label) and waits until it is saved. */
async function createVendorThroughForm(page: Page, fields: Record<string, string>, mechanism?: string) {
  await open(page, "/dropship/vendor/edit");
  const field = (label: string) => page.getByLabel(label, { exact: true });
  if (mechanism) await field("Transfer Mechanism").selectOption({ label: mechanism });
  for (const [label, value] of Object.entries({ ...LOOPBACK_FIELDS, ...fields })) await field(label).fill(value);
  await page.getByRole("button", { name: "Save Vendor" }).click();
  await expect(page.getByText("Vendor saved successfully")).toBeVisible();
}

for (const [mechanism, server] of [
  ["1 SFTP", "sftp"],
  ["2 FTP", "ftp"],
  ["3 Passive FTP", "ftp"],
] as const) {
  test(`a vendor made in the form exchanges files over ${mechanism}`, async ({ page }) => {
    const port = server === "sftp" ? sftp.port : ftp.port;
    const name = `Loopback ${mechanism} ${port} ${Date.now().toString(36)}`; // unique: a rerun must not pick an older vendor
    const folders = { "Incoming Folder": "/outbound", "Outcoming Folder": "/inbound" };
    await createVendorThroughForm(page, { Name: name, "Store ID": `X${port}`.slice(0, 20), Port: String(port), Password: PASSWORD, ...folders }, mechanism);

    await open(page, "/dropship/tools/");
    await expect(page.getByRole("heading", { name: "Drop Ship Tools" })).toBeVisible();
    await chooseVendor(page, name);
    await page.getByRole("button", { name: "Test Connection" }).click();
    await expect(page.getByText(`Connected to ${mechanism.slice(2)} 127.0.0.1:${port} as vendor.`)).toBeVisible();
    await page.getByRole("button", { name: "Verify Upload" }).click();
    await expect(page.getByText(/^Uploaded \/inbound\/probe-\d+-[0-9a-f]{6}\.txt \(\d+ bytes\), read it back intact, and removed it\.$/)).toBeVisible();
    expect(readdirSync(path.join(root, "inbound"))).toEqual([]);
    expect(await page.content()).not.toContain(PASSWORD);
  });
}

test("the Tools page shows a wrong password as words, not a stack", async ({ page }) => {
  const name = `Loopback Wrong Password ${Date.now().toString(36)}`;
  await createVendorThroughForm(page, { Name: name, "Store ID": "XWRONG", Port: String(sftp.port), Password: "definitely-wrong" });
  await open(page, "/dropship/tools/");
  await chooseVendor(page, name);
  await page.getByRole("button", { name: "Test Connection" }).click();
  const banner = page.locator(".Polaris-Banner");
  await expect(banner).toContainText(/wrong user name or password/i);
  await expect(banner).not.toContainText("definitely-wrong");
});
