import { expect, test, type Page } from "@playwright/test";
import { clickAction, dbQuery, failRequests, open } from "./support";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const firstCellIds = (page: Page) => page.locator('tbody tr [data-column="id"]').allInnerTexts();

test("pages through the seeded logs, newest first", async ({ page }) => {
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM dropship_log");
  const total = Number(count);
  const lastPage = Math.ceil(total / 20);
  const newest = await dbQuery<{ id: number }>("SELECT id FROM dropship_log ORDER BY id DESC LIMIT 40");

  await open(page, "/dropship/logs/");
  await expect(page.getByRole("heading", { name: "Drop Shipping Logs" })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${lastPage} - Total Items: ${total}`);
  expect((await firstCellIds(page)).map(Number)).toEqual(newest.slice(0, 20).map((row) => row.id));

  await page.getByRole("button", { name: "Next" }).click();
  await expect(footer(page)).toHaveText(`Page 2 of ${lastPage} - Total Items: ${total}`);
  await expect(page).toHaveURL(/page=2/);
  expect((await firstCellIds(page)).map(Number)).toEqual(newest.slice(20, 40).map((row) => row.id));

  // The page comes from the URL.
  await page.reload();
  await expect(footer(page)).toHaveText(`Page 2 of ${lastPage} - Total Items: ${total}`);

  await clickAction(page, "Back");
  await expect(page).toHaveURL(/\/dropship$/);
});

test("sorts by a column and filters by text after typing stops, back on page 1", async ({ page }) => {
  const [{ min }] = await dbQuery<{ min: number }>("SELECT min(id) AS min FROM dropship_log");
  await open(page, "/dropship/logs/?page=2");
  await page.locator("thead").getByRole("button", { name: "ID" }).click();
  await expect(page).toHaveURL(/sort=id&sort_dir=asc/);
  await expect(page.locator('tbody tr [data-column="id"]').first()).toHaveText(String(min));

  const [{ vendor_name, count }] = await dbQuery<{ vendor_name: string; count: string }>(
    "SELECT vendor_name, count(*) FROM dropship_log WHERE vendor_name IS NOT NULL GROUP BY vendor_name ORDER BY count(*) DESC LIMIT 1",
  );
  await open(page, "/dropship/logs/?page=2");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Vendor" }).click();
  await page.getByPlaceholder("Filter by Vendor").fill(vendor_name.toUpperCase());
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`);
  await expect(page).toHaveURL(new RegExp(`vendor_name=${encodeURIComponent(vendor_name.toUpperCase()).replace(/%20/g, "(\\+|%20)")}`));
  const vendors = await page.locator('tbody tr [data-column="vendor_name"]').allInnerTexts();
  expect(new Set(vendors)).toEqual(new Set([vendor_name]));
});

test("a search that matches nothing shows the empty state", async ({ page }) => {
  await open(page, "/dropship/logs/");
  await page.getByPlaceholder("Search").fill("no-such-log-entry-anywhere");
  await expect(page.getByText("No rows match these filters")).toBeVisible();
  await expect(page.getByText("No log entries yet")).toHaveCount(0);
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0");
});

test("a failed load shows the spec's banner over an empty first page, after retrying", async ({ page }) => {
  await open(page, "/dropship/logs/");
  const failed = await failRequests(page, "**/api/dropship_log**");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Something went wrong loading the dropship logs")).toBeVisible({ timeout: 20_000 });
  expect(failed.calls).toBe(4); // the first try and 3 retries
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0");
  await expect(page.locator("tbody tr [data-column]")).toHaveCount(0);
  await page.getByRole("button", { name: "Dismiss" }).or(page.getByLabel("Dismiss notification")).first().click();
  await expect(page.getByText("Something went wrong loading the dropship logs")).toBeHidden();
});

test("the API answers in the spec's shape and refuses an unknown sort with 422", async ({ request }) => {
  const answer = await request.get("/api/dropship_log?page=2&sort=id&sort_dir=asc&queryValue=x");
  expect(answer.status()).toBe(200);
  const body = await answer.json();
  expect(body.data).toMatchObject({ current_page: 2, per_page: 20 });
  expect(typeof body.data.total).toBe("number");
  expect(typeof body.data.last_page).toBe("number");
  expect(Array.isArray(body.data.data)).toBe(true);
  expect(body.columns[0]).toMatchObject({ key: "id", label: "ID", dataType: "text" });

  const bad = await request.get("/api/dropship_log?sort=nope");
  expect(bad.status()).toBe(422);
  expect((await bad.json()).errors.sort[0]).toContain("Cannot sort by 'nope'");

  const health = await request.get("/healthz");
  expect(await health.json()).toMatchObject({ ok: true });
});
