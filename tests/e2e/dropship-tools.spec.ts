// The Drop Ship Tools page on the demo data: Manual Utilities and Vendor
// Testing above the Transmission Test, each input where its actions need it,
// buttons waiting for a vendor (and their input), and a refused file path
// shown in the banner in words.
import { expect, test } from "@playwright/test";
import { dbQuery, open } from "./support";

test("the Tools page shows its three sections, with the inputs their actions need", async ({ page }) => {
  await open(page, "/dropship/tools/");
  await expect(page.getByRole("heading", { name: "Drop Ship Tools" })).toBeVisible();
  // The sections' headings: a Tools run that ended within the hour (another test's) shows its result in a banner above them.
  const headings = page.locator("h2:not(.Polaris-Banner *)");
  await expect(headings).toHaveText(["Manual Utilities", "Vendor Testing", "Transmission Test"]);
  for (const label of ["File path", "PO number", "SKU"]) await expect(page.getByLabel(label, { exact: true })).toBeVisible();

  const buttons = [
    "Parse 855",
    "Parse & Process 855",
    "Parse 856",
    "Parse & Process 856",
    "Parse 810",
    "Parse & Process 810",
    "Send Generated Files",
    "Receive Files",
    "Send 855 (Acknowledgement)",
    "Send 856 (Ship Notice)",
    "Send 846 (Inventory)",
    "Send 810 (Invoice)",
    "Send 997 (Functional Ack)",
    "Resend 850",
    "Generate Sample 850",
    "Test Connection",
    "List Folders",
    "Verify Upload",
  ];
  // Nothing can run before a vendor is chosen.
  for (const name of buttons) await expect(page.getByRole("button", { name, exact: true })).toBeDisabled();

  const select = page.getByLabel("Vendor", { exact: true });
  await expect(select.locator("option")).not.toHaveCount(1); // the vendors have loaded
  // A vendor not in test mode: the actions that put made-up files into its folders are off, with a note (D66).
  const [live] = await dbQuery<{ id: number; name: string }>(
    "SELECT id, name FROM dropship_vendor WHERE archived_at IS NULL AND test_mode = 0 ORDER BY id LIMIT 1",
  );
  await select.selectOption(String(live.id));
  await expect(
    page.getByText(`${live.name} is not in test mode: the actions that put made-up files into its folders are off. Resend 850 works for any vendor.`),
  ).toBeVisible();
  await page.getByLabel("PO number", { exact: true }).fill("PO100");
  await page.getByLabel("SKU", { exact: true }).fill("SKU-1");
  for (const name of [
    "Send 855 (Acknowledgement)",
    "Send 856 (Ship Notice)",
    "Send 846 (Inventory)",
    "Send 810 (Invoice)",
    "Send 997 (Functional Ack)",
    "Generate Sample 850",
  ]) {
    await expect(page.getByRole("button", { name, exact: true })).toBeDisabled();
  }
  await expect(page.getByRole("button", { name: "Resend 850", exact: true })).toBeEnabled();
  await page.getByLabel("PO number", { exact: true }).fill("");
  await page.getByLabel("SKU", { exact: true }).fill("");

  const [testing] = await dbQuery<{ id: number }>("SELECT id FROM dropship_vendor WHERE archived_at IS NULL AND test_mode = 1 ORDER BY id LIMIT 1");
  await select.selectOption(String(testing.id));
  await expect(page.getByText("is not in test mode")).toHaveCount(0);

  // Actions without input are ready; those that need one wait for it.
  for (const name of ["Send Generated Files", "Receive Files", "Send 846 (Inventory)", "Test Connection"])
    await expect(page.getByRole("button", { name, exact: true })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Parse 856", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send 856 (Ship Notice)", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Generate Sample 850", exact: true })).toBeDisabled();
  await page.getByLabel("PO number", { exact: true }).fill("PO100");
  await expect(page.getByRole("button", { name: "Send 856 (Ship Notice)", exact: true })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Parse 856", exact: true })).toBeDisabled();
  await page.getByLabel("SKU", { exact: true }).fill("SKU-1");
  await expect(page.getByRole("button", { name: "Generate Sample 850", exact: true })).toBeEnabled();
});

test("a file path leaving the vendor's folder is refused in the banner", async ({ page }) => {
  await open(page, "/dropship/tools/");
  const select = page.getByLabel("Vendor", { exact: true });
  await expect(select.locator("option")).not.toHaveCount(1);
  await select.selectOption((await select.locator("option:not([disabled])").first().getAttribute("value"))!);
  await page.getByLabel("File path", { exact: true }).fill("../etc/passwd");
  await page.getByRole("button", { name: "Parse 856", exact: true }).click();
  const banner = page.locator(".Polaris-Banner");
  await expect(banner).toContainText('The path "../etc/passwd" is not allowed: it contains "..", which could leave');
  await expect(banner).not.toContainText("Request completed successfully");

  await page.getByLabel("File path", { exact: true }).fill("/etc/passwd");
  await page.getByRole("button", { name: "Parse & Process 810", exact: true }).click();
  await expect(banner).toContainText('The path "/etc/passwd" is not allowed: it is absolute');
});
