import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** A disabled SFTP vendor made through the API, not in test mode, our EDI identity with it under qualifier ZZ: its id. */
async function createVendor(
  page: Page,
  fields: { name: string; store_id: string; sftp_host: string; sftp_user: string; edi_format: 0 | 1; edi_identifier: string },
) {
  const data = { ...fields, enabled: 0, test_mode: 0, is_legacy: 0, transfer_mechanism_id: 1, edi_qualifier: "ZZ", ...VENDOR_DOCUMENT_FLAGS };
  const created = await page.request.post("/api/dropship_vendor", { data });
  expect(created.status()).toBe(200);
  return ((await created.json()) as { id: number }).id;
}

test("the vendor grid lists, filters and shows its empty state", async ({ page }) => {
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM dropship_vendor WHERE archived_at IS NULL");
  await open(page, "/dropship/vendor/");
  await expect(page.getByRole("heading", { name: "Dropship Vendors" })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`);
  await expect(page.locator("thead")).toContainText(
    // The spec's columns, then the 30-day scorecard's (D244), then Actions.
    "IDNameEnabledTest ModeCreated AtUpdated AtShipped On Time (30 Days)Acknowledged On Time (30 Days)Median Hours to Ship (30 Days)Actions",
  );
  const ids = (await page.locator('tbody tr [data-column="id"]').allInnerTexts()).map(Number);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));

  const [{ disabled }] = await dbQuery<{ disabled: string }>("SELECT count(*) AS disabled FROM dropship_vendor WHERE archived_at IS NULL AND enabled = 0");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Enabled" }).click();
  await page.getByRole("radio", { name: "No" }).check({ force: true });
  await expect(footer(page)).toHaveText(`Page 1 of 1 - Total Items: ${disabled}`);
  await expect(page).toHaveURL(/enabled=0/);

  await open(page, "/dropship/vendor/");
  await page.getByPlaceholder("Search").fill("no vendor has this name");
  await expect(page.getByText("No rows match these filters")).toBeVisible();

  await open(page, "/dropship/vendor/");
  await page.getByRole("link", { name: "New Vendor" }).click();
  await expect(page).toHaveURL(/\/dropship\/vendor\/edit/);
  await expect(page.getByRole("button", { name: "Delete Vendor" })).toHaveCount(0); // only for existing vendors
});

test("creates, edits (with 422 messages listed) and deletes a vendor", async ({ page }) => {
  const password = "Pa55-e2e-Secret";
  await open(page, "/dropship/vendor/edit");
  await expect(page.getByRole("heading", { name: "Edit Vendor" })).toBeVisible();
  await field(page, "Name").fill("E2E Test Vendor");
  await field(page, "Store ID").fill("DS99");
  await field(page, "Host").fill("sftp.e2e.example.com");
  await field(page, "User").fill("e2e_user");
  await field(page, "Password").fill(password);
  await field(page, "EDI Identifier").fill("E2EVENDOR");
  await field(page, "EDI Qualifier").fill("ZZ");
  await field(page, "850 Segments").fill("REF*DP*{vendor_store_id}\nMSG*Drop ship {order_number}");
  await page.getByRole("button", { name: "Save Vendor" }).click();
  await expect(page.getByText("Vendor saved successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/dropship\/vendor\/$/, { timeout: 5000 }); // after 1 s

  const [created] = await dbQuery<{ id: number; sftp_pass: string }>("SELECT id, sftp_pass FROM dropship_vendor WHERE name = 'E2E Test Vendor'");
  expect(created.sftp_pass).toMatch(/^v2:[0-9a-f]{16}:/);
  await page.getByPlaceholder("Search").fill("E2E Test Vendor");
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 1");
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(new RegExp(`/dropship/vendor/edit\\?id=${created.id}`));
  await expect(field(page, "Password")).toHaveValue("");
  await expect(
    page.getByText("A password is stored. Leave empty to keep it; type it again when you change the host, port, user, transfer mechanism or FTPS."),
  ).toBeVisible();
  expect(await page.content()).not.toContain(password);

  // Bad values: the banner lists the first message of each field.
  await field(page, "Name").fill("");
  await field(page, "Port").fill("70000");
  await field(page, "Output Element Delimiter").fill("ab");
  await page.getByRole("button", { name: "Save Vendor" }).click();
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Error while saving vendor" });
  await expect(banner).toBeVisible();
  await expect(banner.getByRole("listitem")).toHaveText([
    "Name is required",
    "Port must be a port number from 1 to 65535",
    "Output Element Delimiter must be one character that is not a letter, digit or space (or \\n, \\r\\n)",
  ]);
  await expect(page).toHaveURL(/id=/); // no redirect after an error

  await field(page, "Name").fill("E2E Vendor Renamed");
  await field(page, "Port").fill("22");
  await field(page, "Output Element Delimiter").fill("|");
  // EDI strictness (D219): lenient by default, with its help; Strict chosen here.
  await expect(field(page, "EDI Strictness")).toHaveValue("lenient");
  await expect(page.getByText(/^Lenient: a transaction set whose only faults are a length or a code/)).toBeVisible();
  await field(page, "EDI Strictness").selectOption({ label: "Strict" });
  await page.getByRole("button", { name: "Save Vendor" }).click();
  await expect(page.getByText("Vendor saved successfully")).toBeVisible();
  const [renamed] = await dbQuery<{ name: string; sftp_port: number; output_delimiter: string; sftp_pass: string; edi_strictness: string }>(
    "SELECT name, sftp_port, output_delimiter, sftp_pass, edi_strictness FROM dropship_vendor WHERE id = $1",
    [created.id],
  );
  expect(renamed).toMatchObject({
    name: "E2E Vendor Renamed",
    sftp_port: 22,
    output_delimiter: "|",
    sftp_pass: created.sftp_pass,
    edi_strictness: "strict",
  });

  // Another port with the password left empty: typed again, or the stored one would follow the vendor elsewhere (D64).
  await open(page, `/dropship/vendor/edit?id=${created.id}`);
  await field(page, "Port").fill("2222");
  await page.getByRole("button", { name: "Save Vendor" }).click();
  await expect(page.locator(".Polaris-Banner").filter({ hasText: "Error while saving vendor" }).getByRole("listitem")).toHaveText([
    "Type the password again: Port changed, and the stored password is only sent to the server it was given for",
  ]);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Save Vendor" }).click();
  await expect(page.getByText("Vendor saved successfully")).toBeVisible();
  const [moved] = await dbQuery<{ sftp_port: number; sftp_pass: string }>("SELECT sftp_port, sftp_pass FROM dropship_vendor WHERE id = $1", [created.id]);
  expect(moved.sftp_port).toBe(2222);
  expect(moved.sftp_pass).toMatch(/^v2:[0-9a-f]{16}:/);

  await open(page, `/dropship/vendor/edit?id=${created.id}`);
  await page.getByRole("button", { name: "Delete Vendor" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete Vendor" }).click();
  await expect(page.getByText("Vendor deleted successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/dropship\/vendor\/$/, { timeout: 5000 });
  expect(await dbQuery("SELECT id FROM dropship_vendor WHERE id = $1", [created.id])).toEqual([]);
});

test("shows the pinned host key, resets it and pins a fingerprint staff type (D64)", async ({ page }) => {
  const id = await createVendor(page, {
    name: "E2E Host Key Vendor",
    store_id: "DS98",
    sftp_host: "sftp.hostkey.example.com",
    sftp_user: "hk",
    edi_format: 1,
    edi_identifier: "E2EHK",
  });
  const seen = `SHA256:${Buffer.alloc(32, 6).toString("base64").replace(/=+$/, "")}`;
  const typed = `SHA256:${Buffer.alloc(32, 8).toString("base64").replace(/=+$/, "")}`;
  await dbQuery("UPDATE dropship_vendor SET sftp_host_key = $1 WHERE id = $2", [seen, id]);
  try {
    await open(page, `/dropship/vendor/edit?id=${id}`);
    await expect(field(page, "Pinned Host Key")).toHaveValue(seen);
    await expect(field(page, "Pinned Host Key")).not.toBeEditable();

    await page.getByRole("button", { name: "Reset Host Key" }).click();
    await expect(page.getByText("Host key updated")).toBeVisible();
    await expect(field(page, "Pinned Host Key")).toHaveValue("");
    await expect(page.getByText("The next SFTP connection trusts the server's key and pins it")).toBeVisible();
    expect(await dbQuery("SELECT sftp_host_key FROM dropship_vendor WHERE id = $1", [id])).toEqual([{ sftp_host_key: null }]);

    await field(page, "Fingerprint to Pin").fill("SHA256:not-a-key");
    await page.getByRole("button", { name: "Pin Fingerprint" }).click();
    await expect(page.getByText("The fingerprint must be SHA256: followed by the base64 of 32 bytes").first()).toBeVisible();
    await field(page, "Fingerprint to Pin").fill(typed);
    await page.getByRole("button", { name: "Pin Fingerprint" }).click();
    await expect(field(page, "Pinned Host Key")).toHaveValue(typed);
    expect(await dbQuery("SELECT sftp_host_key FROM dropship_vendor WHERE id = $1", [id])).toEqual([{ sftp_host_key: typed }]);
    const logs = await dbQuery<{ action: string }>("SELECT action FROM dropship_log WHERE vendor_id = $1 ORDER BY id", [id]);
    expect(logs.map((log) => log.action)).toEqual(["host_key_reset", "host_key_pinned"]);
  } finally {
    await dbQuery("DELETE FROM dropship_log WHERE vendor_id = $1", [id]);
    await page.request.delete(`/api/dropship_vendor/${id}`, { data: {} });
  }
});

test("an unknown vendor id shows the not-found page", async ({ page }) => {
  const response = await open(page, "/dropship/vendor/edit?id=987654");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("There is no page at this address")).toBeVisible();
});

test("the form shows edi_format as EDI/CSV and the read-only id and dates; a vendor with history is archived and says so (English and German)", async ({
  page,
}) => {
  const id = await createVendor(page, {
    name: "E2E Archive Vendor",
    store_id: "DS97",
    sftp_host: "sftp.archive.example.com",
    sftp_user: "ar",
    edi_format: 0,
    edi_identifier: "E2EAR",
  });
  await dbQuery(
    `INSERT INTO dropship_log (vendor_id, vendor_name, action, status, message, created_at) VALUES ($1,
    'E2E Archive Vendor', 'test', 'info', 'history', now())`,
    [id],
  );
  try {
    await open(page, `/dropship/vendor/edit?id=${id}`);
    const format = field(page, "EDI Format");
    await expect(format).toHaveValue("0");
    await expect(format.locator("option")).toHaveText(["1 EDI", "0 CSV"]);
    await expect(field(page, "ID")).toHaveValue(String(id));
    await expect(field(page, "ID")).not.toBeEditable();
    await expect(field(page, "Created At")).not.toHaveValue("");
    await expect(field(page, "Updated At")).not.toBeEditable();

    await open(page, `/dropship/vendor/edit?id=${id}&locale=de`);
    await expect(field(page, "EDI-Format").locator("option")).toHaveText(["1 EDI", "0 CSV"]);
    await expect(field(page, "Erstellt am")).not.toBeEditable();
    await page.getByRole("button", { name: "Lieferant löschen" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Lieferant löschen" }).click();
    await expect(page.getByText("Lieferant E2E Archive Vendor archiviert: Seine Dropship-Historie bleibt erhalten.", { exact: false })).toBeVisible();
    expect(await dbQuery<{ archived: boolean }>("SELECT archived_at IS NOT NULL AS archived FROM dropship_vendor WHERE id = $1", [id])).toEqual([
      { archived: true },
    ]);
  } finally {
    await dbQuery("DELETE FROM dropship_log WHERE vendor_id = $1", [id]);
    await dbQuery("DELETE FROM dropship_vendor WHERE id = $1", [id]);
  }
});

test("unsaved changes: the save bar shows, leaving asks first, Discard restores (English and German)", async ({ page }) => {
  const [vendor] = await dbQuery<{ id: number; name: string }>("SELECT id, name FROM dropship_vendor WHERE archived_at IS NULL ORDER BY id LIMIT 1");
  await open(page, `/dropship/vendor/edit?id=${vendor.id}`);
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await field(page, "Name").fill(`${vendor.name} (edited)`);
  await expect(page.getByText("Unsaved changes")).toBeVisible();

  // The save bar covers the page's header (as in the admin); the menu leads away.
  await page.getByRole("navigation").getByRole("link", { name: "Feed", exact: true }).click();
  const leave = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(/\/dropship\/vendor\/edit/);
  await expect(field(page, "Name")).toHaveValue(`${vendor.name} (edited)`);

  await page.getByRole("button", { name: "Discard" }).click();
  await expect(field(page, "Name")).toHaveValue(vendor.name);
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/dropship\/vendor\/(\?.*)?$/); // nothing unsaved: no question

  await open(page, `/dropship/vendor/edit?id=${vendor.id}&locale=de`);
  await field(page, "Name").fill(`${vendor.name} (geändert)`);
  await expect(page.getByText("Nicht gespeicherte Änderungen")).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Feeds", exact: true }).click();
  const verlassen = page.getByRole("dialog", { name: "Seite mit nicht gespeicherten Änderungen verlassen?" });
  await verlassen.getByRole("button", { name: "Seite verlassen" }).click();
  await expect(page).toHaveURL(/\/feed(\/)?(\?.*)?$/);
  expect((await dbQuery<{ name: string }>("SELECT name FROM dropship_vendor WHERE id = $1", [vendor.id]))[0].name).toBe(vendor.name);
});
