// Bulk work, clickable rows and the keyboard on the grids (issue 32 items 3 and 7),
// in English and German: rows selected on Needs attention are dismissed with one
// note after the confirmation, the summary says what each row did (one refused
// with its reason), and the grid shows the rest; a row opens its record on a click
// or Enter while a link in a cell keeps its own target; J and K page, "/" puts the
// cursor in the search (and typing there pages nothing); the shortcuts are listed;
// rejected requests selected on Drop Shipping Requests are sent again (Resend).
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

test.describe.configure({ mode: "serial" });

const TEXTS = {
  en: {
    query: "",
    dismiss: "Dismiss",
    dialogTitle: "Dismiss 3 items",
    note: "Note (why it needs nothing more)",
    summary: "Done: 2, refused: 1, failed: 0",
    refused: (id: number) => `${id}: Item ${id} is not open.`,
    page: (n: number) => new RegExp(`^Page ${n} of \\d+ - Total Items: \\d+$`),
    search: "Search",
    shortcuts: "Keyboard shortcuts",
    shortcutLines: ["Search this list", "Previous page", "Next page", "Go to a row, open it", "Select the row (on its checkbox)"],
    revise: "Revise Drop Shipping request",
    reassign: "Reassign",
  },
  de: {
    query: "locale=de",
    dismiss: "Verwerfen",
    dialogTitle: "3 Einträge verwerfen",
    note: "Notiz (warum nichts mehr zu tun ist)",
    summary: "Erledigt: 2, abgelehnt: 1, fehlgeschlagen: 0",
    refused: (id: number) => `${id}: Eintrag ${id} ist nicht offen.`,
    page: (n: number) => new RegExp(`^Seite ${n} von \\d+ - Einträge gesamt: \\d+$`),
    search: "Suchen",
    shortcuts: "Tastenkürzel",
    shortcutLines: [
      "Diese Liste durchsuchen",
      "Vorherige Seite",
      "Nächste Seite",
      "Zu einer Zeile gehen, sie öffnen",
      "Zeile auswählen (auf ihrem Kontrollkästchen)",
    ],
    revise: "Versandanfrage überarbeiten",
    reassign: "Neu zuweisen",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);
const footer = (page: Page) => page.locator(".Polaris-IndexTable__PaginationWrapper").getByText(/ - /);

async function attentionItems(tag: string, count: number) {
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    const [row] = await dbQuery<{ id: number }>(
      `INSERT INTO attention_item (kind, subject, reason, reason_code, link, since)
       VALUES ('feed_failed', $1, $2, $3, '/feed', now()) RETURNING id`,
      [`${tag}-${index}`, `${tag} failed ${index}`, JSON.stringify({ text: `${tag} failed ${index}` })],
    );
    ids.push(row!.id);
  }
  return ids;
}

for (const locale of ["en", "de"] as const) {
  const text = TEXTS[locale];

  test(`selected rows are dismissed with one note, and the summary says what each did (${locale})`, async ({ page }) => {
    const tag = `bulk-e2e-${locale}-${Date.now()}`;
    const ids = await attentionItems(tag, 3);
    await open(page, withQuery(`/attention?queryValue=${tag}`, text.query));
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(3);
    // Select every row with the header's checkbox, as staff do.
    await page.locator("thead .Polaris-Checkbox").first().click();
    await expect(page.locator("tbody input[type=checkbox]:checked")).toHaveCount(3);
    // Meanwhile one of them is resolved elsewhere: the server refuses it, as one Dismiss would.
    await dbQuery("UPDATE attention_item SET resolved_at = now() WHERE id = $1", [ids[1]]);
    // The bulk action sits in the bar above the rows, before each row's own Dismiss.
    await page.getByRole("button", { name: text.dismiss, exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("heading", { name: text.dialogTitle })).toBeVisible();
    await dialog.getByLabel(text.note).fill("Handled with the vendor by phone.");
    await dialog.getByRole("button", { name: text.dismiss }).click();
    const summary = page.locator(".Polaris-Banner").filter({ hasText: text.summary });
    await expect(summary).toBeVisible();
    await expect(summary).toContainText(text.refused(ids[1]!));
    // The grid is read again: the dismissed and the resolved items are out of the queue.
    await expect(rows.filter({ hasText: tag })).toHaveCount(0);
    const stored = await dbQuery<{ id: number; dismiss_note: string | null }>("SELECT id, dismiss_note FROM attention_item WHERE id = ANY($1) ORDER BY id", [
      ids,
    ]);
    expect(stored.map((row) => row.dismiss_note)).toEqual(["Handled with the vendor by phone.", null, "Handled with the vendor by phone."]);
  });

  test(`J and K page, "/" finds the search, a row opens on a click or Enter, the shortcuts are listed (${locale})`, async ({ page }) => {
    await open(page, withQuery("/dropship/requests", text.query));
    await expect(footer(page)).toHaveText(text.page(1));
    await page.keyboard.press("k");
    await expect(footer(page)).toHaveText(text.page(2));
    await page.keyboard.press("j");
    await expect(footer(page)).toHaveText(text.page(1));

    await page.keyboard.press("/");
    const search = page.getByPlaceholder(text.search, { exact: true });
    await expect(search).toBeFocused();
    // Typed in a field, K is a letter: the list stays on its page.
    await page.keyboard.type("k");
    await expect(search).toHaveValue("k");
    await search.fill("");
    await expect(footer(page)).toHaveText(text.page(1));

    await page.getByRole("button", { name: text.shortcuts }).click();
    const popover = page.locator(".Polaris-Popover");
    for (const line of text.shortcutLines) await expect(popover.getByText(line, { exact: true })).toBeVisible();
    await page.keyboard.press("Escape");

    // A click anywhere on the row (not on its links) opens the request's revise page.
    const first = page.locator("tbody tr").first();
    const id = await first.getAttribute("id");
    // A cell that is not a link of its own (the vendor's name opens the vendor, D261).
    await first.locator('[data-column="qty"]').click();
    await expect(page).toHaveURL(new RegExp(`/dropship/requests/revise\\?id=${id}`));
    await expect(page.getByRole("heading", { name: text.revise })).toBeVisible();
    if (locale === "de") expect(new URL(page.url()).searchParams.get("locale")).toBe("de");

    // Enter on a row (its link has the keyboard) opens it too.
    await page.goBack();
    const second = page.locator("tbody tr").nth(1);
    const secondId = await second.getAttribute("id");
    await second.locator("[data-primary-link]").focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/dropship/requests/revise\\?id=${secondId}`));
  });

  test(`a link inside a row keeps its own target; the row opens the order (${locale})`, async ({ page }) => {
    await open(page, withQuery("/sales/awaiting-assignment", text.query));
    const row = page
      .locator("tbody tr")
      .filter({ has: page.getByRole("link", { name: text.reassign }) })
      .first();
    const order = (await row.locator('[data-column="order_increment_id"]').innerText()).trim();
    await row.getByRole("link", { name: text.reassign }).click();
    await expect(page).toHaveURL(/\/sales\/awaiting-assignment\/reassign\?id=\d+/);
    await page.goBack();
    await page.locator("tbody tr").filter({ hasText: order }).first().locator('[data-column="order_increment_id"]').click();
    await expect(page).toHaveURL(new RegExp(`/order/${order}`));
  });
}

const RESEND = {
  en: { query: "", resend: "Resend", title: "Send 2 requests again?", summary: "Done: 1, refused: 1, failed: 0", shipped: "is Shipped" },
  de: {
    query: "&locale=de",
    resend: "Erneut senden",
    title: "2 Anfragen erneut senden?",
    summary: "Erledigt: 1, abgelehnt: 1, fehlgeschlagen: 0",
    shipped: "ist Versandt",
  },
} as const;

for (const locale of ["en", "de"] as const) {
  const text = RESEND[locale];
  test(`rejected requests are sent again from the grid; one shipped meanwhile is refused with its reason (${locale})`, async ({ page }) => {
    const rows = await dbQuery<{ request_id: number; status: string; needs_processing: boolean; po_number: string }>(
      "SELECT request_id, status, needs_processing, po_number FROM dropship_request WHERE status = 'sent' ORDER BY request_id LIMIT 2",
    );
    const ids = rows.map((row) => row.request_id);
    try {
      await dbQuery("UPDATE dropship_request SET status = 'rejected' WHERE request_id = ANY($1)", [ids]);
      await open(page, `/dropship/requests?status=rejected${text.query}`);
      for (const id of ids) await page.locator(`tbody tr[id="${id}"] .Polaris-Checkbox`).click();
      await dbQuery("UPDATE dropship_request SET status = 'shipped' WHERE request_id = $1", [ids[1]]);
      await page.getByRole("button", { name: text.resend, exact: true }).click();
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("heading", { name: text.title })).toBeVisible();
      await dialog.getByRole("button", { name: text.resend, exact: true }).click();
      const summary = page.locator(".Polaris-Banner").filter({ hasText: text.summary });
      await expect(summary).toBeVisible();
      await expect(summary).toContainText(`${ids[1]}: PO ${rows[1]!.po_number} ${text.shipped}`);
      // Read again: neither is rejected any more (one pending, one shipped).
      await expect(page.locator(`tbody tr[id="${ids[0]}"]`)).toHaveCount(0);
      const [resent] = await dbQuery<{ status: string; needs_processing: boolean }>(
        "SELECT status, needs_processing FROM dropship_request WHERE request_id = $1",
        [ids[0]],
      );
      expect(resent).toEqual({ status: "pending", needs_processing: true });
    } finally {
      for (const row of rows)
        await dbQuery("UPDATE dropship_request SET status = $2, needs_processing = $3 WHERE request_id = $1", [
          row.request_id,
          row.status,
          row.needs_processing,
        ]);
    }
  });
}
