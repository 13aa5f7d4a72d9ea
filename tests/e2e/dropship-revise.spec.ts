import { expect, test } from "@playwright/test";
import { dbQuery, open } from "./support";

test("a request is revised from the grid: required fields, 422 listing, success and back to the list", async ({ page }) => {
  await open(page, "/dropship/requests/");
  await expect(page.getByRole("heading", { name: "Drop Shipping Requests" })).toBeVisible();
  const firstId = await page.locator('tbody tr [data-column="request_id"]').first().innerText();
  const [{ max }] = await dbQuery<{ max: number }>("SELECT max(request_id) AS max FROM dropship_request");
  expect(Number(firstId)).toBe(max);

  // The newest request that can still be revised: one asked back from its vendor cannot (D225).
  const [{ id, po_number }] = await dbQuery<{ id: number; po_number: string }>(
    `SELECT request_id AS id, po_number FROM dropship_request
      WHERE status NOT IN ('cancel_requested', 'cancelled', 'cancel_refused') ORDER BY request_id DESC LIMIT 1`,
  );
  await open(page, `/dropship/requests/?po_number=${po_number}`);
  await page.locator("tbody tr").first().getByRole("link", { name: "Revise" }).click();
  await expect(page).toHaveURL(new RegExp(`/dropship/requests/revise\\?id=${id}`));
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByRole("heading", { name: "Revise Drop Shipping request" })).toBeVisible();
  await expect(page.getByLabel("PO Number")).toBeDisabled();
  await expect(page.getByLabel("Vendor")).toBeDisabled();
  await expect(page.getByLabel("Ship To Address")).toHaveAttribute("rows", "4");

  await page.getByLabel("City").fill("");
  await page.getByLabel("Qty").fill("0");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Something went wrong when saving the dropship request" });
  await expect(banner.getByRole("listitem")).toHaveText(["Qty must be a whole number from 1 to 100000", "City is required"]);

  await page.getByLabel("City").fill("Evanston");
  await page.getByLabel("Qty").fill("2");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Successfully updated request. Updated shipment request will be re-processed the next time the cron runs.")).toBeVisible();
  await expect(page).toHaveURL(/\/dropship\/requests\/$/, { timeout: 5000 });
  const [saved] = await dbQuery<{ ship_city: string; qty: number; needs_processing: boolean }>(
    "SELECT ship_city, qty, needs_processing FROM dropship_request WHERE request_id = $1",
    [id],
  );
  expect(saved).toEqual({ ship_city: "Evanston", qty: 2, needs_processing: true });
});

test("a response is revised, and an unknown one says it could not be loaded", async ({ page }) => {
  const [response] = await dbQuery<{ id: number }>("SELECT id FROM dropship_response WHERE response_type = '856' ORDER BY id DESC LIMIT 1");
  await open(page, `/dropship/responses/revise?id=${response.id}`);
  await expect(page.getByRole("heading", { name: "Revise Drop Shipping Response" })).toBeVisible();
  await page.getByLabel("Tracking Number").fill("1Z999AA10123456784");
  await page.getByRole("button", { name: "Save" }).first().click(); // the page's or the save bar's: both save
  await expect(page.getByText("Successfully updated response. Updated shipment response will be re-processed the next time the cron runs.")).toBeVisible();
  await expect(page).toHaveURL(/\/dropship\/responses\/$/, { timeout: 5000 });
  await expect(page.getByRole("heading", { name: "Drop Shipping Responses" })).toBeVisible();

  await open(page, "/dropship/responses/revise?id=99999999");
  await expect(page.getByText("Something went wrong when loading dropship response data")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
});
