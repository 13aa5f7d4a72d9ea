// One of each kind of action, inside the admin: every call the page makes
// carries the session token App Bridge adds, and nothing relies on a plain
// navigation to an /api route.
import { readFileSync } from "node:fs";
import type { FrameLocator } from "@playwright/test";
import { ADMIN_ORIGIN, dbQuery, expect, test } from "./fixtures";
import { APP_PATH_PREFIX } from "./admin-stand-in";

const footer = (app: FrameLocator) => app.getByText(/^Page \d+ of \d+ - Total Items: \d+$/);
const banner = (app: FrameLocator) => app.locator(".Polaris-Banner").first();
const field = (app: FrameLocator, label: string) => app.getByLabel(label, { exact: true });

test("a grid filters, sorts and pages", async ({ admin }) => {
  const [{ count, min }] = await dbQuery<{ count: string; min: number }>("SELECT count(*), min(id) AS min FROM dropship_log");
  const lastPage = Math.ceil(Number(count) / 20);
  const app = await admin.open("/dropship/logs/");
  await expect(footer(app)).toHaveText(`Page 1 of ${lastPage} - Total Items: ${count}`);

  await app.getByRole("button", { name: "Next" }).click();
  await expect(footer(app)).toHaveText(`Page 2 of ${lastPage} - Total Items: ${count}`);

  await app.locator("thead").getByRole("button", { name: "ID" }).click();
  await expect(app.locator('tbody tr [data-column="id"]').first()).toHaveText(String(min));

  const [{ vendor_name, matching }] = await dbQuery<{ vendor_name: string; matching: string }>(
    "SELECT vendor_name, count(*) AS matching FROM dropship_log WHERE vendor_name IS NOT NULL GROUP BY vendor_name ORDER BY count(*) DESC LIMIT 1",
  );
  await app.getByRole("button", { name: "Add filter" }).click();
  await app.getByRole("menuitem", { name: "Vendor" }).click();
  await app.getByPlaceholder("Filter by Vendor").fill(vendor_name);
  await expect(footer(app)).toHaveText(`Page 1 of ${Math.ceil(Number(matching) / 20)} - Total Items: ${matching}`);
  expect(new Set(await app.locator('tbody tr [data-column="vendor_name"]').allInnerTexts())).toEqual(new Set([vendor_name]));
});

test("the vendor form: title and actions in the admin's title bar, the save bar while unsaved, 422 messages, then saved; deleted after its modal", async ({
  admin,
}) => {
  admin.expectErrors(/status of 422/); // Chromium logs the refused save
  const app = await admin.open("/dropship/vendor/edit");
  const titleBar = admin.page.locator("#title-bar");
  const saveBar = admin.page.getByRole("region", { name: "Save bar" });
  await expect(titleBar.getByRole("heading")).toHaveText("Edit Vendor");
  await expect(titleBar.getByRole("button")).toHaveText(["Back", "Save Vendor"]);
  await expect(app.getByRole("heading", { name: "Edit Vendor" })).toHaveCount(0); // not twice
  await expect(saveBar).toBeHidden();
  await field(app, "Name").fill("Embedded Vendor");
  await expect(saveBar).toBeVisible();
  await saveBar.getByRole("button", { name: "Discard" }).click();
  await expect(field(app, "Name")).toHaveValue("");
  await expect(saveBar).toBeHidden();

  await field(app, "Name").fill("Embedded Vendor");
  await field(app, "Store ID").fill("DS77");
  await field(app, "Host").fill("sftp.embedded.example.com");
  await field(app, "User").fill("embedded_user");
  await field(app, "Password").fill("Emb3dded-Secret");
  await field(app, "EDI Identifier").fill("EMBVENDOR");
  await field(app, "EDI Qualifier").fill("ZZ");
  await field(app, "Port").fill("70000");
  await titleBar.getByRole("button", { name: "Save Vendor" }).click();
  const refused = app.locator(".Polaris-Banner").filter({ hasText: "Error while saving vendor" });
  await expect(refused.getByRole("listitem")).toHaveText(["Port must be a port number from 1 to 65535"]);
  expect(await dbQuery("SELECT id FROM dropship_vendor WHERE name = 'Embedded Vendor'")).toEqual([]);
  await expect(saveBar).toBeVisible(); // still unsaved

  await field(app, "Port").fill("22");
  await saveBar.getByRole("button", { name: "Save" }).click(); // the save bar's Save saves as the title bar's does
  await expect(app.getByText("Vendor saved successfully")).toBeVisible();
  await expect(saveBar).toBeHidden();
  await expect(titleBar.getByRole("heading")).toHaveText("Dropship Vendors", { timeout: 5000 }); // after 1 s
  const [created] = await dbQuery<{ id: number; sftp_pass: string }>("SELECT id, sftp_pass FROM dropship_vendor WHERE name = 'Embedded Vendor'");
  expect(created.sftp_pass).toMatch(/^v2:[0-9a-f]{16}:/);

  const form = await admin.open(`/dropship/vendor/edit?id=${created.id}`);
  await expect(field(form, "Password")).toHaveValue("");
  await titleBar.getByRole("button", { name: "Delete Vendor" }).click();
  await form.getByRole("dialog").getByRole("button", { name: "Delete Vendor" }).click();
  await expect(form.getByText("Vendor deleted successfully")).toBeVisible();
  await expect(titleBar.getByRole("heading")).toHaveText("Dropship Vendors", { timeout: 5000 });
  expect(await dbQuery("SELECT id FROM dropship_vendor WHERE id = $1 AND archived_at IS NULL", [created.id])).toEqual([]);
});

test("Run Feed runs a feed and says so", async ({ admin }) => {
  const name = "clear_completed_ship_requests";
  const before = await dbQuery<{ id: number }>("SELECT id FROM feed_log WHERE feed_name = $1", [name]);
  const app = await admin.open("/feed");
  await app.getByRole("button", { name: `Run Feed ${name}` }).click();
  await expect(app.getByText("Feed ran successfully")).toBeVisible({ timeout: 30_000 });
  const after = await dbQuery<{ type: string }>("SELECT type FROM feed_log WHERE feed_name = $1 ORDER BY id DESC LIMIT 2", [name]);
  expect(after.map((row) => row.type)).toEqual(["finished", "starting"]);
  expect((await dbQuery("SELECT id FROM feed_log WHERE feed_name = $1", [name])).length).toBe(before.length + 2);
});

test("a Test page step runs", async ({ admin }) => {
  const [{ pending }] = await dbQuery<{ pending: string }>(
    `SELECT count(*) AS pending FROM assignment a JOIN dropship_vendor v ON v.store_id = a.store_id AND v.enabled = 1 AND
      v.archived_at IS NULL WHERE a.assign_status = 1`,
  );
  expect(Number(pending)).toBeGreaterThan(0);
  const app = await admin.open("/dropship/test/");
  await app.getByRole("button", { name: "Populate Ship Requests" }).click();
  await expect(banner(app)).toContainText(/\d+ ship requests? created/);
  const [{ left }] = await dbQuery<{ left: string }>(
    `SELECT count(*) AS left FROM assignment a JOIN dropship_vendor v ON v.store_id = a.store_id AND v.enabled = 1 AND
      v.archived_at IS NULL WHERE a.assign_status = 1`,
  );
  expect(Number(left)).toBeLessThan(Number(pending));
});

test("a Tools action reaches the vendor's server", async ({ admin }) => {
  const app = await admin.open("/dropship/tools/");
  const select = field(app, "Vendor");
  await expect(select.locator("option")).not.toHaveCount(1); // the vendors have loaded
  const [vendor] = await dbQuery<{ id: number }>(
    "SELECT id FROM dropship_vendor WHERE archived_at IS NULL AND enabled = 1 AND sftp_host = '127.0.0.1' AND edi_format = 1 ORDER BY id LIMIT 1",
  );
  await select.selectOption(String(vendor.id));
  await app.getByRole("button", { name: "Test Connection", exact: true }).click();
  await expect(banner(app)).toBeVisible({ timeout: 30_000 });
  await expect(banner(app)).not.toContainText("Something went wrong");
  await expect(banner(app)).toContainText("Connected to SFTP 127.0.0.1");
});

test("a special-order log downloads", async ({ admin }) => {
  const [newest] = await dbQuery<{ id: number; file_path: string; content: Buffer }>(
    "SELECT id, file_path, content FROM special_order_log ORDER BY id DESC LIMIT 1",
  );
  const app = await admin.open("/special_order/log/");
  const firstRow = app.locator("tbody tr").first();
  await expect(firstRow.locator('[data-column="id"]')).toHaveText(String(newest.id));
  const [download] = await Promise.all([admin.page.waitForEvent("download"), firstRow.getByRole("link", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(newest.file_path.split("/").pop());
  expect(readFileSync((await download.path())!)).toEqual(Buffer.from(newest.content));
});

test("EOD Export CSV downloads the report", async ({ admin }) => {
  const [{ rows }] = await dbQuery<{ rows: string }>("SELECT count(*) AS rows FROM eod_report_row");
  await admin.open("/eod/report");
  // The page's actions are in the admin's title bar: a click there clicks the app's button.
  const [download] = await Promise.all([admin.page.waitForEvent("download"), admin.titleBar.getByRole("button", { name: "Export CSV", exact: true }).click()]);
  expect(download.suggestedFilename()).toMatch(/^eod_report_\d{8}_\d{4}\.csv$/);
  const text = readFileSync((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFSales Date,Store,Orders,")).toBe(true);
  expect(text.trimEnd().split("\r\n")).toHaveLength(Number(rows) + 1);
});

test("the admin's navigation menu shows the spec's links and navigates the app", async ({ admin }) => {
  const app = await admin.open("/");
  await expect(app.getByText("Demo Outfitters")).toBeVisible(); // the shop's name, from the Admin API with the offline token
  const menu = admin.page.getByRole("navigation", { name: "App navigation" });
  await expect(menu.getByRole("button")).toHaveText([
    "Dropship",
    "Feed",
    "Sales",
    "Advanced Order Grid",
    "Special Orders",
    "EOD Report",
    "Products",
    // Issue 30: the items that wait for a person, with their count, and where their alerts are set.
    /^Needs Attention( \(\d+\))?$/,
    "Settings",
    // Issue 32: who did what.
    "Staff Activity",
  ]);
  await menu.getByRole("button", { name: "EOD Report" }).click();
  await expect(admin.titleBar.getByRole("heading")).toHaveText("EOD Report");
  await menu.getByRole("button", { name: "Special Orders" }).click();
  await expect(admin.titleBar.getByRole("heading")).toHaveText("Special Orders");
  // The app stayed in its frame: the admin's page did not change.
  expect(new URL(admin.page.url()).pathname).toBe(`${APP_PATH_PREFIX}/`);
});

test("/exitiframe sends the admin's top window to Shopify, and refuses any other host", async ({ admin }) => {
  const target = `${ADMIN_ORIGIN}${APP_PATH_PREFIX}/feed`;
  const refused = await admin.open(`/exitiframe?redirectUri=${encodeURIComponent("https://evil.example.com/phish")}`);
  await expect(refused.getByText("Redirecting outside of Shopify: Apps can only use /exitiframe to reach Shopify or the app itself.")).toBeVisible();
  expect(new URL(admin.page.url()).pathname).toBe(`${APP_PATH_PREFIX}/exitiframe`);

  await admin.page.goto(`${ADMIN_ORIGIN}${APP_PATH_PREFIX}/exitiframe?redirectUri=${encodeURIComponent(target)}`);
  await expect(admin.page).toHaveURL(target);
  await expect(admin.titleBar.getByRole("heading")).toHaveText("Feed Summary");
});

test("the app refuses a request without a session token, with an expired one, or signed with another secret", async ({ admin }) => {
  const { sessionToken } = await import("../../support/embedded-app");
  const api = `${process.env.E2E_EMBEDDED_APP_URL}/api/dropship_log`;
  const get = (authorization?: string) => admin.page.request.get(api, { headers: authorization ? { authorization } : {}, maxRedirects: 0 });
  // Without a token it is not an App Bridge request: the library sends it to log in, with no data.
  const anonymous = await get();
  expect(anonymous.status()).toBe(302);
  expect(anonymous.headers().location).toMatch(/^\/auth\/login/);
  expect((await get(`Bearer ${sessionToken({ claims: { exp: Math.floor(Date.now() / 1000) - 120 } })}`)).status()).toBe(401);
  expect((await get(`Bearer ${sessionToken({ secret: "not-the-app-secret" })}`)).status()).toBe(401);
  const served = await get(`Bearer ${sessionToken()}`);
  expect(served.status()).toBe(200);
  expect((await served.json()).data.total).toBeGreaterThan(0);
});
