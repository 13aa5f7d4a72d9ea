// Issue 18 item 5: every page of the app passes axe-core's WCAG 2.1 A and AA rules with
// no serious or critical violation, in English and German, once hydrated and loaded; and
// every page has a document title: its heading and the app's name, translated (D111).
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { axeFor, blocking, describeViolations } from "./axe";
import { dbQuery, open } from "./support";

const LOCALES = ["en", "de"] as const;
const texts = (locale: string) =>
  JSON.parse(readFileSync(`public/locales/${locale}/common.json`, "utf8")) as { app: { title: string }; not_found: { heading: string } };

const ID_QUERIES = {
  request: "SELECT request_id AS id FROM dropship_request ORDER BY request_id LIMIT 1",
  response: "SELECT id FROM dropship_response ORDER BY id LIMIT 1",
  vendor: "SELECT id FROM dropship_vendor WHERE archived_at IS NULL ORDER BY id LIMIT 1",
  feed: "SELECT id FROM feed ORDER BY id LIMIT 1",
  awaiting: "SELECT id FROM assignment WHERE assign_status IN (1, 2) ORDER BY id LIMIT 1",
  inProgress: "SELECT id FROM assignment WHERE assign_status = 3 ORDER BY id LIMIT 1",
  order: `SELECT o.order_id AS id FROM order_grid o JOIN order_item i ON i.order_id = o.id
           WHERE o.magento_status = 'processing' AND i.qty_ordered > COALESCE((SELECT sum(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id), 0)
           ORDER BY o.id LIMIT 1`,
  specialOrderError: "SELECT id FROM special_order_error ORDER BY id LIMIT 1",
  mapping: "SELECT id FROM category_tags_mapping ORDER BY id LIMIT 1",
  store: "SELECT id FROM inventory_source ORDER BY id LIMIT 1",
};
type Ids = Record<keyof typeof ID_QUERIES, string>;

/** Every page of app/routes/_app.*.tsx; edit pages with a record of the demo data. */
const PAGES: Array<(ids: Ids) => string> = [
  () => "/",
  () => "/advancedorder",
  () => "/dropship",
  () => "/dropship/vendor/",
  () => "/dropship/vendor/edit/",
  (ids) => `/dropship/vendor/edit?id=${ids.vendor}`,
  () => "/dropship/requests/",
  (ids) => `/dropship/requests/revise?id=${ids.request}`,
  () => "/dropship/responses/",
  (ids) => `/dropship/responses/revise?id=${ids.response}`,
  () => "/dropship/logs/",
  () => "/dropship/tools/",
  () => "/dropship/test/",
  () => "/eod/report",
  () => "/eod/batch",
  () => "/feed",
  () => "/feed/item",
  (ids) => `/feed/edit?id=${ids.feed}`,
  () => "/sales",
  () => "/sales/unassigned-orders",
  (ids) => `/sales/assignment/manual-assignment?order_id=${ids.order}`,
  () => "/sales/awaiting-assignment",
  (ids) => `/sales/awaiting-assignment/reassign?id=${ids.awaiting}`,
  () => "/sales/in-progress-assignment",
  (ids) => `/sales/in-progress-assignment/dnh?assignment_id=${ids.inProgress}`,
  () => "/sales/realtime-sales-log",
  () => "/sales/realtime-shipping-log",
  () => "/stores",
  (ids) => `/stores/edit?id=${ids.store}`,
  () => "/special_order",
  () => "/special_order/current",
  () => "/special_order/error",
  () => "/special_order/log",
  (ids) => `/special_order/revise?id=${ids.specialOrderError}`,
  () => "/product",
  () => "/product/api/error/",
  () => "/product/api/operation/",
  () => "/product/category_tags_mapping",
  () => "/product/category_tags_mapping/edit",
  (ids) => `/product/category_tags_mapping/edit?id=${ids.mapping}`,
  () => "/attention",
  () => "/settings",
  () => "/staff-activity",
  () => "/no/such/page",
];

let ids: Ids;
test.beforeAll(async () => {
  const entries = await Promise.all(
    Object.entries(ID_QUERIES).map(async ([key, sql]) => {
      const [row] = await dbQuery<{ id: string | number }>(sql);
      if (!row) throw new Error(`the demo data has no row for: ${sql}`);
      return [key, String(row.id)] as const;
    }),
  );
  ids = Object.fromEntries(entries) as Ids;
});

for (const locale of LOCALES) {
  PAGES.forEach((pagePath, index) => {
    const label = pagePath(new Proxy({} as Ids, { get: (_, key) => `{${String(key)}}` }));
    test(`${label} (${locale}) has no serious or critical WCAG 2.1 A/AA violation and a title`, async ({ page }) => {
      const path = pagePath(ids);
      await open(page, `${path}${path.includes("?") ? "&" : "?"}locale=${locale}`);
      // The page's own calls (grids, forms, the daily sales) have answered.
      await page.waitForLoadState("networkidle");

      const violations = blocking(await axeFor(page).analyze());
      expect(violations, `${path} (${locale}):\n${describeViolations(violations)}`).toEqual([]);

      // The title is the page's heading and the app's name (the not-found page has no h1: its empty state's heading).
      const heading = index === PAGES.length - 1 ? texts(locale).not_found.heading : await page.getByRole("heading", { level: 1 }).first().textContent();
      await expect(page).toHaveTitle(`${heading?.trim()} · ${texts(locale).app.title}`);
    });
  });
}
