// The EOD Report and EOD Batches screens (spec 001 §2, §8) on the demo data,
// the demo vendor playing the AS400 over loopback SFTP as in `npm start`.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open, pressAndConfirm } from "./support";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const banner = (page: Page) => page.locator(".Polaris-Banner").first();
const usDate = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(2, 4)}`;

async function click(page: Page, label: string) {
  await page.getByRole("button", { name: label, exact: true }).click();
}

test("the report: rows by sales date, Run Report, Export to AS400, Retry Previous and Export CSV", async ({ page }) => {
  test.setTimeout(120_000);
  const [{ count, first }] = await dbQuery<{ count: string; first: string }>(
    "SELECT count(*), to_char(min(sales_date), 'YYYY-MM-DD') AS first FROM eod_report_row",
  );
  await open(page, "/eod/report");
  await expect(page.getByRole("heading", { name: "EOD Report", level: 1 })).toBeVisible();
  for (const label of ["Run Report", "Retry Previous", "Export CSV", "Export to AS400"])
    await expect(page.getByRole("button", { name: label, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Past Batches" })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`);
  await expect(page.locator('tbody tr [data-column="sales_date"]').first()).toHaveText(usDate(first));

  // Run Report: the spec's success text, then back to /eod/report/ after a second.
  await open(page, "/eod/report?store_id=00");
  await click(page, "Run Report");
  await expect(banner(page)).toContainText("EOD report run successfully");
  await expect(banner(page)).toContainText(/report rows for .* sales records/);
  await expect(page).toHaveURL(/\/eod\/report\/$/);

  // Yesterday and today wait for the AS400 in the demo data.
  const [{ pending }] = await dbQuery<{ pending: string }>("SELECT count(*) AS pending FROM eod_report_row WHERE export_status = 'pending'");
  expect(Number(pending)).toBeGreaterThan(0);
  // Export asks first; Cancel sends nothing.
  const exports: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/eod_report_export") exports.push(request.url());
  });
  const [{ batches }] = await dbQuery<{ batches: string }>("SELECT count(*) AS batches FROM eod_batch");
  await click(page, "Export to AS400");
  const dialog = page.getByRole("dialog", { name: "Export to AS400?" });
  await expect(dialog).toContainText("Every Pending row of the report goes to the AS400 as one batch file now. A sent file cannot be taken back.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await dbQuery<{ batches: string }>("SELECT count(*) AS batches FROM eod_batch"))[0].batches).toBe(batches);
  await pressAndConfirm(page, "Export to AS400");
  await expect(banner(page)).toContainText("EOD report exported successfully");
  const [newest] = await dbQuery<{ file_name: string; status: string; row_count: number }>(
    "SELECT file_name, status, row_count FROM eod_batch ORDER BY id DESC LIMIT 1",
  );
  expect(newest).toMatchObject({ status: "exported", row_count: Number(pending) });
  await expect(banner(page)).toContainText(newest.file_name);
  expect(exports).toHaveLength(1); // the cancelled one was never sent
  await pressAndConfirm(page, "Export to AS400");
  await expect(banner(page)).toContainText("Something went wrong when exporting EOD report");
  await expect(banner(page)).toContainText("No report rows are waiting to be exported");

  // The demo data has one failed batch: Retry Previous sends it, then has nothing left.
  const [failed] = await dbQuery<{ id: number; file_name: string }>("SELECT id, file_name FROM eod_batch WHERE status = 'failed' ORDER BY id DESC LIMIT 1");
  await pressAndConfirm(page, "Retry Previous");
  await expect(banner(page)).toContainText("EOD report retried successfully");
  await expect(banner(page)).toContainText(failed.file_name);
  expect((await dbQuery<{ status: string }>("SELECT status FROM eod_batch WHERE id = $1", [failed.id]))[0].status).toBe("exported");
  await pressAndConfirm(page, "Retry Previous");
  await expect(banner(page)).toContainText("Something went wrong when retrying EOD report");
  await expect(banner(page)).toContainText("There is no failed or unsent batch to retry.");

  // Export CSV downloads every row.
  const [{ rows }] = await dbQuery<{ rows: string }>("SELECT count(*) AS rows FROM eod_report_row");
  const downloading = page.waitForEvent("download");
  await click(page, "Export CSV");
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^eod_report_\d{8}_\d{4}\.csv$/);
  const chunks: Buffer[] = [];
  for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  expect(text.startsWith("\uFEFFSales Date,Store,Orders,")).toBe(true);
  expect(text.trimEnd().split("\r\n")).toHaveLength(Number(rows) + 1);

  await page.getByRole("link", { name: "Past Batches" }).click();
  await expect(page).toHaveURL(/\/eod\/batch$/);
});

test("the report's failures say so in the spec's words", async ({ page }) => {
  // Filters that hide every row say so, not the report's "No entries found" (D269).
  await open(page, "/eod/report?store_id=no-such-store");
  await expect(page.getByText("No rows match these filters")).toBeVisible();

  await page.route("**/api/eod_report_run*", (route) => route.fulfill({ status: 500, body: "boom" }));
  await click(page, "Run Report");
  await expect(banner(page)).toContainText("Something went wrong when running EOD report");
  await page.route("**/api/eod_report_export?*", (route) => route.fulfill({ status: 502, contentType: "application/json", body: "{}" }));
  await page.route("**/api/eod_report_export", (route) => route.fulfill({ status: 502, contentType: "application/json", body: "{}" }));
  await pressAndConfirm(page, "Export to AS400");
  await expect(banner(page)).toContainText("Something went wrong when exporting EOD report");

  // A failed load: after the retries, the banner over an empty first page.
  await page.route("**/api/eod_report?*", (route) => route.fulfill({ status: 500, body: "down" }));
  await page.getByPlaceholder("Search").fill("00");
  await expect(page.getByText("Something went wrong loading the EOD report")).toBeVisible({ timeout: 30_000 });
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0");
});

test("the batches: newest first, Back to Report, empty and failed loads", async ({ page }) => {
  const newest = await dbQuery<{ id: number; file_name: string }>("SELECT id, file_name FROM eod_batch ORDER BY id DESC");
  await open(page, "/eod/batch");
  await expect(page.getByRole("heading", { name: "EOD Batches" })).toBeVisible();
  expect((await page.locator('tbody tr [data-column="id"]').allInnerTexts()).map(Number)).toEqual(newest.slice(0, 20).map((batch) => batch.id));
  await expect(page.locator('tbody tr [data-column="file_name"]').first()).toHaveText(newest[0].file_name);

  await open(page, "/eod/batch?file_name=no-such-file");
  await expect(page.getByText("No rows match these filters")).toBeVisible();

  await open(page, "/eod/batch");
  await page.route("**/api/eod_batch?*", (route) => route.fulfill({ status: 500, body: "down" }));
  await page.getByPlaceholder("Search").fill("EOD_");
  await expect(page.getByText("Something went wrong loading the EOD batches")).toBeVisible({ timeout: 30_000 });

  await page.getByRole("link", { name: "Back to Report" }).click();
  await expect(page).toHaveURL(/\/eod\/report$/);
  await expect(page.getByRole("heading", { name: "EOD Report", level: 1 })).toBeVisible();
});
