// Feed Summary and Feed Logs (spec 001 §2, §8) in the browser, on the seeded feeds.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const column = (page: Page, key: string) => page.locator(`tbody tr [data-column="${key}"]`);
const feedRow = (page: Page, name: string) =>
  page.locator("tbody tr").filter({ has: page.locator('[data-column="name"]', { hasText: new RegExp(`^${name}$`) }) });

test("Feed Summary lists the feeds, last started first, and filters by name", async ({ page }) => {
  const feeds = await dbQuery<{ name: string }>("SELECT name FROM feed ORDER BY last_started_at DESC NULLS LAST, id DESC");
  await open(page, "/feed");
  await expect(page.getByRole("heading", { name: "Feed Summary" })).toBeVisible();
  await expect(page.locator("thead")).toContainText("IDNameCron ExpressionLast Started AtLast Finished AtLast Failed AtLast Skipped AtActions");
  await expect(footer(page)).toHaveText(`Page 1 of 1 - Total Items: ${feeds.length}`);
  expect(await column(page, "name").allInnerTexts()).toEqual(feeds.slice(0, 20).map((feed) => feed.name));

  const shipFeeds = feeds.filter((feed) => feed.name.includes("ship_resp")).map((feed) => feed.name);
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Name" }).click();
  await page.getByPlaceholder("Filter by Name").fill("SHIP_RESP");
  await expect(footer(page)).toHaveText(`Page 1 of 1 - Total Items: ${shipFeeds.length}`);
  await expect(page).toHaveURL(/name=SHIP_RESP/);
  expect(await column(page, "name").allInnerTexts()).toEqual(shipFeeds);

  await page.getByRole("link", { name: "View All Logs" }).click();
  await expect(page).toHaveURL(/\/feed\/item$|\/feed\/item\?/);
  await expect(page.getByRole("heading", { name: "Feed Logs", exact: true })).toBeVisible();
});

test("Run Feed runs the feed from the page, and its log appears under View Logs", async ({ page }) => {
  const name = "clear_completed_ship_requests";
  await open(page, "/feed");
  await page.getByRole("button", { name: `Run Feed ${name}` }).click();
  await expect(page.getByText("Feed ran successfully")).toBeVisible({ timeout: 30_000 });
  // The summary is read again: the feed just started is first under last_started_at desc.
  await expect(column(page, "name").first()).toHaveText(name);
  const [last] = await dbQuery<{ id: number }>("SELECT id FROM feed_log WHERE feed_name = $1 ORDER BY id DESC LIMIT 1", [name]);

  await feedRow(page, name).getByRole("link", { name: "View Logs" }).click();
  await expect(page).toHaveURL(new RegExp(`/feed/item\\?feed_name=${name}`));
  await expect(page.getByRole("heading", { name: `Feed Logs for ${name}` })).toBeVisible();
  await expect(column(page, "id").first()).toHaveText(String(last!.id));
  await expect(column(page, "type").first()).toHaveText("Finished");
  await expect(column(page, "meta").first()).toContainText(`"started_log_id":${last!.id - 1}`);
  await expect(column(page, "type").nth(1)).toHaveText("Starting");
  await expect(column(page, "meta").nth(1)).toContainText('"trigger":"manual"');
  expect(new Set(await column(page, "feed_name").allInnerTexts())).toEqual(new Set([name]));

  // Filtered: View Logs For All Feeds clears the feed name.
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM feed_log");
  await page.getByRole("link", { name: "View Logs For All Feeds" }).click();
  await expect(page.getByRole("heading", { name: "Feed Logs", exact: true })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`);
  await expect(page.getByRole("link", { name: "View Logs For All Feeds" })).toHaveCount(0);
});

test("Feed Logs filters by type and by feed name, newest first, and Back goes to the summary", async ({ page }) => {
  const [{ count: failedCount }] = await dbQuery<{ count: string }>("SELECT count(*) FROM feed_log WHERE type = 'failed'");
  await open(page, "/feed/item");
  await expect(page.locator("thead")).toContainText("IDFeed NameTypeMetaCreated AtUpdated At");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Type" }).click();
  await page.getByRole("radio", { name: "Failed" }).check({ force: true });
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(failedCount) / 20)} - Total Items: ${failedCount}`);
  await expect(page).toHaveURL(/type=failed/);
  expect(new Set(await column(page, "type").allInnerTexts())).toEqual(new Set(["Failed"]));
  await expect(page.getByRole("link", { name: "View Logs For All Feeds" })).toBeVisible();

  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM feed_log WHERE type = 'failed' AND feed_name ILIKE '%vendor_inv%'");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Feed Name" }).click();
  await page.getByPlaceholder("Filter by Feed Name").fill("Vendor_Inv");
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.max(1, Math.ceil(Number(count) / 20))} - Total Items: ${count}`);
  for (const feedName of await column(page, "feed_name").allInnerTexts()) expect(feedName).toMatch(/^vendor_inv/);
  const ids = (await column(page, "id").allInnerTexts()).map(Number);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));

  await page
    .getByRole("button", { name: "Back" })
    .or(page.getByRole("link", { name: "Back" }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/feed(\?|$)/);
  await expect(page.getByRole("heading", { name: "Feed Summary" })).toBeVisible();
});

test("a feed's cron is edited from its cell; an expression that cannot run is refused with what is wrong", async ({ page }) => {
  const name = "vendor_inventory_846";
  const [feed] = await dbQuery<{ id: number; cron_expression: string }>("SELECT id, cron_expression FROM feed WHERE name = $1", [name]);
  await open(page, "/feed");
  await page.getByRole("link", { name: `Edit the schedule of ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/feed/edit\\?id=${feed!.id}`));
  await expect(page.getByRole("heading", { name: "Edit Feed Schedule" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  const cron = page.getByLabel("Cron Expression");
  await expect(cron).toHaveValue(feed!.cron_expression);

  // The schedule in words, as it is typed, in the reader's language.
  await cron.fill("*/5 * * * *");
  await expect(page.getByText("Every 5 minutes")).toBeVisible();
  await cron.fill("0 */4 * * 8");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Something went wrong when saving the feed")).toBeVisible();
  await expect(page.getByText('"0 */4 * * 8" is not a valid cron expression: day of week must be 0-7 or SUN-SAT (got "8").').first()).toBeVisible();

  await cron.fill("0 */6 * * *");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Feed schedule saved")).toBeVisible();
  await expect(page).toHaveURL(/\/feed(\?|$)/, { timeout: 5000 }); // after 1 s
  await expect(feedRow(page, name).locator('[data-column="cron_expression"]').getByRole("link")).toHaveText("0 */6 * * *");
  await expect(feedRow(page, name).locator('[data-column="cron_expression"]')).toContainText("On the hour, every 6 hours");
  const [saved] = await dbQuery<{ cron_expression: string }>("SELECT cron_expression FROM feed WHERE id = $1", [feed!.id]);
  expect(saved!.cron_expression).toBe("0 */6 * * *");
});

test("the cron in words is in the staff member's language", async ({ page }) => {
  const [feed] = await dbQuery<{ id: number }>("SELECT id FROM feed WHERE name = 'vendor_inventory_846'");
  await open(page, `/feed/edit?id=${feed!.id}&locale=de`);
  await page.getByLabel("Cron-Ausdruck").fill("*/5 * * * *");
  await expect(page.getByText("Alle 5 Minuten")).toBeVisible();
  await open(page, `/feed/edit?id=${feed!.id}&locale=fr`);
  await page.getByLabel("Expression cron").fill("0 3 * * 1-5");
  await expect(page.getByText("À 03:00, de lundi à vendredi")).toBeVisible();
});

test("Feed Summary shows each cron in words too, in the staff member's language", async ({ page }) => {
  const [feed] = await dbQuery<{ cron_expression: string }>("SELECT cron_expression FROM feed WHERE name = 'populate_ship_requests'");
  expect(feed!.cron_expression).toBe("*/15 * * * *"); // the demo data's
  const cell = feedRow(page, "populate_ship_requests").locator('[data-column="cron_expression"]');
  await open(page, "/feed");
  await expect(cell.getByRole("link")).toHaveText("*/15 * * * *");
  await expect(cell).toContainText("Every 15 minutes");
  await open(page, "/feed?locale=de");
  await expect(cell.getByRole("link")).toHaveText("*/15 * * * *");
  await expect(cell).toContainText("Alle 15 Minuten");
});

test("a feed that is not scheduled says so next to its cron", async ({ page }) => {
  const name = "send_ship_requests";
  await dbQuery("UPDATE feed SET enabled = 0 WHERE name = $1", [name]);
  try {
    await open(page, "/feed");
    await expect(feedRow(page, name).locator('[data-column="cron_expression"]')).toContainText("(not scheduled)");
    await expect(feedRow(page, "populate_ship_requests").locator('[data-column="cron_expression"]')).not.toContainText("(not scheduled)");
  } finally {
    await dbQuery("UPDATE feed SET enabled = 1 WHERE name = $1", [name]);
  }
});
