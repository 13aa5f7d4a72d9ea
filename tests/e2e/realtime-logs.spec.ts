// Realtime Sales/Refund Logs and Realtime Shipping Logs (spec 001 §2) over the
// seeded demo rows: newest first, amounts in USD, the AS400 columns, filters,
// the error banner of a failed load, and the German titles.
import { expect, test, type Page } from "@playwright/test";
import { badgeLabels, clickAction, dbQuery, open } from "./support";

const footer = (page: Page) => page.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const cells = (page: Page, column: string) => page.locator(`tbody tr [data-column="${column}"]`);
const usd = (value: string | number) => new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(value));

test("Realtime Sales/Refund Logs: newest first, amounts in USD, filtered by AS400 status", async ({ page }) => {
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM realtime_sales_log");
  const total = Number(count);
  const newest = await dbQuery<{ id: number; amount: string }>("SELECT id, amount::text FROM realtime_sales_log ORDER BY id DESC LIMIT 20");

  await open(page, "/sales/realtime-sales-log");
  await expect(page.getByRole("heading", { name: "Realtime Sales/Refund Logs" })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(total / 20)} - Total Items: ${total}`);
  expect((await cells(page, "id").allInnerTexts()).map(Number)).toEqual(newest.map((row) => row.id));
  expect(await cells(page, "amount").allInnerTexts()).toEqual(newest.map((row) => usd(row.amount)));

  const failed = await dbQuery<{ id: number; as400_file_name: string }>(
    "SELECT id, as400_file_name FROM realtime_sales_log WHERE as400_status = 'failed' ORDER BY id DESC",
  );
  expect(failed.length).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "AS400", exact: true }).click();
  // Polaris draws its own radio over the input: the label is what people click.
  await page
    .locator("label")
    .filter({ hasText: /^Failed$/ })
    .click();
  await expect(page).toHaveURL(/as400_status=failed/);
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(failed.length / 20)} - Total Items: ${failed.length}`);
  expect(new Set(await badgeLabels(cells(page, "as400_status")).allInnerTexts())).toEqual(new Set(["Failed"]));
  await expect(cells(page, "as400_file_name").first()).toHaveText(failed[0].as400_file_name);
  await expect(cells(page, "as400_error").first()).toContainText("Sent again at the next run");

  await clickAction(page, "Back");
  await expect(page).toHaveURL(/\/sales$/);
});

test("Realtime Shipping Logs: a tracking number finds its shipment and the record sent to the AS400", async ({ page }) => {
  const [{ count }] = await dbQuery<{ count: string }>("SELECT count(*) FROM realtime_shipping_log");
  const [shipment] = await dbQuery<{ id: number; tracking_number: string; fulfillment_id: string; as400_status: string }>(
    `SELECT id, tracking_number, payload -> 'as400' ->> 'fulfillment_id' AS fulfillment_id, as400_status FROM
      realtime_shipping_log WHERE as400_status = 'sent' ORDER BY id DESC LIMIT 1`,
  );
  await open(page, "/sales/realtime-shipping-log");
  await expect(page.getByRole("heading", { name: "Realtime Shipping Logs" })).toBeVisible();
  await expect(footer(page)).toHaveText(`Page 1 of ${Math.ceil(Number(count) / 20)} - Total Items: ${count}`);

  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("menuitem", { name: "Tracking Number" }).click();
  await page.getByPlaceholder("Filter by Tracking Number").fill(shipment.tracking_number);
  await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 1");
  await expect(page).toHaveURL(new RegExp(`tracking_number=${shipment.tracking_number}`));
  await expect(cells(page, "id")).toHaveText([String(shipment.id)]);
  await expect(badgeLabels(cells(page, "as400_status"))).toHaveText(["Sent"]);
  await expect(cells(page, "payload")).toContainText(`"fulfillment_id":"${shipment.fulfillment_id}"`);

  await page.getByPlaceholder("Search").fill("no-such-shipment-anywhere");
  await expect(page.getByText("No rows match these filters")).toBeVisible();
});

for (const [path, api, banner] of [
  ["/sales/realtime-sales-log", "realtime_sales_log", "Something went wrong loading the realtime sales/refund logs"],
  ["/sales/realtime-shipping-log", "realtime_shipping_log", "Something went wrong loading the realtime shipping logs"],
] as const) {
  test(`a failed load of ${path} shows the spec's banner over an empty first page`, async ({ page }) => {
    await open(page, path);
    await page.route(`**/api/${api}**`, (route) => route.fulfill({ status: 500, body: "{}" }));
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText(banner)).toBeVisible({ timeout: 20_000 });
    await expect(footer(page)).toHaveText("Page 1 of 1 - Total Items: 0");
    await expect(page.locator("tbody tr [data-column]")).toHaveCount(0);
  });
}

test("the titles and columns follow the language", async ({ page }) => {
  await open(page, "/sales/realtime-shipping-log?locale=de");
  await expect(page.getByRole("heading", { name: "Echtzeit-Versandprotokolle" })).toBeVisible();
  await expect(page.locator("thead")).toContainText("Sendungsnummer");
  await open(page, "/sales/realtime-sales-log?locale=fr");
  await expect(page.getByRole("heading", { name: "Journaux des ventes/remboursements en temps réel" })).toBeVisible();
  await expect(page.locator("thead")).toContainText("Montant");
});
