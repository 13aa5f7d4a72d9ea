// The order's page and the file viewer inside the admin (issue 32 items 1–3), in
// English and German: one click from the order grid or the requests grid opens
// the order's story; one click there opens its 856, X12 with segment names; the
// file downloads with the session token; a log line opens its file.
import { readFileSync } from "node:fs";
import { dbQuery, expect, test, type Admin } from "./fixtures";

interface Shipped {
  order_increment_id: string;
  po_number: string;
  vendor_name: string;
  tracking_number: string;
  out_name: string;
  in_id: number;
  in_name: string;
  in_content: Buffer;
}

async function shippedOrder(): Promise<Shipped> {
  const [row] = await dbQuery<Shipped>(
    `SELECT q.order_increment_id, q.po_number, q.vendor_name, r.tracking_number, o.file_name AS out_name,
            i.id AS in_id, i.file_name AS in_name, i.content AS in_content
       FROM dropship_request q
       JOIN dropship_response r ON r.request_id = q.request_id AND r.response_type = '856'
       JOIN transmission o ON o.id = q.transmission_id
       JOIN transmission i ON i.id = r.transmission_id
      ORDER BY q.request_id LIMIT 1`,
  );
  expect(row, "a drop-shipped demo order with an 856").toBeTruthy();
  return row!;
}

const title = async (admin: Admin) => ((await admin.titleBar.getByRole("heading").textContent()) ?? "").trim();

test("from the order grid, the order's page, its 856 with segment names, and the download", async ({ admin }) => {
  const order = await shippedOrder();
  const app = await admin.open(`/advancedorder?orderId=${encodeURIComponent(order.order_increment_id)}`);
  await app
    .locator("tbody tr")
    .filter({ hasText: order.order_increment_id })
    .first()
    .getByRole("link", { name: order.order_increment_id, exact: true })
    .click();
  await expect.poll(() => title(admin)).toBe(`Order ${order.order_increment_id}`);
  await expect(app.getByText(new RegExp(`^Vendor ${order.vendor_name}, qty \\d+$`)).first()).toBeVisible();
  await expect(app.getByRole("link", { name: `Request ${order.po_number}` })).toBeVisible();
  await expect(app.locator("tr").filter({ hasText: order.tracking_number }).first()).toContainText("856");
  await expect(app.getByRole("link", { name: order.out_name }).first()).toBeVisible();

  await app.getByRole("link", { name: order.in_name }).first().click();
  await expect.poll(() => title(admin)).toBe(order.in_name);
  await expect(app.locator('tr[data-segment="ISA"]')).toContainText("Interchange Control Header");
  await expect(app.locator('tr[data-segment="BSN"]')).toContainText("Beginning Segment for Ship Notice");

  const [download] = await Promise.all([admin.page.waitForEvent("download"), app.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(order.in_name);
  expect(readFileSync((await download.path())!)).toEqual(Buffer.from(order.in_content));
});

test("in German: the requests grid's order number opens the story; a log line opens its file", async ({ admin }) => {
  const order = await shippedOrder();
  let app = await admin.open(`/dropship/requests?po_number=${encodeURIComponent(order.po_number)}&locale=de`);
  await app.locator("tbody tr").filter({ hasText: order.po_number }).first().getByRole("link", { name: order.order_increment_id, exact: true }).click();
  await expect.poll(() => title(admin)).toBe(`Bestellung ${order.order_increment_id}`);
  await expect(app.getByText(new RegExp(`^Lieferant ${order.vendor_name}, Menge \\d+$`)).first()).toBeVisible();
  await expect(app.getByRole("link", { name: `Anfrage ${order.po_number}` })).toBeVisible();
  await expect(app.getByRole("heading", { name: "Verlauf" })).toBeVisible();

  app = await admin.open(`/dropship/logs/?po_number=${encodeURIComponent(order.po_number)}&action=process_responses&locale=de`);
  await app.locator("tbody tr").filter({ hasText: order.in_name }).first().getByRole("link", { name: order.in_name }).click();
  await expect.poll(() => title(admin)).toBe(order.in_name);
  await expect(app.locator('tr[data-segment="BSN"]')).toContainText("Beginning Segment for Ship Notice");
  await expect(app.getByText(/^Seite 1 von 1 - Segmente: \d+$/)).toBeVisible();
});
