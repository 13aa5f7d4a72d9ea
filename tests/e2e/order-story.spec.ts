// The order's whole story and the files it names (issue 32 items 1–3), local mode,
// in English and German: from the order grid or the requests grid one click opens
// the order's page (items, assignments, request, the vendor's answer, files); from
// there one click opens a file, X12 one segment a line with its name; the file
// downloads; a drop-ship log line opens its file.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

interface Shipped {
  order_increment_id: string;
  po_number: string;
  vendor_name: string;
  item_sku: string;
  tracking_number: string;
  out_id: number;
  out_name: string;
  in_id: number;
  in_name: string;
  in_bytes: number;
}

/** A demo order drop-shipped through an X12 850 and answered with an 856 (the seed writes several). */
async function shippedOrder(): Promise<Shipped> {
  const [row] = await dbQuery<Shipped>(
    `SELECT q.order_increment_id, q.po_number, q.vendor_name, q.item_sku, r.tracking_number,
            o.id AS out_id, o.file_name AS out_name, i.id AS in_id, i.file_name AS in_name, i.size AS in_bytes
       FROM dropship_request q
       JOIN dropship_response r ON r.request_id = q.request_id AND r.response_type = '856'
       JOIN transmission o ON o.id = q.transmission_id
       JOIN transmission i ON i.id = r.transmission_id
      ORDER BY q.request_id LIMIT 1`,
  );
  expect(row, "a drop-shipped demo order with an 856").toBeTruthy();
  return row!;
}

async function expectStory(page: Page, order: Shipped, words: { heading: string; vendorQty: RegExp; request: string; complete: string }) {
  await expect(page.getByRole("heading", { name: words.heading, level: 1 })).toBeVisible();
  await expect(page.getByText(words.vendorQty).first()).toBeVisible();
  await expect(page.getByRole("link", { name: words.request })).toBeVisible();
  const answer = page.locator("tr").filter({ hasText: order.tracking_number }).first();
  await expect(answer).toContainText("856");
  await expect(page.getByRole("link", { name: order.in_name }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: order.out_name }).first()).toBeVisible();
  await expect(page.getByText(words.complete, { exact: true }).first()).toBeVisible();
}

test("from the order grid, one click opens the order's page; from there one click opens its 856 with segment names; it downloads", async ({ page }) => {
  const order = await shippedOrder();
  await open(page, `/advancedorder?orderId=${encodeURIComponent(order.order_increment_id)}`);
  const row = page.locator("tbody tr").filter({ hasText: order.order_increment_id }).first();
  await row.getByRole("link", { name: order.order_increment_id, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${order.order_increment_id}$`));
  await expectStory(page, order, {
    heading: `Order ${order.order_increment_id}`,
    vendorQty: new RegExp(`^Vendor ${order.vendor_name}, qty \\d+$`),
    request: `Request ${order.po_number}`,
    complete: "Complete",
  });

  // The story: the vendor's 856 is one line, with its tracking and the file it came in.
  const answerLine = page.locator('tr[data-kind="response"]').filter({ hasText: order.tracking_number });
  await expect(answerLine).toContainText(`Vendor's 856 for ${order.po_number}: tracking`);
  await expect(answerLine.getByRole("link", { name: order.in_name })).toBeVisible();

  await page.getByRole("link", { name: order.in_name }).first().click();
  await expect(page.getByRole("heading", { name: order.in_name, level: 1 })).toBeVisible();
  const isa = page.locator('tr[data-segment="ISA"]');
  await expect(isa).toContainText("Interchange Control Header");
  await expect(page.locator('tr[data-segment="BSN"]')).toContainText("Beginning Segment for Ship Notice");
  await expect(page.locator('tr[data-segment="REF"]')).toContainText(order.tracking_number);
  await expect(page.getByText(/^Page 1 of 1 - Segments: \d+$/)).toBeVisible();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(order.in_name);
  const bytes = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
  expect(bytes.byteLength).toBe(order.in_bytes);
  expect(bytes.toString()).toMatch(/^ISA\*/);
});

test("in German: from the requests grid the order number opens the order's page; a log line opens its file", async ({ page }) => {
  const order = await shippedOrder();
  await open(page, `/dropship/requests?po_number=${encodeURIComponent(order.po_number)}&locale=de`);
  const row = page.locator("tbody tr").filter({ hasText: order.po_number }).first();
  await row.getByRole("link", { name: order.order_increment_id, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/order/${order.order_increment_id}\\?locale=de$`));
  await expectStory(page, order, {
    heading: `Bestellung ${order.order_increment_id}`,
    vendorQty: new RegExp(`^Lieferant ${order.vendor_name}, Menge \\d+$`),
    request: `Anfrage ${order.po_number}`,
    complete: "Abgeschlossen",
  });
  await expect(page.getByRole("heading", { name: "Verlauf" })).toBeVisible();
  await expect(page.locator('tr[data-kind="response"]').filter({ hasText: order.tracking_number })).toContainText(
    `856 des Lieferanten für ${order.po_number}: Sendung`,
  );

  // A drop-ship log line names the 856: its file name opens the file.
  await open(page, `/dropship/logs/?po_number=${encodeURIComponent(order.po_number)}&action=process_responses&locale=de`);
  const logRow = page.locator("tbody tr").filter({ hasText: order.in_name }).first();
  await logRow.getByRole("link", { name: order.in_name }).click();
  await expect(page).toHaveURL(new RegExp(`/file/${order.in_id}\\?locale=de$`));
  await expect(page.locator('tr[data-segment="BSN"]')).toContainText("Beginning Segment for Ship Notice");
  await expect(page.getByText(/^Seite 1 von 1 - Segmente: \d+$/)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Datensätze und Protokollzeilen, die diese Datei nennen" })).toBeVisible();
  // The page names its order: one click back to the story.
  await page
    .getByRole("link", { name: `Bestellung ${order.order_increment_id}` })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: `Bestellung ${order.order_increment_id}`, level: 1 })).toBeVisible();
});

test("an unknown order and a malformed file id say so, in the reader's language", async ({ page }) => {
  await open(page, "/order/NO-SUCH-ORDER?locale=de");
  await expect(page.getByText("Bestellung NO-SUCH-ORDER wurde nicht gefunden")).toBeVisible();
  await open(page, "/file/abc");
  await expect(page.getByText("A file's id is a number, or eod- and a number")).toBeVisible();
});

test("an EOD batch file opens from EOD Batches, its rows under the first line's headings", async ({ page }) => {
  const [batch] = await dbQuery<{ id: number; file_name: string; row_count: number; first_line: string }>(
    "SELECT id, file_name, row_count, split_part(convert_from(content, 'UTF8'), E'\\n', 1) AS first_line FROM eod_batch ORDER BY id DESC LIMIT 1",
  );
  await open(page, "/eod/batch");
  await page.locator("tbody tr").getByRole("link", { name: batch!.file_name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/file/eod-${batch!.id}$`));
  await expect(page.getByRole("heading", { name: batch!.file_name, level: 1 })).toBeVisible();
  const firstHeading = batch!.first_line.split(",")[0]!.replace(/^"|"$/g, "");
  await expect(page.getByRole("table", { name: "Rows" }).locator("thead th").nth(1)).toHaveText(firstHeading);
  await expect(page.getByText(/^Page 1 of \d+ - Rows: \d+$/)).toBeVisible();
});
