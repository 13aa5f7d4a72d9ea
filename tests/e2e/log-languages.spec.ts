// Log rows and run details in the reader's language (D114): the same stored row
// reads in English on an English page and in German on a German one.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

const column = (page: Page, key: string) => page.locator(`tbody tr [data-column="${key}"]`);

test("Drop Shipping Logs shows a step's line in English and in German", async ({ page }) => {
  // A line as Populate Ship Requests writes it (the demo data writes them the same way).
  const [row] = await dbQuery<{ po_number: string; message: string; qty: number; item_sku: string; order_increment_id: string }>(
    `SELECT po_number, message, qty, item_sku, order_increment_id FROM dropship_log WHERE message_code->>'code' =
      'logs.dropship.request_created' ORDER BY id DESC LIMIT 1`,
  );
  expect(row, "a coded populate_requests line").toBeTruthy();

  await open(page, `/dropship/logs/?po_number=${encodeURIComponent(row!.po_number)}&action=populate_requests`);
  await expect(page.getByRole("heading", { name: "Drop Shipping Logs" })).toBeVisible();
  await expect(column(page, "message")).toHaveText([row!.message]);
  expect(row!.message).toMatch(new RegExp(`^Ship request ${row!.po_number} created for ${row!.qty} x `));

  await open(page, `/dropship/logs/?po_number=${encodeURIComponent(row!.po_number)}&action=populate_requests&locale=de`);
  await expect(page.getByRole("heading", { name: "Streckengeschäft-Protokolle" })).toBeVisible();
  await expect(column(page, "message")).toHaveText([
    new RegExp(
      `^Versandanfrage ${row!.po_number} erstellt für ${row!.qty} x ${row!.item_sku} der ` +
        `Bestellung ${row!.order_increment_id}; Zuweisung \\d+ ist jetzt In Bearbeitung\\.$`,
    ),
  ]);

  // Every coded line of the first page reads without the English words of our sentences.
  await open(page, "/dropship/logs/?locale=de");
  const texts = await column(page, "message").allInnerTexts();
  const coded = await dbQuery<{ id: number }>("SELECT id FROM dropship_log WHERE message_code IS NOT NULL ORDER BY id DESC LIMIT 20");
  expect(coded.length).toBeGreaterThan(0);
  for (const text of texts.slice(0, coded.length))
    expect(text).not.toMatch(/\b(Ship request|created for|shipped|tracking|Stored|deleted on|accepted by|Could not)\b/);
});

test("Run Feed in German: the run's detail and its feed log read in German, the same log in English on an English page", async ({ page }) => {
  const feed = "clear_completed_ship_requests";
  await open(page, "/feed?locale=de");
  await page.getByRole("button", { name: `Feed ausführen: ${feed}` }).click();
  // The run's detail: the step's own message, rendered from its code.
  const banner = page.locator(".Polaris-Banner").filter({ hasText: "Feed erfolgreich ausgeführt" });
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText(/abgeschlossene Versandanfragen? archiviert\.|Keine abgeschlossenen Versandanfragen zu bereinigen\./);

  const [log] = await dbQuery<{ id: number; meta: { message: string } }>(
    "SELECT id, meta FROM feed_log WHERE feed_name = $1 AND type = 'finished' ORDER BY id DESC LIMIT 1",
    [feed],
  );
  // Other specs run this feed too, so the log's row is found by its id, not taken as the newest.
  const logRow = page.locator("tbody tr").filter({ has: page.locator('[data-column="id"]').getByText(String(log!.id), { exact: true }) });
  await open(page, `/feed/item?feed_name=${feed}&type=finished&locale=de`);
  await expect(logRow.locator('[data-column="meta"]')).toContainText(
    /"message":"(\d+ abgeschlossene Versandanfragen? archiviert\.|Keine abgeschlossenen Versandanfragen zu bereinigen\.)"/,
  );
  await expect(logRow.locator('[data-column="meta"]')).not.toContainText("message_code");

  await open(page, `/feed/item?feed_name=${feed}&type=finished`);
  await expect(logRow.locator('[data-column="meta"]')).toContainText(`"message":${JSON.stringify(log!.meta.message)}`);
  expect(log!.meta.message).toMatch(/completed ship requests? archived\.|No completed ship requests to clear\./);
});

test("Special Order Log shows the pull's summary in German", async ({ page }) => {
  const [row] = await dbQuery<{ id: number; summary: string }>(
    "SELECT id, summary FROM special_order_log WHERE summary_code IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  expect(row, "a coded special-order log").toBeTruthy();
  await open(page, "/special_order/log?sort=id&sort_dir=desc");
  await expect(column(page, "summary").first()).toHaveText(row!.summary);
  await open(page, "/special_order/log?sort=id&sort_dir=desc&locale=de");
  await expect(column(page, "summary").first()).toHaveText(/^\d+ Belege?: \d+ für Shopify, \d+ Fehler zu überarbeiten$/);
});

test("Special Order Errors shows the pull's rule message in English and in German", async ({ page }) => {
  const [row] = await dbQuery<{ store_ticket: string }>(
    "SELECT store_ticket FROM special_order_error WHERE error_code->>'code' = 'special_orders.validation.price_number' ORDER BY id LIMIT 1",
  );
  expect(row, "a coded error of the demo data").toBeTruthy();
  await open(page, `/special_order/error?store_ticket=${row!.store_ticket}`);
  await expect(column(page, "error_message").first()).toHaveText("Price must be a number.");
  await open(page, `/special_order/error?store_ticket=${row!.store_ticket}&locale=de`);
  await expect(column(page, "error_message").first()).toHaveText("Preis muss eine Zahl sein.");
});
