// Lists staff can export, filter by date and shape (issue 32 items 3, 4, 6;
// D265–D269), in English and German: Export CSV downloads what the grid shows;
// feed logs filter by a date range and show the run's words; the columns a
// staff member hides stay hidden after a reload; a filtered empty grid says
// that its filters hide the rows.
import { expect, test, type Download, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

const footer = (page: Page) => page.getByText(/^(Page|Seite) \d+ (of|von) \d+ - (Total Items|Einträge gesamt): \d+$/);
const column = (page: Page, key: string) => page.locator(`tbody tr [data-column="${key}"]`);

async function csvOf(download: Download): Promise<string[][]> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

const FEED = "e2e_grid_lists_days";

test.beforeAll(async () => {
  // Logs of one feed around midnight in the app's time zone (America/New_York, UTC-5 in January).
  await dbQuery("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
  await dbQuery(
    `INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at) VALUES
       ($1, 'failed', '{"error":"SFTP login refused"}', '2026-01-15T04:59:00Z', now()),
       ($1, 'finished', '{"count":2}', '2026-01-15T05:01:00Z', now()),
       ($1, 'failed', '{"error":"Vendor folder missing"}', '2026-01-16T04:58:00Z', now()),
       ($1, 'finished', '{"count":4}', '2026-01-16T05:02:00Z', now())`,
    [FEED],
  );
});

test.afterAll(async () => {
  await dbQuery("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
  await dbQuery("DELETE FROM staff_grid_preference WHERE grid_id IN ('advancedorder', 'dropship_log')");
});

test("Export CSV downloads the rows a filtered, sorted grid shows, every page, as the reader reads them", async ({ page }) => {
  const [{ vendor_name, matching }] = await dbQuery<{ vendor_name: string; matching: string }>(
    "SELECT vendor_name, count(*) AS matching FROM dropship_log WHERE vendor_name IS NOT NULL GROUP BY vendor_name ORDER BY count(*) DESC LIMIT 1",
  );
  const ids = await dbQuery<{ id: number }>("SELECT id FROM dropship_log WHERE vendor_name = $1 ORDER BY id ASC", [vendor_name]);
  await open(page, `/dropship/logs/?vendor_name=${encodeURIComponent(vendor_name)}&sort=id&sort_dir=asc`);
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(matching) / 20)} - Total Items: ${matching}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^dropship_log_\d{8}_\d{4}\.csv$/);
  const [header, ...rows] = await csvOf(download);
  expect(header[0]).toBe("ID");
  expect(rows.map((row) => Number(row[0]))).toEqual(ids.map((row) => row.id));
});

test("feed logs filter by a date range in German, and show the run's reason as words", async ({ page }) => {
  await open(page, `/feed/item?feed_name=${FEED}&locale=de`);
  await expect(footer(page)).toHaveText("Seite 1 von 1 - Einträge gesamt: 4");
  await page.getByRole("button", { name: "Filter hinzufügen" }).click();
  await page.getByRole("menuitem", { name: "Erstellt am" }).click();
  await page.getByLabel("Von").fill("2026-01-15");
  await page.getByLabel("Bis").fill("2026-01-15");
  // The 15th in New York: from 05:00 UTC on the 15th to 05:00 UTC on the 16th.
  await expect(footer(page)).toHaveText("Seite 1 von 1 - Einträge gesamt: 2");
  await expect(page).toHaveURL(/created_at=2026-01-15\.\.2026-01-15/);
  await expect(column(page, "meta").first()).toContainText("Vendor folder missing");
  await expect(column(page, "meta").nth(1)).toContainText('{"count":2}');

  // The address keeps the range: a reload shows the same rows and the filter's pill.
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(footer(page)).toHaveText("Seite 1 von 1 - Einträge gesamt: 2");
  await expect(page.getByText("Erstellt am: 2026-01-15 – 2026-01-15")).toBeVisible();
});

test("an open-ended date range in English, then a filtered empty list says its filters hide the rows", async ({ page }) => {
  await open(page, `/feed/item?feed_name=${FEED}&created_at=2026-01-16..`);
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 1");
  await expect(column(page, "meta")).toContainText(['{"count":4}']);
  await open(page, `/feed/item?feed_name=${FEED}&created_at=2030-01-01..`);
  await expect(page.getByText("No rows match these filters")).toBeVisible();
  await expect(page.getByText("No feed logs found")).toHaveCount(0);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/created_at=/);
  await expect(column(page, "id").first()).toBeVisible();
});

test("a filtered empty grid in German, cleared with one click", async ({ page }) => {
  await open(page, "/dropship/logs/?queryValue=no-such-log-anywhere&locale=de");
  await expect(page.getByText("Keine Zeilen entsprechen diesen Filtern")).toBeVisible();
  await page.getByRole("button", { name: "Filter löschen" }).click();
  await expect(column(page, "id").first()).toBeVisible();
});

test("the order grid's columns: hidden ones stay hidden after a reload, and out of its CSV", async ({ page }) => {
  await dbQuery("DELETE FROM staff_grid_preference WHERE grid_id = 'advancedorder'");
  await open(page, "/advancedorder");
  const headings = page.locator("thead th");
  await expect(headings.filter({ hasText: "Shopify Order ID" })).toHaveCount(1);
  await page.getByRole("button", { name: "Columns" }).click();
  for (const name of ["Shopify Order ID", "Purchase Date", "Updated At", "Updated At (Shopify)", "Customer Email", "Bill To Name", "Ship To Name", "SKUs"])
    await page.getByRole("checkbox", { name, exact: true }).uncheck({ force: true });
  await page.keyboard.press("Escape");
  await expect(headings.filter({ hasText: "Shopify Order ID" })).toHaveCount(0);

  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(headings.filter({ hasText: "Shopify Order ID" })).toHaveCount(0);
  await expect(headings.filter({ hasText: "Customer Email" })).toHaveCount(0);
  // The fulfilment status now stands near the order number.
  const titles = await headings.allInnerTexts();
  expect(titles.findIndex((title) => title.includes("Shopify Fulfillment Status"))).toBeLessThan(5);

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  const [header] = await csvOf(download);
  expect(header).not.toContain("Shopify Order ID");
  expect(header).toContain("Shopify Fulfillment Status");
  expect(header[0]).toBe("Order ID");
});

test("a generic grid's columns in German: hidden after a reload", async ({ page }) => {
  await dbQuery("DELETE FROM staff_grid_preference WHERE grid_id = 'dropship_log'");
  await open(page, "/dropship/logs/?locale=de");
  await page.getByRole("button", { name: "Spalten" }).click();
  await page.getByRole("checkbox", { name: "Datum", exact: true }).uncheck({ force: true });
  await page.keyboard.press("Escape");
  await expect(page.locator("thead th").filter({ hasText: /^Datum$/ })).toHaveCount(0);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.locator("thead th").filter({ hasText: /^Datum$/ })).toHaveCount(0);
  await expect(column(page, "created_at")).toHaveCount(0);
  await expect(column(page, "id").first()).toBeVisible();
});
