// Long work in the background (issue 18, item 1; D93–D96), as staff see it in
// local mode: Populate Ship Requests over 10,000 pending assignments shows a
// progress bar with "done of total" while it runs, survives a reload (the same
// run, from PostgreSQL), refuses a second start from another page that did not
// know, and ends with the step's result, in English and in German. A real large
// input, not a slowed-down step: the run lasts as long as the work does.
import { expect, test, type Page } from "@playwright/test";
import { bulkPendingAssignments } from "./bulk-assignments";
import { dbQuery, open } from "./support";

const BULK = 10_000;
const SKU = "E2E-BULK-RUN";

const bulk = bulkPendingAssignments(dbQuery, SKU, BULK);

test.afterEach(bulk.remove);

const runs = async () => Number((await dbQuery<{ count: string }>("SELECT count(*) FROM background_run WHERE kind = 'dropship_test'"))[0].count);

async function followsPopulate(
  page: Page,
  texts: { button: string; progress: RegExp; sameRun: RegExp; result: string; alreadyRunning: string },
  other: Page,
  locale: string,
) {
  await bulk.insert();
  const before = await runs();
  // A second staff member has the page open before the run starts.
  await open(other, `/dropship/test/${locale}`);
  await open(page, `/dropship/test/${locale}`);

  await page.getByRole("button", { name: texts.button }).click();
  // While it runs: the bar and "done of total" (the step knows its total), the buttons off.
  await expect(page.getByRole("progressbar")).toBeVisible();
  await expect(page.getByText(texts.progress)).toBeVisible();
  await expect(page.getByRole("button", { name: texts.button })).toBeDisabled();

  // The other page did not know: its click is refused, and it shows the run that goes on.
  await other.getByRole("button", { name: texts.button }).click();
  await expect(other.locator(".Polaris-Banner").filter({ hasText: texts.alreadyRunning })).toBeVisible();
  await expect(other.getByText(texts.sameRun)).toBeVisible();

  // A reload shows the same run, read from PostgreSQL: still going, or already ended with its result.
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText(texts.sameRun)).toBeVisible();

  // It ends with the step's result, on both pages; one run was made, not two.
  await expect(page.locator(".Polaris-Banner").filter({ hasText: texts.result })).toBeVisible({ timeout: 180_000 });
  await expect(other.locator(".Polaris-Banner").filter({ hasText: texts.result })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: texts.button })).toBeEnabled();
  expect(await runs()).toBe(before + 1);
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM dropship_request WHERE item_sku = $1", [SKU]);
  expect(Number(count)).toBe(BULK);
}

test("a long step shows its progress, survives a reload, is not started twice, and ends with its result", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const other = await browser.newPage();
  await followsPopulate(
    page,
    {
      button: "Populate Ship Requests",
      progress: /^[\d,]+ of 10,000 assignments$/,
      sameRun: /of 10,000 assignments$|^10000 ship requests created\.$/,
      result: "10000 ship requests created.",
      alreadyRunning: "This is already running: it was not started again.",
    },
    other,
    "",
  );
  // Seen ending on this page: a toast says so (local mode: Polaris' own).
  await expect(other.getByText("Populate Ship Requests: done")).toBeVisible();
  await other.close();
});

test("the same in German: progress, refusal and result in the reader's language", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const other = await browser.newPage();
  await followsPopulate(
    page,
    {
      button: "Versandanfragen erzeugen",
      progress: /^[\d.]+ von 10\.000 Zuweisungen$/,
      sameRun: /von 10\.000 Zuweisungen$|^10000 Versandanfragen erstellt\.$/,
      result: "10000 Versandanfragen erstellt.",
      alreadyRunning: "Das läuft bereits: es wurde nicht noch einmal gestartet.",
    },
    other,
    "?locale=de",
  );
  await other.close();
});

test("a failed start says so in the spec's words, and nothing runs", async ({ page }) => {
  const before = await runs();
  await open(page, "/dropship/test/");
  await page.route("**/api/dropship_test_submit*", (route) => route.fulfill({ status: 500, body: "boom" }));
  await page.getByRole("button", { name: "Clear Completed Ship Requests" }).click();
  await expect(page.locator(".Polaris-Banner").filter({ hasText: "Something went wrong when completing the request" })).toBeVisible();
  expect(await runs()).toBe(before);
});
