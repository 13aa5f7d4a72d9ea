// Who did what (issue 32 items 5 and 8), in English and German: a staff member
// saves a feed's schedule, opens Staff Activity from the navigation and finds
// the row with who did it, the action in words, the record and Done; then
// filters the grid by action and by person.
import { expect, test, type Page } from "@playwright/test";
import { dbQuery, open } from "./support";

test.describe.configure({ mode: "serial" });

const TEXTS = {
  en: {
    query: "",
    cron: "Cron Expression",
    save: "Save",
    saved: "Feed schedule saved",
    nav: "Staff Activity",
    action: "Action",
    saveAction: "Feed saved",
    who: "Who",
    filterWho: "Filter by Who",
    record: "Feed",
    outcome: "Done",
    addFilter: "Add filter",
  },
  de: {
    query: "locale=de",
    cron: "Cron-Ausdruck",
    save: "Speichern",
    saved: "Feed-Zeitplan gespeichert",
    nav: "Mitarbeiteraktivität",
    action: "Aktion",
    saveAction: "Feed gespeichert",
    who: "Wer",
    filterWho: "Nach Wer filtern",
    record: "Feed",
    outcome: "Erledigt",
    addFilter: "Filter hinzufügen",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);
const cells = (page: Page, column: string) => page.locator(`tbody tr [data-column="${column}"]`);

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a saved feed schedule shows in Staff Activity with who and what, filtered by action and by person`, async ({ page }) => {
    const [feed] = await dbQuery<{ id: number; cron_expression: string }>("SELECT id, cron_expression FROM feed WHERE name = 'vendor_invoices_810'");
    const cron = lang === "en" ? "31 6 * * *" : "32 6 * * *";
    try {
      await open(page, withQuery(`/feed/edit?id=${feed!.id}`, text.query));
      await page.getByLabel(text.cron).fill(cron);
      await page.getByRole("button", { name: text.save, exact: true }).first().click();
      await expect(page.getByText(text.saved)).toBeVisible();
      await expect(page).toHaveURL(/\/feed(\?|$)/); // the form goes back to Feed Summary after its banner

      // Reached from the navigation.
      await page.locator("nav").getByRole("link", { name: text.nav }).click();
      await expect(page.getByRole("heading", { name: text.nav, exact: true })).toBeVisible();
      await expect(page).toHaveURL(/\/staff-activity/);
      const newest = page.locator("tbody tr").first();
      await expect(newest.locator('[data-column="action"]')).toHaveText(text.saveAction);
      await expect(newest.locator('[data-column="staff"]')).toHaveText("local");
      await expect(newest.locator('[data-column="record_type"]')).toHaveText(text.record);
      await expect(newest.locator('[data-column="record_id"]')).toHaveText(String(feed!.id));
      await expect(newest.locator('[data-column="outcome"]')).toContainText(text.outcome);
      await expect(newest.locator('[data-column="detail"]')).toContainText(`cron_expression: ${cron}`);

      // By action: only saved feeds.
      await page.getByRole("button", { name: text.addFilter }).click();
      await page.getByRole("menuitem", { name: text.action, exact: true }).click();
      await page.getByRole("radio", { name: text.saveAction }).check({ force: true });
      await expect(page).toHaveURL(/action=feed\.save/);
      await expect(cells(page, "detail").first()).toContainText(`cron_expression: ${cron}`);
      expect(new Set(await cells(page, "action").allInnerTexts())).toEqual(new Set([text.saveAction]));

      // By person: the local user has them; nobody else does.
      await page.getByRole("button", { name: text.addFilter }).click();
      await page.getByRole("menuitem", { name: text.who, exact: true }).click();
      await page.getByPlaceholder(text.filterWho).fill("shopify-user");
      await expect(page).toHaveURL(/staff=shopify-user/);
      await expect(cells(page, "staff")).toHaveCount(0);
      await page.getByPlaceholder(text.filterWho).fill("local");
      await expect(page).toHaveURL(/staff=local/);
      await expect(cells(page, "detail").first()).toContainText(`cron_expression: ${cron}`);
      expect(new Set(await cells(page, "staff").allInnerTexts())).toEqual(new Set(["local"]));
    } finally {
      await dbQuery("UPDATE feed SET cron_expression = $1 WHERE id = $2", [feed!.cron_expression, feed!.id]);
    }
  });
}
