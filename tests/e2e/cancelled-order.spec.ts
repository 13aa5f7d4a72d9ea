import { expect, test } from "@playwright/test";
import { badgeLabels, dbQuery, open } from "./support";
import { seedBackorderedRequest } from "./send-elsewhere";

// Issue 29 (D226): an order cancelled while its vendor has the PO. In embedded
// mode orders/cancelled marks it; here the order row is marked as that webhook
// would, and Populate Ship Requests, whose sweep runs first, asks the vendor to
// cancel it. The request shows Cancel Requested, and its revise form the
// cancellation and why. In English and in German.
test.describe.configure({ mode: "serial" });

const TEXTS = {
  en: {
    query: "",
    populate: "Populate Ship Requests",
    cancelRequested: "Cancel Requested",
    revise: "Revise",
    cancellations: "Cancellations",
    cause: "Order cancelled",
    pending: "Pending",
  },
  de: {
    query: "locale=de",
    populate: "Versandanfragen erzeugen",
    cancelRequested: "Stornierung angefragt",
    revise: "Überarbeiten",
    cancellations: "Stornierungen",
    cause: "Bestellung storniert",
    pending: "Ausstehend",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a cancelled order's request is asked back from its vendor`, async ({ page }) => {
    test.setTimeout(120_000);
    const seeded = await seedBackorderedRequest(dbQuery, `oc${lang}`);
    await dbQuery("UPDATE order_grid SET shopify_cancelled_at = now() WHERE order_id = $1", [seeded.order_id]);

    // The seed's Pending assignments are set aside meanwhile: the step would make them requests, which other specs need Pending.
    const parked = (await dbQuery<{ id: number }>("UPDATE assignment SET assign_status = 91 WHERE assign_status = 1 RETURNING id")).map((row) => row.id);
    try {
      await open(page, withQuery("/dropship/test/", text.query));
      await page.getByRole("button", { name: text.populate }).click();
      // The step runs in the background (D93) until its result shows.
      await expect(page.locator(".Polaris-Banner").first()).toBeVisible({ timeout: 120_000 });
      await expect(page.getByRole("button", { name: text.populate })).toBeEnabled();
    } finally {
      await dbQuery("UPDATE assignment SET assign_status = 1 WHERE id = ANY($1::int[]) AND assign_status = 91", [parked]);
    }

    await open(page, withQuery(`/dropship/requests?po_number=${seeded.po_number}`, text.query));
    const row = page.locator("tbody tr").filter({ hasText: seeded.po_number });
    await expect(badgeLabels(row)).toHaveText([text.cancelRequested]);

    await row.getByRole("link", { name: text.revise }).click();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByText(text.cancellations, { exact: true })).toBeVisible();
    const cancellation = page.locator("#request-cancellations tbody tr");
    await expect(cancellation).toHaveCount(1);
    await expect(cancellation).toContainText(text.cause);
    await expect(cancellation).toContainText(text.pending);
  });
}
