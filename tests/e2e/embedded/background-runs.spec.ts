// Background runs inside the admin (issue 18, item 1; D93–D96): the run's
// progress in the app's frame, the admin's toast when it ends, the same run
// after the admin page is loaded again, German texts, and the admin's loading
// bar (shopify.loading) while a page of the app loads.
import { bulkPendingAssignments } from "../bulk-assignments";
import { dbQuery, expect, test } from "./fixtures";

const BULK = 10_000;
const SKU = "E2E-BULK-EMBEDDED";
const bulk = bulkPendingAssignments(dbQuery, SKU, BULK);

test.afterEach(bulk.remove);

test("a long step shows its progress in the frame, ends with a toast in the admin, and is there again after a reload", async ({ admin }) => {
  test.setTimeout(300_000);
  // A real large input: 10,000 Pending assignments to a demo vendor (the seed's own set aside meanwhile).
  await bulk.insert();

  const app = await admin.open("/dropship/test/");
  await app.getByRole("button", { name: "Populate Ship Requests" }).click();
  await expect(app.getByRole("progressbar")).toBeVisible();
  await expect(app.getByText(/^[\d,]+ of 10,000 assignments$/)).toBeVisible();
  const result = app.locator(".Polaris-Banner").filter({ hasText: "10000 ship requests created." });
  await expect(result).toBeVisible({ timeout: 180_000 });
  // The admin's own toast, through App Bridge (not a Polaris toast inside the frame).
  await expect(admin.page.locator("#toasts [role=status]").filter({ hasText: "Populate Ship Requests: done" })).toBeVisible();
  await expect(app.getByText("Populate Ship Requests: done")).toHaveCount(0);

  // Loaded again, the page finds the same run in PostgreSQL.
  const again = await admin.open("/dropship/test/");
  await expect(again.locator(".Polaris-Banner").filter({ hasText: "10000 ship requests created." })).toBeVisible();
  const ended = again.locator(".Polaris-Banner").filter({ hasText: "Populate Ship Requests" });
  await expect(ended.locator(".Polaris-Badge--toneSuccess")).toContainText("Finished"); // its status, a Badge
});

test("Run Feed in German: the result in the frame, the toast in the admin", async ({ admin }) => {
  const name = "clear_completed_ship_requests";
  const app = await admin.open("/feed?locale=de");
  await app.getByRole("button", { name: `Feed ausführen: ${name}` }).click();
  await expect(app.locator(".Polaris-Banner").filter({ hasText: "Feed erfolgreich ausgeführt" })).toBeVisible({ timeout: 60_000 });
  await expect(admin.page.locator("#toasts [role=status]").filter({ hasText: `Feed ausführen: ${name}: erledigt` })).toBeVisible();
});

test("the admin's loading bar shows while a page of the app loads", async ({ admin }) => {
  const app = await admin.open("/");
  await expect(app.getByText("Demo Outfitters")).toBeVisible();
  // Every value App Bridge gives the admin's loading state, from now on.
  await admin.page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { loadingSeen: string[] }).loadingSeen = seen;
    new MutationObserver(() => seen.push(document.body.dataset.loading ?? "")).observe(document.body, { attributes: true, attributeFilter: ["data-loading"] });
  });
  await admin.page.getByRole("navigation", { name: "App navigation" }).getByRole("button", { name: "EOD Report" }).click();
  await expect(admin.titleBar.getByRole("heading")).toHaveText("EOD Report");
  // On while it loaded, off once it had.
  const seen = () => admin.page.evaluate(() => (window as unknown as { loadingSeen: string[] }).loadingSeen);
  await expect.poll(async () => (await seen()).at(-1)).toBe("false");
  expect(await seen()).toContain("true");
});
