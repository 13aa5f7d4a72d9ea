// What staff notice of the speed work (issue 31): the texts come once and are
// then the browser's; Home does not move when its figures arrive; a grid that
// wrote its state into the address bar still starts over from a link to itself;
// a cell too wide for its 200px is reachable by keyboard, one that fits is not.
// No timings here: bench/vitals measures them (npm run bench:vitals).
import { expect, test, type Page } from "@playwright/test";
import { open } from "./support";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);

test("the page's texts are fetched once, by their version, and a second visit takes them from the browser's cache", async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  const texts: Array<{ url: string; cached: boolean }> = [];
  cdp.on("Network.responseReceived", ({ response }) => {
    if (response.url.includes("/locales/")) texts.push({ url: response.url, cached: Boolean(response.fromDiskCache || response.fromPrefetchCache) });
  });
  cdp.on("Network.requestServedFromCache", () => {});

  await open(page, "/?locale=de");
  await expect(page.getByRole("heading", { name: "Startseite", level: 1 })).toBeVisible();
  // The head's preload is the fetch that hydration makes: one request, not two.
  expect(texts, JSON.stringify(texts)).toHaveLength(1);
  expect(texts[0]!.url).toMatch(/\/locales\/de\/common\.json\?v=\w{12}$/);
  expect(texts[0]!.cached).toBe(false);

  texts.length = 0;
  await open(page, "/dropship/logs/?locale=de");
  await expect(page.locator("tbody tr").first()).toBeVisible();
  // Another page, another load: the texts did not travel again.
  expect(texts.every((text) => text.cached)).toBe(true);
});

test("Home's link groups stay where they are when the daily sales arrive", async ({ page }) => {
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route("**/api/daily_sales", async (route) => {
    await held;
    await route.continue();
  });
  await open(page, "/");
  const group = page.getByRole("region", { name: "Dropship" });
  await expect(page.getByRole("status", { name: /loading/i })).toBeVisible();
  const before = await group.boundingBox();
  answer();
  await expect(page.getByTestId("daily-sales-net_sales")).toBeVisible();
  expect(await group.boundingBox()).toEqual(before);
});

test("a grid's own state is in the address bar, and a link to the same screen starts it over", async ({ page }) => {
  await open(page, "/feed/item");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Type" }).click();
  await page.getByRole("radio", { name: "Failed" }).check({ force: true });
  await expect(page).toHaveURL(/type=failed/);
  // The title's action reads the filter from the address bar.
  const all = page.getByRole("link", { name: "View Logs For All Feeds" });
  await expect(all).toBeVisible();
  const filtered = await footer(page).textContent();

  await all.click();
  await expect(page).not.toHaveURL(/type=failed/);
  await expect(all).toHaveCount(0);
  await expect(footer(page)).not.toHaveText(filtered!);

  // Back to the list after leaving it: the browser's entry kept the state the grid wrote.
  await page.locator("thead").getByRole("button", { name: "ID" }).click();
  await expect(page).toHaveURL(/sort=id&sort_dir=(asc|desc)/);
  const sorted = page.url();
  const ascending = sorted.includes("sort_dir=asc");
  await page
    .getByRole("link", { name: "Back" })
    .or(page.getByRole("button", { name: "Back" }))
    .first()
    .click();
  await expect(page).toHaveURL(/\/feed(\?|$)/);
  await expect(page.getByRole("heading", { name: "Feed Summary" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(sorted);
  await expect(page.getByRole("heading", { name: "Feed Logs" })).toBeVisible();
  const ids = (await page.locator('tbody tr [data-column="id"]').allInnerTexts()).map(Number);
  expect(ids).toEqual([...ids].sort((a, b) => (ascending ? a - b : b - a)));
});

test("a cell wider than its 200px takes keyboard focus so it can be scrolled; one that fits does not", async ({ page }) => {
  await open(page, "/dropship/logs/");
  const messages = page.locator('tbody tr [data-column="message"]');
  await expect(messages.first()).toBeVisible();
  const overflowing = await messages.evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length);
  expect(overflowing).toBeGreaterThan(0);
  await expect(page.locator('tbody tr [data-column="message"][tabindex="0"]')).toHaveCount(overflowing);
  await expect(page.locator('tbody tr [data-column="id"][tabindex]')).toHaveCount(0);

  // The next page's rows are measured too.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect
    .poll(() => messages.evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth !== (cell.getAttribute("tabindex") === "0")).length))
    .toBe(0);
});
