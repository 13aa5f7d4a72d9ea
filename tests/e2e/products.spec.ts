import { expect, test } from "@playwright/test";
import { dbQuery, open } from "./support";

test("the products screen lists by SKU and leads to API errors, API operations and the mappings", async ({ page }) => {
  await open(page, "/product");
  await expect(page.getByRole("heading", { name: "Products", exact: true })).toBeVisible();
  const [{ min }] = await dbQuery<{ min: string }>("SELECT min(sku) AS min FROM product");
  await expect(page.locator('tbody tr [data-column="sku"]').first()).toHaveText(min);
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM product");
  await expect(page.getByText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`)).toBeVisible();

  await page.getByPlaceholder("Search").fill("no such product anywhere");
  await expect(page.getByText("No rows match these filters")).toBeVisible();

  await page.getByRole("link", { name: "API Errors" }).click();
  await expect(page).toHaveURL(/\/product\/api\/error\/?/);
  await expect(page.getByRole("heading", { name: "Product API Errors" })).toBeVisible();
  const [latestError] = await dbQuery<{ operation: string; message: string }>(
    "SELECT operation, message FROM product_api_error ORDER BY created_at DESC, id DESC LIMIT 1",
  );
  await expect(page.locator('tbody tr [data-column="message"]').first()).toHaveText(latestError.message);

  await open(page, "/product/api/operation/");
  await expect(page.getByRole("heading", { name: "Product API Operations" })).toBeVisible();
  const [latest] = await dbQuery<{ operation: string }>("SELECT operation FROM product_api_operation ORDER BY created_at DESC, id DESC LIMIT 1");
  await expect(page.locator('tbody tr [data-column="operation"]').first()).toHaveText(latest.operation);
  await expect(page.locator('tbody tr [data-column="request"]').first()).toContainText('{"variables":');
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page).toHaveURL(/\/product$/);

  await page.getByRole("link", { name: "Category-Tags Mappings" }).click();
  await expect(page.getByRole("heading", { name: "AS400 Category to Shopify Tags Mappings" })).toBeVisible();
  const [{ first }] = await dbQuery<{ first: string }>("SELECT min(as400_category_id) AS first FROM category_tags_mapping");
  await expect(page.locator('tbody tr [data-column="as400_category_id"]').first()).toHaveText(first);
});

test("a mapping is created and edited: both fields required, 'Successfully updated mapping', back to the list", async ({ page }) => {
  const category = `E2E-${Date.now()}`;
  await open(page, "/product/category_tags_mapping");
  await page.getByRole("link", { name: "Create Mapping" }).click();
  await expect(page).toHaveURL(/\/product\/category_tags_mapping\/edit$/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Something went wrong when saving the mapping" });
  await expect(banner.getByRole("listitem")).toHaveText(["AS400 Category ID is a required field.", "Shopify Tags is a required field."]);

  await page.getByLabel("AS400 Category ID").fill(category);
  await page.getByLabel("Shopify Tags").fill("e2e, clearance");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Successfully updated mapping")).toBeVisible();
  await expect(page).toHaveURL(/\/product\/category_tags_mapping$/, { timeout: 5000 });
  const row = page.locator("tbody tr").filter({ hasText: category });
  await expect(row.locator('[data-column="shopify_tags"]')).toHaveText("e2e, clearance");

  await row.getByRole("link", { name: "Edit" }).click();
  await expect(page).toHaveURL(/\/product\/category_tags_mapping\/edit\?id=\d+/);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByLabel("AS400 Category ID")).toHaveValue(category);
  await expect(page.getByText("Unsaved changes")).toHaveCount(0);
  await page.getByLabel("Shopify Tags").fill("e2e, clearance, outlet");
  // Unsaved: the save bar shows, and leaving asks first.
  await expect(page.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("navigation").getByRole("link", { name: "Feed", exact: true }).click();
  const leave = page.getByRole("dialog", { name: "Leave page with unsaved changes?" });
  await leave.getByRole("button", { name: "Stay" }).click();
  await expect(page).toHaveURL(/\/product\/category_tags_mapping\/edit\?id=\d+/);
  await expect(page.getByLabel("Shopify Tags")).toHaveValue("e2e, clearance, outlet");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Successfully updated mapping")).toBeVisible();
  await expect(page).toHaveURL(/\/product\/category_tags_mapping$/, { timeout: 5000 });
  const [saved] = await dbQuery<{ shopify_tags: string }>("SELECT shopify_tags FROM category_tags_mapping WHERE as400_category_id = $1", [category]);
  expect(saved.shopify_tags).toBe("e2e, clearance, outlet");
});
