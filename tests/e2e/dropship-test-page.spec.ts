// The Test page's five buttons, in order, take a seeded assignment to a demo
// vendor from Pending to Complete with its tracking, as a newcomer would click
// them after `npm start`; the demo vendor answers over loopback SFTP.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open, pressAndConfirm } from "./support";

// Steps that send to vendors or create in Shopify ask first (issue 18 item 3).
const ASKS_FIRST = new Set(["Send Ship Requests", "Process Ship Responses"]);

async function runStep(page: Page, label: string) {
  if (ASKS_FIRST.has(label)) await pressAndConfirm(page, label);
  else await page.getByRole("button", { name: label }).click();
  // The step runs in the background (D93), its progress on the page, until its result shows.
  const banner = page.locator(".Polaris-Banner").first();
  await expect(banner).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole("button", { name: label })).toBeEnabled();
  const text = await banner.innerText();
  await banner
    .getByRole("button", { name: /dismiss/i })
    .click()
    .catch(() => {});
  return text;
}

test("the five steps take an assignment from Pending to tracking", async ({ page }) => {
  test.setTimeout(120_000);
  const [assignment] = await dbQuery<{ id: number; vendor_id: number; order_increment_id: string }>(
    `SELECT a.id, v.id AS vendor_id, a.order_increment_id FROM assignment a
       JOIN dropship_vendor v ON v.store_id = a.store_id AND v.enabled = 1 AND v.edi_format = 1
      WHERE a.assign_status = 1 AND a.shopify_order_id IS NOT NULL ORDER BY a.id LIMIT 1`,
  );
  expect(assignment).toBeTruthy();
  const status = async () => (await dbQuery<{ assign_status: number }>("SELECT assign_status FROM assignment WHERE id = $1", [assignment.id]))[0].assign_status;

  await open(page, "/dropship/test/");
  await expect(page.getByRole("heading", { name: "Drop Ship Test Page" })).toBeVisible();
  for (const label of ["Populate Ship Requests", "Send Ship Requests", "Populate Ship Responses", "Process Ship Responses", "Clear Completed Ship Requests"]) {
    await expect(page.getByRole("button", { name: label })).toBeVisible();
  }

  expect(await runStep(page, "Populate Ship Requests")).toMatch(/ship requests? created/);
  expect(await status()).toBe(2);
  const [{ po_number: po }] = await dbQuery<{ po_number: string }>("SELECT po_number FROM dropship_request WHERE assignment_id = $1", [assignment.id]);

  expect(await runStep(page, "Send Ship Requests")).toMatch(/sent to \d+ vendors?/);
  expect(await status()).toBe(3);

  // The demo vendor answers with a 997 and an 855 at once, the 856 a few seconds later.
  await expect(async () => {
    await runStep(page, "Populate Ship Responses");
    const [{ count }] = await dbQuery<{ count: string }>(
      "SELECT count(*) FROM transmission WHERE vendor_id = $1 AND direction = 'in' AND transaction_set = '856' AND created_at > now() - interval '5 minutes'",
      [assignment.vendor_id],
    );
    expect(Number(count)).toBeGreaterThan(0);
  }).toPass({ timeout: 60_000, intervals: [2_000] });

  expect(await runStep(page, "Process Ship Responses")).toMatch(/files? processed/);
  expect(await status()).toBe(4);
  const [shipment] = await dbQuery<{ tracking_number: string; status: string }>(
    "SELECT tracking_number, status FROM dropship_response WHERE po_number = $1 AND response_type = '856'",
    [po],
  );
  expect(shipment.status).toBe("fulfilled");

  expect(await runStep(page, "Clear Completed Ship Requests")).toMatch(/archived/);

  // What happened is visible in the grids.
  await open(page, `/dropship/responses/?po_number=${encodeURIComponent(po)}`);
  await expect(page.getByText(shipment.tracking_number).first()).toBeVisible();
  await open(page, `/dropship/logs/?po_number=${encodeURIComponent(po)}`);
  await expect(page.getByText(/Fulfilment created in Shopify/).first()).toBeVisible();
});

test("a step that fails says so in the spec's words", async ({ page }) => {
  await open(page, "/dropship/test/");
  await page.route("**/api/dropship_test_submit", (route) => route.fulfill({ status: 500, body: "boom" }));
  await page.getByRole("button", { name: "Populate Ship Requests" }).click();
  await expect(page.getByText("Something went wrong when completing the request")).toBeVisible();
});
