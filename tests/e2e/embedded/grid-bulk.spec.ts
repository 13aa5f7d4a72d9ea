// Bulk work, clickable rows and the keyboard inside the admin (issue 32 items 3
// and 7), in English and German: Needs attention items selected in the app's
// frame are dismissed with one note, the summary counts what each row did and the
// grid is read again; a feed's row opens its edit page; K pages from the keyboard;
// the shortcuts are listed.
import { dbQuery, expect, test } from "./fixtures";

const TEXTS = {
  en: {
    dismiss: "Dismiss",
    note: "Note (why it needs nothing more)",
    summary: "Done: 2, refused: 0, failed: 0",
    page2: /^Page 2 of \d+ - Total Items: \d+$/,
    shortcuts: "Keyboard shortcuts",
    nextPage: "Next page",
  },
  de: {
    dismiss: "Verwerfen",
    note: "Notiz (warum nichts mehr zu tun ist)",
    summary: "Erledigt: 2, abgelehnt: 0, fehlgeschlagen: 0",
    page2: /^Seite 2 von \d+ - Einträge gesamt: \d+$/,
    shortcuts: "Tastenkürzel",
    nextPage: "Nächste Seite",
  },
} as const;

for (const locale of ["en", "de"] as const) {
  const text = TEXTS[locale];
  test(`selected rows are dismissed, a row opens its record, K pages, shortcuts listed (${locale})`, async ({ admin }) => {
    const tag = `bulk-emb-${locale}-${Date.now()}`;
    const ids: number[] = [];
    for (const index of [0, 1]) {
      const [row] = await dbQuery<{ id: number }>(
        `INSERT INTO attention_item (kind, subject, reason, reason_code, link, since)
         VALUES ('feed_failed', $1, $2, $3, '/feed', now()) RETURNING id`,
        [`${tag}-${index}`, `${tag} failed ${index}`, JSON.stringify({ text: `${tag} failed ${index}` })],
      );
      ids.push(row!.id);
    }
    const app = await admin.open(`/attention?queryValue=${tag}&locale=${locale}`);
    await expect(app.locator("tbody tr")).toHaveCount(2);
    await app.locator("thead .Polaris-Checkbox").first().click();
    await app.getByRole("button", { name: text.dismiss, exact: true }).first().click();
    const dialog = app.getByRole("dialog");
    await dialog.getByLabel(text.note).fill("Checked in the admin.");
    await dialog.getByRole("button", { name: text.dismiss, exact: true }).click();
    await expect(app.locator(".Polaris-Banner").filter({ hasText: text.summary })).toBeVisible();
    await expect(app.locator("tbody tr").filter({ hasText: tag })).toHaveCount(0);
    const stored = await dbQuery<{ dismissed_by: string | null }>("SELECT dismissed_by FROM attention_item WHERE id = ANY($1)", [ids]);
    // The Shopify user of the session token, not the local user.
    expect(stored.every((row) => row.dismissed_by && row.dismissed_by !== "local")).toBe(true);
    const [recorded] = await dbQuery<{ n: number }>(
      "SELECT count(*)::int AS n FROM staff_activity WHERE action = 'attention.dismiss' AND record_id = ANY($1)",
      [ids.map(String)],
    );
    expect(recorded!.n).toBe(2);

    const requests = await admin.open(`/dropship/requests?locale=${locale}`);
    await requests.locator("tbody tr").first().waitFor();
    // Staff are working in the app's frame (a click there), then press K.
    const footer = requests.locator(".Polaris-IndexTable__PaginationWrapper").getByText(/ - /);
    await footer.click();
    await admin.page.keyboard.press("k");
    await expect(footer).toHaveText(text.page2);
    await requests.getByRole("button", { name: text.shortcuts }).click();
    await expect(requests.getByText(text.nextPage, { exact: true })).toBeVisible();

    const feeds = await admin.open(`/feed?locale=${locale}`);
    const row = feeds.locator("tbody tr").first();
    const id = await row.getAttribute("id");
    await row.locator('[data-column="name"]').click();
    await expect.poll(() => admin.page.frame({ name: "app-iframe" })?.url()).toContain(`/feed/edit?id=${id}`);
  });
}
