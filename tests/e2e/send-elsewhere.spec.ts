import { expect, test, type Page } from "@playwright/test";
import { badgeLabels, dbQuery, open, setShopifyLevels } from "./support";
import { seedBackorderedRequest } from "./send-elsewhere";

// Issue 29 (D231–D232): a backordered request, "Send to another source" from
// the requests grid, the Reassign form offering only sources with stock of
// the SKU, Save; the vendor is asked to cancel its PO and a new Pending
// assignment goes to the chosen store. In English and in German.
test.describe.configure({ mode: "serial" });

const TEXTS = {
  en: {
    query: "",
    send: "Send to another source",
    revise: "Revise",
    qty: "Qty",
    banner: (vendor: string, po: string) => `Saving asks ${vendor} to cancel PO ${po}; the item goes to the source you choose at once.`,
    saved: (vendor: string, po: string) => `${vendor} is asked to cancel PO ${po}.`,
    cancelRequested: "Cancel Requested",
    pending: "Pending",
    backordered: "Backordered",
    save: "Save",
    store: "Store/Dropshipper",
    answer: "The vendor's answer",
    cancellations: "Cancellations",
    reassigned: "Reassigned",
  },
  de: {
    query: "locale=de",
    send: "An eine andere Quelle senden",
    revise: "Überarbeiten",
    qty: "Menge",
    banner: (vendor: string, po: string) =>
      `Beim Speichern wird ${vendor} gebeten, die Bestellung ${po} zu stornieren; der Artikel geht sofort an die gewählte Quelle.`,
    saved: (vendor: string, po: string) => `${vendor} wird gebeten, die Bestellung ${po} zu stornieren.`,
    cancelRequested: "Stornierung angefragt",
    pending: "Ausstehend",
    backordered: "Im Rückstand",
    save: "Speichern",
    store: "Filiale/Dropshipper",
    answer: "Antwort des Lieferanten",
    cancellations: "Stornierungen",
    reassigned: "Neu zugewiesen",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);

/** The options of the Store/Dropshipper select: label, value, disabled. */
const optionsOf = (page: Page, label: string) =>
  page
    .getByLabel(label, { exact: true })
    .locator("option")
    .evaluateAll((options) =>
      options.map((option) => ({
        label: option.textContent ?? "",
        value: (option as HTMLOptionElement).value,
        disabled: (option as HTMLOptionElement).disabled,
      })),
    );

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a backordered request goes to another source with stock; the vendor is asked to cancel it`, async ({ page }) => {
    const seeded = await seedBackorderedRequest(dbQuery, lang);
    // Stores' stock is Shopify's (D48): Chicago has enough, Milwaukee one less than the item needs.
    await setShopifyLevels([
      { sku: seeded.sku, location: "Store 001 - Chicago", quantity: 500 },
      { sku: seeded.sku, location: "Store 002 - Milwaukee", quantity: seeded.qty - 1 },
    ]);

    // The requests grid: the backordered row offers "Send to another source".
    await open(page, withQuery(`/dropship/requests?po_number=${seeded.po_number}`, text.query));
    const row = page.locator("tbody tr").filter({ hasText: seeded.po_number });
    await expect(row).toHaveCount(1);
    await expect(badgeLabels(row)).toHaveText([text.backordered]);
    await row.getByRole("link", { name: text.send }).click();
    await expect(page).toHaveURL(new RegExp(`/sales/awaiting-assignment/reassign\\?id=${seeded.assignment_id}`));
    if (text.query) await expect(page).toHaveURL(new RegExp(text.query));
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

    // The warning names the vendor and the PO; only sources with enough stock can be chosen.
    await expect(page.getByText(text.banner(seeded.vendor_name, seeded.po_number))).toBeVisible();
    const options = (await optionsOf(page, text.store)).filter((option) => option.value !== "");
    expect(options.map((option) => option.value)).not.toContain(seeded.vendor_source);
    for (const option of options) {
      // A vendor adds its on-time rate after the quantity (D244).
      const qty = new RegExp(`\\(${text.qty} ?: (\\d+)(, [^)]*)?\\)$`).exec(option.label.trim());
      expect(qty, `${option.label}: offered with its quantity`).not.toBeNull();
      expect(option.disabled, option.label).toBe(Number(qty![1]) < seeded.qty);
    }
    expect(options.find((option) => option.value === "001")).toMatchObject({ disabled: false, label: expect.stringContaining("Store 001 - Chicago") });
    expect(options.find((option) => option.value === "002")).toMatchObject({
      disabled: true,
      label: expect.stringContaining(`(${text.qty}: ${seeded.qty - 1})`),
    });

    await page.getByLabel(text.store, { exact: true }).selectOption("001");
    await page.getByRole("button", { name: text.save, exact: true }).click();
    await expect(page.locator(".Polaris-Banner").filter({ hasText: text.saved(seeded.vendor_name, seeded.po_number) })).toBeVisible();
    await expect(page).toHaveURL(/\/sales\/awaiting-assignment\/(\?locale=de)?$/, { timeout: 5000 });

    // The old request is Cancel Requested, and offers nothing more.
    await open(page, withQuery(`/dropship/requests?po_number=${seeded.po_number}`, text.query));
    const after = page.locator("tbody tr").filter({ hasText: seeded.po_number });
    await expect(badgeLabels(after)).toHaveText([text.cancelRequested]);
    await expect(after.getByRole("link", { name: text.send })).toHaveCount(0);

    // Its revise form shows the vendor's answer and the cancellation asked of it.
    await after.getByRole("link", { name: text.revise }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByText(text.answer)).toBeVisible();
    await expect(page.locator("#field-vendor_codes")).toHaveValue("IB BP");
    await expect(page.locator("#field-vendor_note")).toHaveValue("Back in stock before Christmas");
    await expect(page.locator("#field-status")).toHaveValue(text.cancelRequested);
    await expect(page.locator("#request-cancellations tbody tr")).toHaveCount(1);
    await expect(page.locator("#request-cancellations tbody tr")).toContainText(text.reassigned);

    // A new Pending assignment at the chosen store is awaiting assignment; the old one is not listed.
    const [created] = await dbQuery<{ id: number }>("SELECT id FROM assignment WHERE order_increment_id = $1 AND store_id = '001'", [seeded.order_id]);
    await open(page, withQuery(`/sales/awaiting-assignment?order_increment_id=${seeded.order_id}`, text.query));
    const rows = page.locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.locator('[data-column="id"]')).toHaveText(String(created.id));
    await expect(rows.locator('[data-column="store_id"]')).toHaveText("001");
    await expect(badgeLabels(rows.locator('[data-column="assign_status"]'))).toHaveText([text.pending]);
  });
}
