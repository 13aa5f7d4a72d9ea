// Issue 18 item 5 inside the admin: a handful of pages, opened in the admin stand-in, pass
// axe-core's WCAG 2.1 A and AA rules in the app's frame (the admin's own page is Shopify's),
// and the frame's document has the page's title (D110, D111).
import { axeFor, blocking, describeViolations } from "../axe";
import { expect, test } from "./fixtures";

const PAGES: Array<[path: string, title: string]> = [
  ["/", "Home · Operations"],
  ["/feed", "Feed Summary · Operations"],
  ["/dropship/vendor/", "Dropship Vendors · Operations"],
  ["/sales/awaiting-assignment", "Awaiting Assignment · Operations"],
  ["/eod/report?locale=de", "Tagesabschlussbericht · Betrieb"],
  ["/attention", "Needs Attention · Operations"],
  ["/settings?locale=de", "Einstellungen · Betrieb"],
];

for (const [path, title] of PAGES) {
  test(`${path} inside the admin has no serious or critical WCAG 2.1 A/AA violation in the app's frame`, async ({ admin }) => {
    const app = await admin.open(path);
    // The page has rendered: its title is in the admin's title bar (networkidle never comes with the admin's own polling).
    await expect(admin.titleBar.getByRole("heading")).toHaveText(title.split(" · ")[0]);
    await admin.page.waitForTimeout(1000);
    const violations = blocking(await axeFor(admin.page, "#app-iframe").analyze());
    expect(violations, `${path}:\n${describeViolations(violations)}`).toEqual([]);
    expect(await app.locator("html").evaluate(() => document.title)).toBe(title);
  });
}
