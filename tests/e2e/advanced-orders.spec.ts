// Advanced Order Summary (spec 000 §2) on the demo seed: columns, a debounced
// text filter, a sort, paging from the URL, the empty state, 'View All Orders',
// saved views with the naming rules, and the silent failure of a load.
import { expect, test, type Page } from "@playwright/test";
import { clickAction, dbQuery, failRequests, open } from "./support";

const COLUMNS = [
  "Order ID",
  "Shopify Order ID",
  "Purchase Date",
  "Updated At",
  "Updated At (Shopify)",
  "Customer Email",
  "Bill To Name",
  "Ship To Name",
  "SKUs",
  "Grand Total (Purchased)",
  "Magento Status",
  "Shopify Fulfillment Status",
  "Shopify Financial Status",
  "Billing Address",
  "Shipping Address",
  "Marketplace Source",
  "Marketplace Order ID",
  "CA Site Order ID",
  "CA Order ID",
  "Refer Source",
  "Allocated Sources",
  "Gift Card Used?",
  "View Order",
];

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+\+?$/);
const cells = (page: Page, column: string) => page.locator(`tbody tr [data-column="${column}"]`).allInnerTexts();
const newest = (offset = 0) =>
  dbQuery<{ order_id: string }>("SELECT order_id FROM order_grid ORDER BY created_at DESC, id DESC LIMIT 20 OFFSET $1", [offset]).then((rows) =>
    rows.map((row) => row.order_id),
  );
const totalOrders = () => dbQuery<{ count: number }>("SELECT count(*)::int AS count FROM order_grid").then(([row]) => row.count);

test("shows the 23 columns in the spec's order, newest orders first, with the display rules", async ({ page }) => {
  const total = await totalOrders();
  await open(page, "/advancedorder/");
  await expect(page.getByRole("heading", { name: "Advanced Order Summary" })).toBeVisible();
  await expect(page.locator("thead th")).toHaveText(COLUMNS);
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(total / 20)} - Total Items: ${total}`);
  expect(await cells(page, "order_id")).toEqual(await newest());

  const totals = await cells(page, "grand_total_purchased");
  expect(totals.every((value) => /^\$\d{1,3}(,\d{3})*\.\d{2}$/.test(value))).toBe(true);
  for (const value of await cells(page, "gift_card_used")) expect(["Yes", "No"]).toContain(value);
  for (const value of await cells(page, "created_at")) expect(value).toMatch(/^\d{1,2}\/\d{1,2}\/\d{2}, \d{1,2}:\d{2} [AP]M$/);
  for (const value of await cells(page, "select_skus")) expect(value).not.toMatch(/,\S/);

  // The Order ID opens the order's page in the app (issue 32, D261); View Order opens the order in the Shopify admin,
  // in a new tab; missing values show --n/a--.
  const [linked] = await dbQuery<{ order_id: string; shopify_order_id: string }>(
    "SELECT order_id, shopify_order_id FROM order_grid WHERE shopify_order_id IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1",
  );
  await expect(page.locator('tbody [data-column="order_id"]').getByRole("link", { name: linked.order_id })).toHaveAttribute(
    "href",
    `/order/${linked.order_id}`,
  );
  const row = page.locator("tbody tr").filter({ has: page.locator('[data-column="order_id"]').getByText(linked.order_id, { exact: true }) });
  const link = row.locator('[data-column="view_order"]').getByRole("link", { name: "View Order" });
  await expect(link).toHaveAttribute("href", `https://admin.shopify.com/store/demo-shop/orders/${linked.shopify_order_id}`);
  await expect(link).toHaveAttribute("target", "_blank");

  await open(page, "/advancedorder?marketplaceSource=");
  await expect(page.locator('tbody [data-column="marketplace_source"]').first()).toHaveText("--n/a--");
  await expect(page.locator('tbody [data-column="ca_order_id"]').first()).toHaveText("--n/a--");
  await open(page, "/advancedorder?magentoOrderStatus=avs_pending");
  await expect(page.locator('tbody [data-column="magento_status"]').first()).toHaveText("AVS Pending");
});

test("a text filter applies 500 ms after typing stops, narrows the rows and goes back to page 1", async ({ page }) => {
  const [{ fragment }] = await dbQuery<{ fragment: string }>(
    "SELECT split_part(customer_email, '@', 1) AS fragment FROM order_grid WHERE customer_email IS NOT NULL ORDER BY id LIMIT 1 OFFSET 7",
  );
  const matching = await dbQuery<{ customer_email: string }>("SELECT customer_email FROM order_grid WHERE customer_email ILIKE $1", [`%${fragment}%`]);

  await open(page, "/advancedorder?page=2");
  await page.getByRole("button", { name: "Search and filter results" }).click();
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Customer Email" }).click();
  await page.getByRole("textbox", { name: "Customer Email" }).fill(fragment.toUpperCase());
  // Not applied while typing…
  await page.waitForTimeout(200);
  await expect(page).not.toHaveURL(/customerEmail=/);
  // …but once typing has stopped.
  await expect(page).toHaveURL(new RegExp(`customerEmail=${fragment.toUpperCase()}`));
  await expect(page).not.toHaveURL(/page=2/);
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.max(1, Math.ceil(matching.length / 20))} - Total Items: ${matching.length}`);
  const emails = await cells(page, "customer_email");
  expect(emails.length).toBe(Math.min(20, matching.length));
  for (const email of emails) expect(email.toLowerCase()).toContain(fragment.toLowerCase());
});

test("sorts by Order ID from its heading", async ({ page }) => {
  const [highest] = await dbQuery<{ order_id: string }>("SELECT order_id FROM order_grid ORDER BY order_id DESC, id DESC LIMIT 1");
  const [lowest] = await dbQuery<{ order_id: string }>("SELECT order_id FROM order_grid ORDER BY order_id ASC, id ASC LIMIT 1");
  await open(page, "/advancedorder");
  await page.locator("thead").getByRole("button", { name: "Order ID", exact: true }).click();
  await expect(page).toHaveURL(/sort=order_id&sort_dir=desc/);
  await expect(page.locator('tbody [data-column="order_id"]').first()).toHaveText(highest.order_id);
  await page.locator("thead").getByRole("button", { name: "Order ID", exact: true }).click();
  await expect(page).toHaveURL(/sort=order_id&sort_dir=asc/);
  await expect(page.locator('tbody [data-column="order_id"]').first()).toHaveText(lowest.order_id);
});

test("takes the page from the page parameter and pages on from there", async ({ page }) => {
  const total = await totalOrders();
  const lastPage = Math.ceil(total / 20);
  await open(page, "/advancedorder?page=3");
  await expect(footer(page)).toHaveText(`Page 3 of ${lastPage} - Total Items: ${total}`);
  expect(await cells(page, "order_id")).toEqual(await newest(40));
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=4/);
  await expect(footer(page)).toHaveText(`Page 4 of ${lastPage} - Total Items: ${total}`);
  expect(await cells(page, "order_id")).toEqual(await newest(60));
});

test("a search with no match shows the empty state; 'View All Orders' clears the filters", async ({ page }) => {
  await open(page, "/advancedorder?queryValue=zz-no-such-order&magentoOrderStatus=fraud");
  // Filters hide every order: it says so, not "No orders yet" (D269).
  await expect(page.getByText("No rows match these filters")).toBeVisible();
  await expect(page.getByText("No orders yet")).toHaveCount(0);
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0");

  const total = await totalOrders();
  await clickAction(page, "View All Orders");
  await expect(page).toHaveURL(/\/advancedorder$/);
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(total / 20)} - Total Items: ${total}`);
  expect(await cells(page, "order_id")).toEqual(await newest());
});

test("saved views: the seed's tabs follow All; a duplicate name is refused, a valid one is saved with the filters", async ({ page }) => {
  await open(page, "/advancedorder");
  await expect(page.getByRole("tab")).toHaveText(["All", "Processing", "Amazon orders"]);

  // A saved view's tab applies its filters.
  await page.getByRole("tab", { name: "Processing" }).click();
  await expect(page).toHaveURL(/magentoOrderStatus=processing/);
  const [{ count: processing }] = await dbQuery<{ count: number }>("SELECT count(*)::int AS count FROM order_grid WHERE magento_status = 'processing'");
  await expect(footer(page)).toHaveText(new RegExp(`Total Items: ${processing}$`));

  await open(page, "/advancedorder?giftCardUsed=1");
  await page.getByRole("button", { name: "Save as" }).click();
  const dialog = page.getByRole("dialog", { name: "Save view as" });
  const name = dialog.getByLabel("Name");
  const save = dialog.getByRole("button", { name: "Save" });

  await name.fill("  PROCESSING ");
  await expect(dialog.getByText("A view with this name already exists. Please choose a different name.")).toBeVisible();
  await expect(save).toBeDisabled();
  await name.fill("all");
  await expect(save).toBeDisabled();
  // At most 40 characters, with a counter.
  await name.fill("x".repeat(45));
  await expect(name).toHaveValue("x".repeat(40));
  await expect(dialog.getByText("40/40")).toBeVisible();

  await name.fill("Gift card orders");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByRole("tab", { name: "Gift card orders" })).toBeVisible();
  await expect(page).toHaveURL(/view=\d+/);
  const saved = await dbQuery<{ name: string; filters: unknown }>(
    "SELECT name, filters FROM saved_view WHERE shop = 'demo-shop.myshopify.com' AND grid = 'advancedorder' AND name_key = 'gift card orders'",
  );
  expect(saved).toEqual([{ name: "Gift card orders", filters: { giftCardUsed: ["1"] } }]);

  // A name of spaces only is refused as well (the server says so).
  await open(page, "/advancedorder?giftCardUsed=0");
  await page.getByRole("button", { name: "Save as" }).click();
  await page.getByRole("dialog", { name: "Save view as" }).getByLabel("Name").fill("   ");
  await page.getByRole("dialog", { name: "Save view as" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Enter a name for the view.")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Save view as" })).toBeHidden();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("tab")).toHaveText(["All", "Processing", "Amazon orders", "Gift card orders"]);

  await dbQuery("DELETE FROM saved_view WHERE name_key = 'gift card orders'");
});

test("a failed load shows an empty list without a banner (spec 000 §8)", async ({ page }) => {
  await open(page, "/advancedorder");
  const failed = await failRequests(page, "**/api/advancedordergrid**");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0", { timeout: 20_000 });
  expect(failed.calls).toBe(4); // the first try and 3 retries
  await expect(page.locator("tbody tr [data-column]")).toHaveCount(0);
  await expect(page.locator(".Polaris-Banner")).toHaveCount(0);
});
