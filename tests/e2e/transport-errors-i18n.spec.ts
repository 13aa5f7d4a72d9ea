// A vendor's server that cannot be reached, tested from the Tools page: the
// banner says why in the page's language (D117), English or German, with the
// address as data inside the translated sentence.
import { createServer } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

let vendorId: number;
let port: number;

/** A loopback port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return free;
}

test.beforeAll(async ({ request }) => {
  port = await closedPort();
  const created = await request.post("/api/dropship_vendor", {
    data: {
      name: "E2E Unreachable Vendor",
      store_id: "E2EI18N",
      enabled: 0,
      test_mode: 0,
      is_legacy: 0,
      transfer_mechanism_id: 1,
      sftp_host: "127.0.0.1",
      sftp_port: port,
      sftp_user: "vendor",
      sftp_pass: "e2e-unreachable-Pa55",
      sftp_incoming_folder: "/outbound",
      edi_format: 1,
      edi_identifier: "E2EI18N",
      edi_qualifier: "ZZ",
      ...VENDOR_DOCUMENT_FLAGS,
    },
  });
  expect(created.status()).toBe(200);
  vendorId = ((await created.json()) as { id: number }).id;
});

test.afterAll(async ({ request }) => {
  await dbQuery("DELETE FROM dropship_log WHERE vendor_id = $1", [vendorId]);
  await request.delete(`/api/dropship_vendor/${vendorId}`, { data: {} });
});

async function testConnection(page: Page, path: string, vendorLabel: string, button: string) {
  await open(page, path);
  const select = page.getByLabel(vendorLabel, { exact: true });
  await expect(select.locator("option")).not.toHaveCount(1); // the vendors have loaded
  await select.selectOption(String(vendorId));
  await page.getByRole("button", { name: button, exact: true }).click();
  return page.locator(".Polaris-Banner");
}

test("Test Connection to an unreachable vendor says so in English on the English page", async ({ page }) => {
  const banner = await testConnection(page, "/dropship/tools/", "Vendor", "Test Connection");
  await expect(banner).toContainText(`E2E Unreachable Vendor: 127.0.0.1:${port} is unreachable (connection refused)`);
});

test("Test Connection to an unreachable vendor says so in German on the German page", async ({ page }) => {
  const banner = await testConnection(page, "/dropship/tools/?locale=de", "Lieferant", "Verbindung testen");
  await expect(banner).toContainText(`E2E Unreachable Vendor: 127.0.0.1:${port} ist nicht erreichbar (Verbindung abgelehnt)`);
  await expect(banner).not.toContainText("unreachable");
  await expect(banner).not.toContainText("connection refused");
});
