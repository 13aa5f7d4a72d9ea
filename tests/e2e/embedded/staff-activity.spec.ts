// Who did what inside the admin (issue 32 items 5 and 8), in English and German:
// a feed's schedule saved from the admin's title bar is recorded as done by the
// Shopify user of the session token, and Staff Activity filters by action and
// by that person.
import { dbQuery, expect, test } from "./fixtures";

const TEXTS = {
  en: {
    query: "",
    cron: "Cron Expression",
    save: "Save",
    summary: "Feed Summary",
    title: "Staff Activity",
    action: "Action",
    saveAction: "Feed saved",
    who: "Who",
    filterWho: "Filter by Who",
    outcome: "Done",
    addFilter: "Add filter",
  },
  de: {
    query: "locale=de",
    cron: "Cron-Ausdruck",
    save: "Speichern",
    summary: "Feed-Übersicht",
    title: "Mitarbeiteraktivität",
    action: "Aktion",
    saveAction: "Feed gespeichert",
    who: "Wer",
    filterWho: "Nach Wer filtern",
    outcome: "Erledigt",
    addFilter: "Filter hinzufügen",
  },
} as const;

// The admin stand-in signs its session tokens for user 42 (tests/support/embedded-app.ts).
const WHO = "shopify-user:42";
const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a schedule saved in the admin is recorded as its Shopify user's, and Staff Activity filters by action and person`, async ({ admin }) => {
    const [feed] = await dbQuery<{ id: number; cron_expression: string }>("SELECT id, cron_expression FROM feed WHERE name = 'vendor_invoices_810'");
    const cron = lang === "en" ? "33 6 * * *" : "34 6 * * *";
    try {
      const form = await admin.open(withQuery(`/feed/edit?id=${feed!.id}`, text.query));
      await form.getByLabel(text.cron).fill(cron);
      await admin.titleBar.getByRole("button", { name: text.save, exact: true }).click();
      await expect(admin.titleBar.getByRole("heading")).toHaveText(text.summary, { timeout: 10_000 }); // back to the summary after its banner

      // Reached from the admin's menu of the app.
      await admin.page.getByRole("navigation", { name: "App navigation" }).getByRole("button", { name: text.title }).click();
      await expect(admin.titleBar.getByRole("heading")).toHaveText(text.title);
      const app = admin.app;
      const newest = app.locator("tbody tr").first();
      await expect(newest.locator('[data-column="action"]')).toHaveText(text.saveAction);
      await expect(newest.locator('[data-column="staff"]')).toHaveText(WHO);
      await expect(newest.locator('[data-column="record_id"]')).toHaveText(String(feed!.id));
      await expect(newest.locator('[data-column="outcome"]')).toContainText(text.outcome);
      await expect(newest.locator('[data-column="detail"]')).toContainText(`cron_expression: ${cron}`);

      await app.getByRole("button", { name: text.addFilter }).click();
      await app.getByRole("menuitem", { name: text.action, exact: true }).click();
      await app.getByRole("radio", { name: text.saveAction }).check({ force: true });
      await expect(app.locator('tbody tr [data-column="detail"]').first()).toContainText(`cron_expression: ${cron}`);
      expect(new Set(await app.locator('tbody tr [data-column="action"]').allInnerTexts())).toEqual(new Set([text.saveAction]));

      await app.getByRole("button", { name: text.addFilter }).click();
      await app.getByRole("menuitem", { name: text.who, exact: true }).click();
      await app.getByPlaceholder(text.filterWho).fill("local");
      await expect(app.locator('tbody tr [data-column="staff"]')).toHaveCount(0); // nobody here is the local user
      await app.getByPlaceholder(text.filterWho).fill(WHO);
      await expect(app.locator('tbody tr [data-column="detail"]').first()).toContainText(`cron_expression: ${cron}`);
      expect(new Set(await app.locator('tbody tr [data-column="staff"]').allInnerTexts())).toEqual(new Set([WHO]));
    } finally {
      await dbQuery("UPDATE feed SET cron_expression = $1 WHERE id = $2", [feed!.cron_expression, feed!.id]);
    }
  });
}
