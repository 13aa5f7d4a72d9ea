// The Stores screen (D48–D50) in local mode on the demo data: reached from the
// Sales menu; the demo shop's locations as stores under the AS400 codes of the
// demo, the vendors as dropshippers; a location added in Shopify comes in with
// location_sync and gets its AS400 source code on the edit form.
import { expect, test } from "@playwright/test";
import { badgeLabels, dbQuery, open, runToEnd } from "./support";

test("list: the shop's locations and the vendors, from the Sales menu", async ({ page }) => {
  await open(page, "/sales");
  await page.getByRole("link", { name: "Stores" }).click();
  await expect(page).toHaveURL(/\/stores$/);
  await expect(page.getByRole("heading", { name: "Stores" })).toBeVisible();

  const chicago = page.locator("tbody tr").filter({ hasText: "Store 001 - Chicago" });
  await expect(chicago.locator('[data-column="source_code"]')).toHaveText("001");
  await expect(chicago.locator('[data-column="type"]')).toHaveText("Store");
  await expect(badgeLabels(chicago.locator('[data-column="enabled"]'))).toHaveText("Active");
  const [location] = await dbQuery<{ shopify_location_id: string }>("SELECT shopify_location_id FROM inventory_source WHERE source_code = '001'");
  await expect(chicago.locator('[data-column="shopify_location_id"]')).toHaveText(location.shopify_location_id);
  await expect(chicago.getByRole("link", { name: "Edit" })).toBeVisible();

  // Dropshippers are the vendors: listed, edited on the vendor form.
  await open(page, "/stores?type=dropshipper");
  const acme = page.locator("tbody tr").filter({ hasText: "Acme Outdoor Supply" });
  await expect(acme.locator('[data-column="type"]')).toHaveText("Dropshipper");
  await expect(acme.getByRole("link", { name: "Edit" })).toHaveCount(0);
});

test("edit: a new location's default code, the form's refusals, then its AS400 source code saved", async ({ page }) => {
  const stamp = `${Date.now()}`.slice(-8);
  const name = `E2E Outlet ${stamp}`;
  // Opened in Shopify, read by the next location_sync.
  const added = await fetch(`${process.env.E2E_STAND_IN_URL}/__locations`, { method: "POST", body: JSON.stringify({ name }) });
  const { legacyResourceId } = (await added.json()) as { legacyResourceId: string };
  expect(await runToEnd(page.request, "/api/feed_run?feed_name=location_sync")).toMatchObject({ error: false, status: "finished", feed_status: "finished" });

  await open(page, `/stores?name=${encodeURIComponent(name)}`);
  const row = page.locator("tbody tr").filter({ hasText: name });
  await expect(row.locator('[data-column="source_code"]')).toHaveText(`L${legacyResourceId}`);
  await row.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(/\/stores\/edit\?id=\d+$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Edit Store" })).toBeVisible();
  await expect(page.getByLabel("Name (from Shopify)")).toHaveValue(name);
  await expect(page.getByLabel("Name (from Shopify)")).toBeDisabled();
  await expect(page.getByLabel("Shopify Location ID")).toHaveValue(legacyResourceId);
  await expect(page.getByLabel("Default Source Code")).toHaveValue(`L${legacyResourceId}`);

  const code = page.getByLabel("AS400 Source Code");
  const refused = page.locator(".Polaris-Banner").filter({ hasText: "Something went wrong when saving the store" });
  await code.fill("");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(refused.getByRole("listitem")).toHaveText(["AS400 Source Code is a required field."]);
  await code.fill("001");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(refused.getByRole("listitem")).toHaveText(["Source code 001 is already the code of Store 001 - Chicago."]);
  await code.fill("E2E 1");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(refused.getByRole("listitem")).toHaveText(["AS400 Source Code may only contain letters, digits, '-' and '_' (at most 20)."]);

  await code.fill(`E${stamp}`);
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Store saved")).toBeVisible();
  await expect(page).toHaveURL(/\/stores$/, { timeout: 5000 });
  const [saved] = await dbQuery<{ source_code: string; shopify_location_id: string }>(
    "SELECT source_code, shopify_location_id FROM inventory_source WHERE name = $1",
    [name],
  );
  expect(saved).toEqual({ source_code: `E${stamp}`, shopify_location_id: legacyResourceId });
});

test("edit: a code the assignments use cannot be changed", async ({ page }) => {
  const [store] = await dbQuery<{ id: number }>("SELECT id FROM inventory_source WHERE source_code = '001'");
  await open(page, `/stores/edit?id=${store.id}`);
  await page.getByLabel("AS400 Source Code").fill("001X");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.locator(".Polaris-Banner").filter({ hasText: "Something went wrong when saving the store" }).getByRole("listitem")).toHaveText([
    "Source code 001 cannot be changed: assignments already use it, and the AS400 knows them by it.",
  ]);
  const [still] = await dbQuery<{ source_code: string }>("SELECT source_code FROM inventory_source WHERE id = $1", [store.id]);
  expect(still.source_code).toBe("001");
});
