import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { dbQuery, open, pressAndConfirm } from "./support";

test("the menu leads to Current Special Orders: newest order first, totals in USD, View Order, and a pull that adds orders", async ({ page }) => {
  await open(page, "/special_order");
  await expect(page.getByRole("heading", { name: "Special Orders" })).toBeVisible();
  await page.getByRole("link", { name: "Current Special Orders" }).click();
  await expect(page).toHaveURL(/\/special_order\/current/);
  await expect(page.getByRole("heading", { name: "Current Special Orders" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  const [top] = await dbQuery<{ order_id: string; grand_total_purchased: string; shopify_order_id: string }>(
    "SELECT order_id, grand_total_purchased, shopify_order_id FROM special_order WHERE order_id IS NOT NULL ORDER BY order_id DESC LIMIT 1",
  );
  const firstRow = page.locator("tbody tr").first();
  await expect(firstRow.locator('[data-column="order_id"]')).toHaveText(top.order_id);
  const total = Number(top.grand_total_purchased).toLocaleString("en-US", { style: "currency", currency: "USD" });
  await expect(firstRow.locator('[data-column="grand_total_purchased"]')).toHaveText(total);
  await expect(firstRow.getByRole("link", { name: "View Order" })).toHaveAttribute("href", new RegExp(`/orders/${top.shopify_order_id}$`));

  // The demo AS400 has two special-order files waiting in local mode (unless another spec pulled them already).
  const pulledBefore = await dbQuery<{ count: string }>("SELECT count(*) FROM transmission WHERE partner = 'as400' AND transaction_set = 'special_order'");
  const before = await dbQuery<{ count: string }>("SELECT count(*) FROM special_order WHERE order_id IS NOT NULL");
  await pressAndConfirm(page, "Pull New Special Orders");
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "from /as400/special-orders" });
  await expect(banner).toBeVisible();
  if (Number(pulledBefore[0].count) === 0) {
    await expect(banner).toContainText(
      "2 new files from /as400/special-orders; 5 tickets imported; 3 orders created in Shopify; 2 special orders in error, to revise.",
    );
  }
  const created = Number(/(\d+) orders? created in Shopify/.exec((await banner.innerText()) ?? "")![1]);
  const after = await dbQuery<{ count: string }>("SELECT count(*) FROM special_order WHERE order_id IS NOT NULL");
  expect(Number(after[0].count)).toBe(Number(before[0].count) + created);
  // The grid loaded again after the pull.
  await expect(page.getByText(`Total Items: ${after[0].count}`)).toBeVisible();
});

test("errors open the revise form; the browser checks the items with the spec's messages, then saves and goes back", async ({ page }) => {
  await open(page, "/special_order/error/");
  await expect(page.getByRole("heading", { name: "Special Order Errors" })).toBeVisible();
  const [newest] = await dbQuery<{ id: number; special_order_id: number }>(
    "SELECT id, special_order_id FROM special_order_error WHERE resolved_at IS NULL ORDER BY id DESC LIMIT 1",
  );
  await expect(page.locator('tbody tr [data-column="id"]').first()).toHaveText(String(newest.id));
  await page.locator("tbody tr").first().getByRole("link", { name: "Revise" }).click();
  await expect(page).toHaveURL(new RegExp(`/special_order/revise\\?id=${newest.special_order_id}`));
  await expect(page.getByRole("heading", { name: "Revise Special Order" })).toBeVisible();

  // A ticket whose price the AS400 sent as words.
  const [broken] = await dbQuery<{ special_order_id: number; store_ticket: string }>(
    `SELECT special_order_id, store_ticket FROM special_order_error WHERE resolved_at IS NULL AND error_message =
      'Price must be a number.' ORDER BY id LIMIT 1`,
  );
  await open(page, `/special_order/revise?id=${broken.special_order_id}`);
  await expect(page.getByLabel("Store Ticket")).toBeDisabled();
  await expect(page.getByLabel("Store Ticket")).toHaveValue(broken.store_ticket);
  await expect(page.getByLabel("Error Message")).toHaveValue("Price must be a number.");
  const stateSelect = page.locator("#field-customer_address_state_code");
  for (const code of ["PQ", "NF", "AE", "IL"]) await expect(stateSelect.locator(`option[value="${code}"]`)).toHaveCount(1);

  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().includes("/api/special_order/")) saves.push(request.url());
  });
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Error while saving special order" });

  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(banner.getByRole("listitem")).toHaveText(["Price must be a number."]);
  await page.locator("#item-0-price").fill("120.00");
  await page.locator("#item-0-size").fill("");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(banner.getByRole("listitem")).toHaveText(["Size is a required field."]);
  await page.locator("#item-0-size").fill("9");
  await page.getByRole("button", { name: "Add Item" }).click();
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(banner.getByRole("listitem")).toHaveText(["SKU is a required field."]);
  expect(saves).toEqual([]); // the browser stopped every one of these

  await page
    .getByRole("button", { name: /^Remove item \d+$/ })
    .last()
    .click();
  await stateSelect.selectOption("PQ");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Special Order saved successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/special_order\/error$/, { timeout: 5000 });
  await expect(page.getByRole("heading", { name: "Special Order Errors" })).toBeVisible();
  expect(saves).toHaveLength(1);
  const [saved] = await dbQuery<{ status: string; customer_address_state_code: string; items: Array<{ price: string; size: string }> }>(
    "SELECT status, customer_address_state_code, items FROM special_order WHERE id = $1",
    [broken.special_order_id],
  );
  expect(saved).toMatchObject({ status: "created", customer_address_state_code: "PQ" });
  expect(saved.items[0]).toMatchObject({ price: "120.00", size: "9" });
});

test("the server's messages show for the fields the browser does not check", async ({ page }) => {
  const [open_] = await dbQuery<{ special_order_id: number }>("SELECT special_order_id FROM special_order_error WHERE resolved_at IS NULL ORDER BY id LIMIT 1");
  await open(page, `/special_order/revise?id=${open_.special_order_id}`);
  await page.getByLabel("Customer Name").fill("");
  // Whatever the items hold, make them pass so the server answers about the name.
  const rows = await page.locator('[id^="item-"][id$="-sku"]').count();
  for (let row = 0; row < rows; row++) {
    for (const [field, value] of [
      ["sku", "SKU-10001"],
      ["size", "9"],
      ["price", "10"],
      ["tax", "0"],
    ])
      await page.locator(`#item-${row}-${field}`).fill(value);
  }
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Error while saving special order" });
  await expect(banner.getByRole("listitem").first()).toHaveText("Customer Name is a required field.");
  await expect(page).toHaveURL(/\/special_order\/revise/);
});

test("Special Order Logs lists the pulled files newest first and downloads one", async ({ page }) => {
  await open(page, "/special_order/log/");
  await expect(page.getByRole("heading", { name: "Special Order Logs" })).toBeVisible();
  const [newest] = await dbQuery<{ id: number; file_path: string; content: Buffer }>(
    "SELECT id, file_path, content FROM special_order_log ORDER BY id DESC LIMIT 1",
  );
  const firstRow = page.locator("tbody tr").first();
  await expect(firstRow.locator('[data-column="id"]')).toHaveText(String(newest.id));
  await expect(firstRow.locator('[data-column="file_path"]')).toHaveText(newest.file_path);
  const [download] = await Promise.all([page.waitForEvent("download"), firstRow.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(newest.file_path.split("/").pop());
  expect(readFileSync((await download.path())!)).toEqual(Buffer.from(newest.content));
});
