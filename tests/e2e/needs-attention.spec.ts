// Needs attention and its alert settings (issue 30), in English and German: a
// vendor's refused file shows up after one run of the needs_attention feed, with
// its reason, age and a link to where it is acted on; Dismiss asks for a note and
// takes it out of the queue; the navigation and Home show the count. Settings
// refuse a bad value field by field, save, and say that e-mail is off while
// SMTP_URL is unset.
import { expect, test } from "@playwright/test";
import { dbQuery, open, runToEnd } from "./support";

test.describe.configure({ mode: "serial" });

const TEXTS = {
  en: {
    query: "",
    title: "Needs Attention",
    reason: (file: string, vendor: string) => `${file} from ${vendor} was refused at 4 (BSN): BSN02 is missing`,
    kind: "File refused",
    age: /^\d+ minutes?$/,
    open: "Open",
    dismiss: "Dismiss",
    note: "Note (why it needs nothing more)",
    noteRequired: "Note is required: say why the item needs nothing more.",
    dismissed: "The item is dismissed.",
    // The list is filtered (kind, search): its filters hide every row (D269).
    empty: "No rows match these filters",
    tile: (count: number) => (count === 1 ? "1 item waits for a person." : `${count} items wait for a person.`),
    settings: "Settings",
    nothingSent: "No alert is sent",
    hours855: "855 Within (Hours)",
    hoursError: "855 Within (Hours) must be a whole number of hours from 1 to 8760.",
    recipient: "Recipient 2",
    addRecipient: "Add Recipient",
    emailError: "Enter an e-mail address such as ops@example.com.",
    save: "Save Settings",
    saved: "Settings saved.",
    digest: "Daily Digest At",
  },
  de: {
    query: "locale=de",
    title: "Zu erledigen",
    reason: (file: string, vendor: string) => `${file} von ${vendor} wurde bei 4 (BSN) abgelehnt: BSN02 is missing`,
    kind: "Datei abgelehnt",
    age: /^\d+ Minuten?$/,
    open: "Öffnen",
    dismiss: "Verwerfen",
    note: "Notiz (warum nichts mehr zu tun ist)",
    noteRequired: "Notiz ist erforderlich: Sagen Sie, warum nichts mehr zu tun ist.",
    dismissed: "Der Eintrag ist verworfen.",
    empty: "Keine Zeilen entsprechen diesen Filtern",
    tile: (count: number) => (count === 1 ? "1 Eintrag wartet auf jemanden." : `${count} Einträge warten auf jemanden.`),
    settings: "Einstellungen",
    nothingSent: "Es wird keine Benachrichtigung gesendet",
    hours855: "855 innerhalb (Stunden)",
    hoursError: "855 innerhalb (Stunden) muss eine ganze Zahl von Stunden zwischen 1 und 8760 sein.",
    recipient: "Empfänger 2",
    addRecipient: "Empfänger hinzufügen",
    emailError: "Geben Sie eine E-Mail-Adresse wie ops@example.com ein.",
    save: "Einstellungen speichern",
    saved: "Einstellungen gespeichert.",
    digest: "Tagesübersicht um",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);
const openCount = async () =>
  (await dbQuery<{ n: number }>("SELECT count(*)::int AS n FROM attention_item WHERE resolved_at IS NULL AND dismissed_at IS NULL"))[0]!.n;

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a refused vendor file needs attention after one feed run, and leaves the queue when dismissed with a note`, async ({ page }) => {
    const [vendor] = await dbQuery<{ id: number; name: string }>("SELECT id, name FROM dropship_vendor WHERE enabled = 1 ORDER BY id LIMIT 1");
    const file = `856_e2e_${lang}_${Date.now()}.edi`;
    await dbQuery(
      `INSERT INTO transmission (vendor_id, partner, direction, file_name, content, content_hash, size, status, error, error_segment,
                                 transaction_set, updated_at)
       VALUES ($1, 'vendor', 'in', $2, 'ISA*', 'e2e', 4, 'failed', 'BSN02 is missing', '4 (BSN)', '856', now())`,
      [vendor!.id, file],
    );
    expect(await runToEnd(page.request, "/api/feed_run?feed_name=needs_attention")).toMatchObject({ status: "finished" });

    await open(page, withQuery(`/attention?kind=file_refused&queryValue=${encodeURIComponent(file)}`, text.query));
    await expect(page.getByRole("heading", { name: text.title })).toBeVisible();
    const row = page.locator("tbody tr").filter({ hasText: file });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(text.reason(file, vendor!.name));
    await expect(row).toContainText(text.kind);
    await expect(row.locator('[data-column="since"]')).toHaveText(text.age);
    await expect(row.getByRole("link", { name: text.open })).toHaveAttribute("href", new RegExp(`^/dropship/logs\\?file_name=${file.replace(/\./g, "\\.")}`));

    // The count: in the navigation and on Home.
    const count = await openCount();
    await expect(page.locator("nav").getByRole("link", { name: new RegExp(text.title) })).toContainText(String(count));

    await row.getByRole("button", { name: text.dismiss }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: text.dismiss }).click();
    await expect(dialog.getByText(text.noteRequired)).toBeVisible();
    await dialog.getByLabel(text.note).fill("Vendor resent it fixed by e-mail; applied by hand.");
    await dialog.getByRole("button", { name: text.dismiss }).click();
    await expect(page.locator(".Polaris-Banner").filter({ hasText: text.dismissed })).toBeVisible();
    await expect(page.getByText(text.empty)).toBeVisible();
    const [item] = await dbQuery<{ dismiss_note: string; dismissed_by: string }>(
      "SELECT dismiss_note, dismissed_by FROM attention_item WHERE kind = 'file_refused' AND reason LIKE $1",
      [`${file}%`],
    );
    expect(item).toEqual({ dismiss_note: "Vendor resent it fixed by e-mail; applied by hand.", dismissed_by: "local" });

    await open(page, withQuery("/", text.query));
    await expect(page.getByRole("region", { name: text.title })).toContainText(text.tile(await openCount()));
  });

  test(`${lang}: alert settings refuse bad values field by field, save, and say that no alert is sent`, async ({ page }) => {
    const before = await dbQuery<{ key: string; value: unknown }>("SELECT key, value FROM app_setting");
    await open(page, withQuery("/settings", text.query));
    await expect(page.getByRole("heading", { name: text.settings, exact: true })).toBeVisible();
    // The seed's recipient cannot get e-mail without SMTP_URL, and no webhook is set.
    await expect(page.locator(".Polaris-Banner").filter({ hasText: text.nothingSent })).toBeVisible();

    await page.getByLabel(text.hours855).fill("0");
    await page.getByRole("button", { name: text.addRecipient }).click();
    await page.getByLabel(text.recipient).fill("not an address");
    await page.getByRole("button", { name: text.save }).first().click();
    // Each message under its own field (the banner lists them too).
    await expect(page.locator("#settings-sla_855_hoursError")).toHaveText(text.hoursError);
    await expect(page.locator("#settings-recipient-1Error")).toHaveText(text.emailError);

    await page.getByLabel(text.hours855).fill("36");
    await page.getByLabel(text.recipient).fill(`lager-${lang}@example.com`);
    await page.getByLabel(text.digest).fill("06:45");
    await page.getByRole("button", { name: text.save }).first().click();
    await expect(page.locator(".Polaris-Banner").filter({ hasText: text.saved })).toBeVisible();
    const [levels] = await dbQuery<{ value: { sla_855_hours: number } }>("SELECT value FROM app_setting WHERE key = 'service_levels'");
    expect(levels!.value.sla_855_hours).toBe(36);
    const [alerts] = await dbQuery<{ value: { recipients: Array<{ email: string }>; digest_time: string } }>(
      "SELECT value FROM app_setting WHERE key = 'alerts'",
    );
    expect(alerts!.value.recipients.map((recipient) => recipient.email)).toContain(`lager-${lang}@example.com`);
    expect(alerts!.value.digest_time).toBe("06:45");

    // What was saved is what the page shows next time.
    await open(page, withQuery("/settings", text.query));
    await expect(page.getByLabel(text.hours855)).toHaveValue("36");
    await expect(page.getByLabel(text.recipient)).toHaveValue(`lager-${lang}@example.com`);
    // The seed's settings again, for the next language and the other specs.
    for (const row of before) await dbQuery("UPDATE app_setting SET value = $1 WHERE key = $2", [JSON.stringify(row.value), row.key]);
  });
}
