// The admin's conventions (issue 18 item 3) in local mode, in English and
// German: statuses as Polaris Badges toned by meaning, and a confirmation
// before a send that cannot be taken back (Cancel sends nothing).
// The title bar in embedded mode: embedded/admin-conventions.spec.ts.
import { expect, test, type Page } from "@playwright/test";
import { badgeLabels, dbQuery, open } from "./support";

test("a status is a Badge toned by its meaning, its tone read out in the staff member's language", async ({ page }) => {
  const [{ errors }] = await dbQuery<{ errors: string }>("SELECT count(*) AS errors FROM dropship_log WHERE status = 'error'");
  expect(Number(errors)).toBeGreaterThan(0); // the demo data has failed steps
  for (const [locale, label, tone] of [
    ["en", "Error", "Critical"],
    ["de", "Fehler", "Kritisch"],
  ]) {
    await open(page, `/dropship/logs/?status=error&locale=${locale}`);
    const badge = page.locator('tbody tr [data-column="status"] .Polaris-Badge').first();
    await expect(badge).toHaveClass(/Polaris-Badge--toneCritical/);
    await expect(badgeLabels(page.locator('tbody tr [data-column="status"]').first())).toHaveText(label);
    // Polaris adds the tone's name for screen readers, from its own translations.
    await expect(badge.locator(".Polaris-Text--visuallyHidden")).toHaveText(tone);
  }
  await open(page, "/dropship/logs/?status=success");
  await expect(page.locator('tbody tr [data-column="status"] .Polaris-Badge').first()).toHaveClass(/Polaris-Badge--toneSuccess/);
});

/** Counts the posts of Drop Ship Tools actions from here on. */
function countToolPosts(page: Page) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/dropship_tools_submit") posts.push(request.url());
  });
  return posts;
}

for (const [locale, texts] of [
  [
    "en",
    {
      vendor: "Vendor",
      po: "PO number",
      action: "Resend 850",
      body: "This puts a file on the server of {vendor}, where it is read as soon as it arrives. A sent file cannot be taken back.",
      cancel: "Cancel",
    },
  ],
  [
    "de",
    {
      vendor: "Lieferant",
      po: "Bestellnummer",
      action: "850 erneut senden",
      body:
        "Damit wird eine Datei auf den Server von {vendor} gelegt und dort gelesen, " +
        "sobald sie ankommt. Eine gesendete Datei kann nicht zurückgeholt werden.",
      cancel: "Abbrechen",
    },
  ],
] as const) {
  test(`Drop Ship Tools asks before sending to a vendor: Cancel sends nothing, confirming sends (${locale})`, async ({ page }) => {
    const [vendor] = await dbQuery<{ id: number; name: string }>("SELECT id, name FROM dropship_vendor WHERE archived_at IS NULL ORDER BY id LIMIT 1");
    const posts = countToolPosts(page);
    await open(page, `/dropship/tools/?locale=${locale}`);
    const select = page.getByLabel(texts.vendor, { exact: true });
    await expect(select.locator("option")).not.toHaveCount(1); // the vendors have loaded
    await select.selectOption(String(vendor.id));
    // A PO nobody ordered: the server refuses it, so nothing reaches the vendor even when confirmed.
    await page.getByLabel(texts.po, { exact: true }).fill("E2E-NO-SUCH-PO");

    await page.getByRole("button", { name: texts.action, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: `${texts.action}?` });
    await expect(dialog).toContainText(texts.body.replace("{vendor}", vendor.name));
    await dialog.getByRole("button", { name: texts.cancel }).click();
    await expect(dialog).toHaveCount(0);
    expect(posts).toHaveLength(0);

    await page.getByRole("button", { name: texts.action, exact: true }).click();
    await dialog.getByRole("button", { name: texts.action, exact: true }).click();
    await expect(dialog).toHaveCount(0);
    // The confirmed one is sent (and refused for the unknown PO, in a banner).
    await expect.poll(() => posts.length).toBe(1);
    await expect(page.locator(".Polaris-Banner").first()).toBeVisible({ timeout: 30_000 });
  });
}
