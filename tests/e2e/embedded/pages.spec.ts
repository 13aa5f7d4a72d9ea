// Every page of both specs, opened inside the admin as staff open it: the
// admin frames the app URL with shop, host, embedded=1 and a fresh id_token.
// Each page must render its heading, no error boundary, and no console error.
import { dbQuery, expect, test, type Admin } from "./fixtures";

async function firstId(sql: string): Promise<string> {
  const [row] = await dbQuery<{ id: string | number }>(sql);
  if (!row) throw new Error(`the demo data has no row for: ${sql}`);
  return String(row.id);
}

/** A page's title: every screen has it in the admin's title bar (App Bridge, issue 18 item 3; D120). */
async function pageTitle(admin: Admin): Promise<string> {
  return ((await admin.titleBar.getByRole("heading").textContent()) ?? "").trim();
}

test("every page of both specs loads inside the admin without an error", async ({ admin }) => {
  test.setTimeout(240_000);
  const ids = {
    request: await firstId("SELECT request_id AS id FROM dropship_request ORDER BY request_id LIMIT 1"),
    response: await firstId("SELECT id FROM dropship_response ORDER BY id LIMIT 1"),
    vendor: await firstId("SELECT id FROM dropship_vendor WHERE archived_at IS NULL ORDER BY id LIMIT 1"),
    feed: await firstId("SELECT id FROM feed ORDER BY id LIMIT 1"),
    awaiting: await firstId("SELECT id FROM assignment WHERE assign_status IN (1, 2) ORDER BY id LIMIT 1"),
    inProgress: await firstId("SELECT id FROM assignment WHERE assign_status = 3 ORDER BY id LIMIT 1"),
    order: await firstId(
      `SELECT o.order_id AS id FROM order_grid o JOIN order_item i ON i.order_id = o.id
        WHERE o.magento_status = 'processing' AND i.qty_ordered > COALESCE((SELECT sum(a.qty_assigned) FROM assignment a WHERE a.item_id = i.item_id), 0)
        ORDER BY o.id LIMIT 1`,
    ),
    specialOrderError: await firstId("SELECT id FROM special_order_error ORDER BY id LIMIT 1"),
    mapping: await firstId("SELECT id FROM category_tags_mapping ORDER BY id LIMIT 1"),
  };
  const pages: Array<[path: string, heading: string]> = [
    ["/", "Home"],
    ["/advancedorder", "Advanced Order Summary"],
    ["/dropship", "Dropship"],
    ["/dropship/vendor/", "Dropship Vendors"],
    ["/dropship/vendor/edit/", "Edit Vendor"],
    [`/dropship/vendor/edit?id=${ids.vendor}`, "Edit Vendor"],
    ["/dropship/requests/", "Drop Shipping Requests"],
    [`/dropship/requests/revise?id=${ids.request}`, "Revise Drop Shipping request"],
    ["/dropship/responses/", "Drop Shipping Responses"],
    [`/dropship/responses/revise?id=${ids.response}`, "Revise Drop Shipping Response"],
    ["/dropship/logs/", "Drop Shipping Logs"],
    ["/dropship/tools/", "Drop Ship Tools"],
    ["/dropship/test/", "Drop Ship Test Page"],
    ["/eod/report", "EOD Report"],
    ["/eod/batch", "EOD Batches"],
    ["/feed", "Feed Summary"],
    ["/feed/item", "Feed Logs"],
    [`/feed/edit?id=${ids.feed}`, "Edit Feed Schedule"],
    ["/sales", "Sales"],
    ["/sales/unassigned-orders", "Unassigned Orders"],
    [`/sales/assignment/manual-assignment?order_id=${ids.order}`, "Manual Assignment Tool"],
    ["/sales/awaiting-assignment", "Awaiting Assignment"],
    [`/sales/awaiting-assignment/reassign?id=${ids.awaiting}`, "Reassign Assignment"],
    ["/sales/in-progress-assignment", "In Progress Assignment"],
    [`/sales/in-progress-assignment/dnh?assignment_id=${ids.inProgress}`, "DNH Transfer"],
    ["/sales/realtime-sales-log", "Realtime Sales/Refund Logs"],
    ["/sales/realtime-shipping-log", "Realtime Shipping Logs"],
    ["/special_order", "Special Orders"],
    ["/special_order/current", "Current Special Orders"],
    ["/special_order/error", "Special Order Errors"],
    ["/special_order/log", "Special Order Logs"],
    [`/special_order/revise?id=${ids.specialOrderError}`, "Revise Special Order"],
    ["/product", "Products"],
    ["/product/api/error/", "Product API Errors"],
    ["/product/api/operation/", "Product API Operations"],
    ["/product/category_tags_mapping", "AS400 Category to Shopify Tags Mappings"],
    ["/product/category_tags_mapping/edit", "Create Mapping"],
    [`/product/category_tags_mapping/edit?id=${ids.mapping}`, "Edit Mapping"],
    ["/attention", "Needs Attention"],
    ["/settings", "Settings"],
    ["/staff-activity", "Staff Activity"],
  ];
  for (const [path, heading] of pages) {
    await test.step(path, async () => {
      const app = await admin.open(path);
      await expect.poll(() => pageTitle(admin), { message: path }).toBe(heading);
      await expect(app.getByRole("heading", { level: 1 }), `${path}: the title again in the frame`).toHaveCount(0);
      await expect(app.getByText("Unexpected Application Error!"), path).toHaveCount(0);
      // Each control of the title bar once: a page's own Back button is the breadcrumb's Back there (D126).
      const controls = (await admin.titleBar.getByRole("button").allTextContents()).map((text) => text.trim());
      expect(
        controls.filter((text, i) => controls.indexOf(text) !== i),
        `${path}: a title bar control twice`,
      ).toEqual([]);
      // Let the page's own calls (grids, forms) answer before looking at the console.
      await admin.page.waitForLoadState("networkidle");
      await expect(app.locator(".Polaris-Banner--toneCritical, .Polaris-Banner[class*='critical']"), `${path}: an error banner`).toHaveCount(0);
      expect(admin.errors, `${path}: console errors`).toEqual([]);
    });
  }
});

test("Reassign Assignment shows Back once in the admin's title bar, next to Save (D126)", async ({ admin }) => {
  const id = await firstId("SELECT id FROM assignment WHERE assign_status IN (1, 2) ORDER BY id LIMIT 1");
  const app = await admin.open(`/sales/awaiting-assignment/reassign?id=${id}`);
  await expect.poll(() => pageTitle(admin)).toBe("Reassign Assignment");
  await expect(admin.titleBar.getByRole("button")).toHaveText(["Back", "Save"]);
  await expect(admin.titleBar.getByRole("button", { name: "Back" })).toHaveCount(1);
  await expect(app.getByRole("button", { name: "Back" })).toHaveCount(0); // nor again in the frame
  await admin.titleBar.getByRole("button", { name: "Back" }).click();
  await expect.poll(() => pageTitle(admin)).toBe("Awaiting Assignment");
});

test("an unknown path shows the not-found page inside the admin", async ({ admin }) => {
  admin.expectErrors(/status of 404/); // Chromium logs the 404 of the framed document itself
  const app = await admin.open("/no-such-page");
  await expect(app.getByText("There is no page at this address")).toBeVisible();
  await expect(app.getByText("Unexpected Application Error!")).toHaveCount(0);
});

test("the install made the shop's locations the stores; the Stores screen and its form load inside the admin", async ({ admin }) => {
  await admin.open("/stores");
  // The install (afterAuth of the first token exchange) runs location_sync with the install's own client, in the background (D48).
  const linkedStores = async () =>
    Number((await dbQuery<{ n: string }>("SELECT count(*) AS n FROM inventory_source WHERE type = 'store' AND shopify_location_id IS NOT NULL"))[0].n);
  await expect.poll(linkedStores, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);
  const [store] = await dbQuery<{ id: number; name: string; source_code: string }>(
    "SELECT id, name, source_code FROM inventory_source WHERE type = 'store' AND name = 'Store 001 - Chicago'",
  );
  expect(store.source_code).toMatch(/^L\d+$/);
  for (const [path, heading] of [
    ["/stores", "Stores"],
    [`/stores/edit?id=${store.id}`, "Edit Store"],
  ]) {
    const app = await admin.open(path);
    await expect.poll(() => pageTitle(admin), { message: path }).toBe(heading);
    await admin.page.waitForLoadState("networkidle");
    await expect(app.locator(".Polaris-Banner--toneCritical, .Polaris-Banner[class*='critical']"), `${path}: an error banner`).toHaveCount(0);
  }
  const form = await admin.open(`/stores/edit?id=${store.id}`);
  await expect(form.getByLabel("Name (from Shopify)")).toHaveValue("Store 001 - Chicago");
});
