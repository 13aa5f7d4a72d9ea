// Home (spec 001 §2): the link groups and the Daily Sales block, on the demo seed.
import { expect, test, type Page } from "@playwright/test";
import { formatMoney } from "../../app/lib/format";
import { dbQuery, open } from "./support";

// The link groups exactly as spec 001 §2 lists them.
const GROUPS: Array<[string, Array<[string, string]>]> = [
  [
    "Dropship",
    [
      ["View Vendors", "/dropship/vendor/"],
      ["New Vendor", "/dropship/vendor/edit/"],
      ["View Shipment Requests", "/dropship/requests/"],
      ["View Shipment Responses", "/dropship/responses/"],
      ["View Logs", "/dropship/logs/"],
      ["Tools", "/dropship/tools/"],
      ["Test Page", "/dropship/test/"],
    ],
  ],
  ["Advanced orders", [["Advanced Order Summary", "/advancedorder/"]]],
  [
    "EOD",
    [
      ["EOD Report", "/eod/report"],
      ["EOD Batches", "/eod/batch"],
    ],
  ],
  ["Feeds", [["Feed Summary", "/feed/"]]],
  [
    "Sales",
    [
      ["Unassigned Orders", "/sales/unassigned-orders"],
      ["Awaiting Assignment", "/sales/awaiting-assignment"],
      ["In Progress Assignment", "/sales/in-progress-assignment"],
      ["Realtime Sales/Refund Logs", "/sales/realtime-sales-log"],
      ["Realtime Shipping Logs", "/sales/realtime-shipping-log"],
      ["Stores", "/stores"],
    ],
  ],
  [
    "Special orders",
    [
      ["Current Special Orders", "/special_order/current"],
      ["Special Order Errors", "/special_order/error/"],
      ["Special Order Logs", "/special_order/log/"],
    ],
  ],
  [
    "Products",
    [
      ["Products", "/product/"],
      ["Product API Errors", "/product/api/error/"],
      ["Product API Operations", "/product/api/operation/"],
      ["AS400 Category to Shopify Tags Mappings", "/product/category_tags_mapping/"],
    ],
  ],
];

const FIGURES = [
  ["total_invoices", "Sales for the day"],
  ["credit_memos", "Returns for the day"],
  ["shipping_invoices", "Shipping invoices"],
  ["net_sales", "Net sales"],
  ["total_outstanding_orders", "Total outstanding orders"],
  ["total_pending_dropship_orders", "Pending dropship orders"],
] as const;

interface Answer {
  day: string;
  net_sales: number;
  total_invoices: number;
  credit_memos: number;
  shipping_invoices: number;
  total_outstanding_orders: number;
  total_pending_dropship_orders: number;
  total_assignments: Record<string, { source_code: string; qty_assigned: number; assigned: number; shipped: number }>;
  history: Array<{ date: string; net_sales: number }>;
}

/** Opens Home and answers what its request to /api/daily_sales got back. */
async function openHome(page: Page, url = "/"): Promise<Answer> {
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/daily_sales");
  await open(page, url);
  const response = await answered;
  expect(response.status()).toBe(200);
  return (await response.json()) as Answer;
}

const usShortDate = (day: string) => new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));

async function tableRows(page: Page) {
  const rows = page.getByTestId("daily-sales-assignments").locator("tbody tr");
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push((await row.locator("th, td").allInnerTexts()).map((text) => text.trim()));
  return texts;
}

test("Home has the spec's link groups with their links", async ({ page }) => {
  await openHome(page);
  const main = page.locator("main");
  for (const [group, links] of GROUPS) {
    const card = main.getByRole("region", { name: group, exact: true });
    await expect(card.getByRole("heading", { name: group, exact: true })).toBeVisible();
    await expect(card.getByRole("link")).toHaveCount(links.length);
    for (const [label, href] of links) {
      await expect(card.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href);
    }
  }
});

test("the Daily Sales block shows what /api/daily_sales answers", async ({ page }) => {
  const answer = await openHome(page);
  const block = page.getByRole("region", { name: "Daily Sales", exact: true });
  await expect(block.getByRole("heading", { name: `Daily Sales · ${usShortDate(answer.day)}` })).toBeVisible();

  for (const [key, label] of FIGURES) {
    const figure = page.getByTestId(`daily-sales-${key}`);
    await expect(figure).toContainText(label);
    await expect(figure.getByTestId("value")).toHaveText(formatMoney(answer[key]));
  }
  expect(answer.net_sales).toBeCloseTo(answer.total_invoices - answer.credit_memos - answer.shipping_invoices, 2);

  // The answer is the database's: the day's invoices and the assignments created that day in APP_TIMEZONE.
  const [sums] = await dbQuery<{ invoices: string }>(
    "SELECT COALESCE(SUM(amount), 0)::text AS invoices FROM sales_record WHERE record_type = 'invoice' AND record_date = $1::date",
    [answer.day],
  );
  expect(answer.total_invoices).toBeCloseTo(Number(sums.invoices), 2);
  const perStore = await dbQuery<{ store_id: string; assigned: number }>(
    `SELECT store_id, COUNT(*)::int AS assigned FROM assignment
      WHERE created_time >= $1::date::timestamp AT TIME ZONE 'America/New_York'
        AND created_time < ($1::date + 1)::timestamp AT TIME ZONE 'America/New_York'
        AND NOT EXISTS (SELECT 1 FROM dnh_transfer d WHERE d.assignment_id = assignment.id)
      GROUP BY store_id ORDER BY store_id`,
    [answer.day],
  );
  expect(Object.values(answer.total_assignments).map((store) => [store.source_code, store.assigned])).toEqual(
    perStore.map((row) => [row.store_id, row.assigned]),
  );

  // The per-store table, or its empty text (the demo's assignments of today depend on the hour).
  const stores = Object.values(answer.total_assignments);
  const section = page.getByTestId("daily-sales-assignments");
  if (stores.length) {
    await expect(section.locator("thead th")).toHaveText(["Store Number", "Qty Assigned", "Assigned", "Shipped", "Need To Be Shipped"]);
    expect(await tableRows(page)).toEqual(
      stores.map((store) => [
        store.source_code,
        String(store.qty_assigned),
        String(store.assigned),
        String(store.shipped),
        String(store.assigned - store.shipped),
      ]),
    );
  } else {
    await expect(section).toContainText("No assignments were created today");
  }

  // The chart: fourteen bars, one per day, each titled with its date and amount.
  expect(answer.history).toHaveLength(14);
  expect(answer.history[13]).toEqual({ date: answer.day, net_sales: answer.net_sales });
  const chart = page.getByRole("img", { name: /^Bar chart of net sales per day/ });
  await expect(chart).toBeVisible();
  const bars = chart.locator("rect.net-sales-bar");
  await expect(bars).toHaveCount(14);
  for (const [index, day] of answer.history.entries()) {
    await expect(bars.nth(index).locator("title")).toHaveText(`${usShortDate(day.date)}: ${formatMoney(day.net_sales)}`);
  }
  await expect(chart).toHaveAttribute("aria-label", new RegExp(`from ${usShortDate(answer.history[0].date)} to ${usShortDate(answer.day)}`));
});

test("the per-store table and the chart from a crafted answer: rows, need to be shipped, a negative day below the baseline", async ({ page }) => {
  const days = Array.from({ length: 14 }, (_, i) => new Date(Date.UTC(2026, 10, 7 + i)).toISOString().slice(0, 10));
  const crafted: Answer = {
    day: days[13],
    total_invoices: 1234.5,
    credit_memos: 100,
    shipping_invoices: 34.5,
    net_sales: 1100,
    total_outstanding_orders: 98765.43,
    total_pending_dropship_orders: 4321,
    total_assignments: {
      "001": { source_code: "001", qty_assigned: 7, assigned: 5, shipped: 2 },
      DS03: { source_code: "DS03", qty_assigned: 3, assigned: 3, shipped: 3 },
    },
    history: days.map((date, i) => ({ date, net_sales: i === 13 ? 1100 : i === 4 ? -250.75 : i % 3 === 0 ? 0 : 50 * i })),
  };
  await page.route("**/api/daily_sales", (route) => route.fulfill({ json: { ...crafted, outstanding_order_count: 12, pending_dropship_order_count: 1 } }));
  await open(page, "/");
  await expect(page.getByTestId("daily-sales-total_outstanding_orders")).toContainText("$98,765.43");
  await expect(page.getByTestId("daily-sales-total_outstanding_orders")).toContainText("12 orders");
  await expect(page.getByTestId("daily-sales-total_pending_dropship_orders")).toContainText("1 order");
  await expect(page.getByTestId("daily-sales-assignments").locator("tbody tr")).toHaveCount(2);
  expect(await tableRows(page)).toEqual([
    ["001", "7", "5", "2", "3"],
    ["DS03", "3", "3", "3", "0"],
  ]);

  const chart = page.getByRole("img", { name: /^Bar chart of net sales per day/ });
  await expect(chart).toHaveAttribute("aria-label", /highest \$1,100\.00 on 11\/20\/26, lowest -\$250\.75 on 11\/11\/26, today \$1,100\.00/);
  const bars = chart.locator("rect.net-sales-bar");
  await expect(bars).toHaveCount(14);
  const geometry = await bars.evaluateAll((rects) => rects.map((rect) => ({ y: Number(rect.getAttribute("y")), height: Number(rect.getAttribute("height")) })));
  const baseline = Number(await chart.locator("line").last().getAttribute("y1"));
  expect(geometry[4].y).toBeCloseTo(baseline, 5); // negative: starts at the baseline and goes down
  expect(geometry[13].y + geometry[13].height).toBeCloseTo(baseline, 5); // positive: ends at the baseline
  expect(geometry[13].height).toBeGreaterThan(geometry[12].height);
  await expect(bars.nth(4).locator("title")).toHaveText("11/11/26: -$250.75");
});

test("no assignments today shows the empty text", async ({ page }) => {
  const answer = await openHome(page);
  await page.route("**/api/daily_sales", (route) => route.fulfill({ json: { ...answer, total_assignments: {} } }));
  await open(page, "/");
  await expect(page.getByTestId("daily-sales-assignments")).toContainText("No assignments were created today");
  await expect(page.getByTestId("daily-sales-assignments").locator("table")).toHaveCount(0);
});

test("a failing /api/daily_sales shows the error banner while the link groups stay", async ({ page }) => {
  test.setTimeout(60_000);
  let calls = 0;
  await page.route("**/api/daily_sales", (route) => {
    calls += 1;
    return route.fulfill({ status: 500, json: { error: true, message: "Internal error (reference test)" } });
  });
  await open(page, "/");
  // Retried three times (1 s, 2 s, 4 s) before the banner.
  const banner = page.locator(".Polaris-Banner", { hasText: "Something went wrong when loading in the daily sales data" });
  await expect(banner).toBeVisible({ timeout: 20_000 });
  expect(calls).toBe(4);
  await expect(page.getByRole("img", { name: /net sales/ })).toHaveCount(0);
  for (const [group] of GROUPS) await expect(page.locator("main").getByRole("heading", { name: group, exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Realtime Shipping Logs" })).toHaveAttribute("href", "/sales/realtime-shipping-log");
});

test("the block speaks the page's language", async ({ page }) => {
  await openHome(page, "/?locale=de");
  await expect(page.getByTestId("daily-sales-total_invoices")).toContainText("Umsatz des Tages");
  await expect(page.getByRole("img", { name: /^Balkendiagramm des Nettoumsatzes/ })).toBeVisible();
});
