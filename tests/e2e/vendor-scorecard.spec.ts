// Vendor scorecards (issue 30 item 5), in English and German: the vendor grid's
// 30-day columns, the vendor form's card with 30 and 90 days side by side, and
// a dropshipper's on-time rate beside its stock in Manual Assignment. The demo
// seed made the scorecards from its own POs; the figures are read back from the
// database to compare.
import { expect, test } from "@playwright/test";
import { dbQuery, open } from "./support";

const TEXTS = {
  en: {
    query: "",
    column: "Shipped On Time (30 Days)",
    card: "Scorecard",
    shipped: "Shipped (856) on time",
    sent: "POs sent",
    days: ["30 days", "90 days"] as const,
    percent: (value: number) => `${value}%`,
    rate: (value: number) => `on time ${value}% in 30 days`,
    newAssignment: "New Assignment",
  },
  de: {
    query: "locale=de",
    column: "Pünktlich versandt (30 Tage)",
    card: "Leistungsbilanz",
    shipped: "Pünktlich versandt (856)",
    sent: "Gesendete Bestellungen",
    days: ["30 Tage", "90 Tage"] as const,
    percent: (value: number) => `${value} %`,
    rate: (value: number) => `pünktlich ${value} % in 30 Tagen`,
    newAssignment: "Neue Zuweisung",
  },
} as const;

const withQuery = (path: string, query: string) => (query ? `${path}${path.includes("?") ? "&" : "?"}${query}` : path);

for (const [lang, text] of Object.entries(TEXTS)) {
  test(`${lang}: a vendor's scorecard on the grid, on its form, and beside its stock in Manual Assignment`, async ({ page }) => {
    const [card] = await dbQuery<{ vendor_id: number; name: string; store_id: string; pos_sent: number; ship_due: number; ship_on_time: number }>(
      `SELECT c.vendor_id, v.name, v.store_id, c.pos_sent, c.ship_due, c.ship_on_time FROM vendor_scorecard c JOIN dropship_vendor v ON v.id = c.vendor_id
        WHERE c.window_days = 30 AND c.ship_due > 0 AND v.enabled = 1 ORDER BY c.vendor_id LIMIT 1`,
    );
    expect(card, "a demo vendor with POs due in the last 30 days").toBeTruthy();
    const onTime = Math.round((100 * card!.ship_on_time) / card!.ship_due);

    await open(page, withQuery(`/dropship/vendor/?name=${encodeURIComponent(card!.name)}`, text.query));
    await expect(page.getByRole("columnheader", { name: text.column })).toBeVisible();
    const header = await page.locator("thead th").allInnerTexts();
    const row = page.locator("tbody tr").filter({ hasText: card!.name }).first();
    await expect(row.locator("td").nth(header.findIndex((title) => title.trim() === text.column))).toHaveText(text.percent(onTime));

    await open(page, withQuery(`/dropship/vendor/edit?id=${card!.vendor_id}`, text.query));
    await expect(page.getByRole("heading", { name: text.card, exact: true })).toBeVisible();
    const section = page.locator("table").filter({ has: page.getByRole("columnheader", { name: text.days[0], exact: true }) });
    await expect(section.getByRole("columnheader", { name: text.days[0], exact: true })).toBeVisible();
    await expect(section.getByRole("columnheader", { name: text.days[1], exact: true })).toBeVisible();
    await expect(section.locator("tbody tr").filter({ hasText: text.sent }).locator("td").first()).toHaveText(String(card!.pos_sent));
    await expect(section.locator("tbody tr").filter({ hasText: text.shipped }).locator("td").first()).toHaveText(text.percent(onTime));

    // Manual Assignment: an order with an unassigned item offers the vendor with its rate.
    const [unassigned] = await dbQuery<{ order_id: string }>(
      `SELECT o.order_id FROM order_grid o JOIN order_item i ON i.order_id = o.id
        WHERE i.qty_ordered > COALESCE((SELECT sum(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id AND a.assign_status NOT IN (5, 6)), 0)
        ORDER BY o.id LIMIT 1`,
    );
    await open(page, withQuery(`/sales/assignment/manual-assignment?order_id=${unassigned!.order_id}`, text.query));
    await page.getByRole("button", { name: text.newAssignment }).click();
    const option = page.locator("option").filter({ hasText: card!.name }).first();
    await expect(option).toHaveText(new RegExp(text.rate(onTime).replace(/[%()]/g, "\\$&")));
  });
}
