// Inside the admin (issue 32; D265–D269): Export CSV downloads through fetch
// with the session token, feed logs filter by a date range, the columns a staff
// member hides stay hidden after a reload, and a filtered empty list says so,
// in English and German.
import { readFileSync } from "node:fs";
import type { FrameLocator } from "@playwright/test";
import { dbQuery, expect, test } from "./fixtures";

const FEED = "e2e_embedded_grid_lists";
const footer = (app: FrameLocator) => app.getByText(/^(Page|Seite) \d+ (of|von) \d+ - (Total Items|Einträge gesamt): \d+$/);

test.beforeAll(async () => {
  await dbQuery("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
  await dbQuery(
    `INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at) VALUES
       ($1, 'failed', '{"error":"SFTP login refused"}', '2026-01-15T04:59:00Z', now()),
       ($1, 'finished', '{"count":2}', '2026-01-15T05:01:00Z', now()),
       ($1, 'failed', '{"error":"Vendor folder missing"}', '2026-01-16T04:58:00Z', now())`,
    [FEED],
  );
});

test.afterAll(async () => {
  await dbQuery("DELETE FROM feed_log WHERE feed_name = $1", [FEED]);
  await dbQuery("DELETE FROM staff_grid_preference WHERE grid_id = 'feed_item'");
});

test("feed logs: a date range, then Export CSV of what they show, read from the file", async ({ admin }) => {
  const app = await admin.open(`/feed/item?feed_name=${FEED}&created_at=2026-01-15..2026-01-15`);
  await expect(footer(app)).toHaveText("Page 1 of 1 - Total Items: 2");
  await expect(app.getByText("Created At: 2026-01-15 – 2026-01-15")).toBeVisible();
  const [download] = await Promise.all([admin.page.waitForEvent("download"), app.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^feed_item_\d{8}_\d{4}\.csv$/);
  const lines = readFileSync((await download.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe("ID,Feed Name,Type,Meta,Created At,Updated At");
  expect(lines.slice(1).map((line) => line.split(",").slice(1, 4))).toEqual([
    [FEED, "Failed", "Vendor folder missing"],
    [FEED, "Finished", '"{""count"":2}"'],
  ]);
});

test("in German: the date range from the filter, hidden columns after a reload, the filtered empty text", async ({ admin }) => {
  await dbQuery("DELETE FROM staff_grid_preference WHERE grid_id = 'feed_item'");
  let app = await admin.open(`/feed/item?feed_name=${FEED}&locale=de`);
  await expect(footer(app)).toHaveText("Seite 1 von 1 - Einträge gesamt: 3");
  await app.getByRole("button", { name: "Filter hinzufügen" }).click();
  await app.getByRole("menuitem", { name: "Erstellt am" }).click();
  // From the 15th in New York: 04:59 UTC on the 15th is still the 14th there, 04:58 UTC on the 16th still the 15th.
  await app.getByLabel("Von").fill("2026-01-15");
  await expect(footer(app)).toHaveText("Seite 1 von 1 - Einträge gesamt: 2");
  await app.getByLabel("Von").fill("2030-01-01");
  await expect(app.getByText("Keine Zeilen entsprechen diesen Filtern")).toBeVisible();

  await app.getByRole("button", { name: "Spalten" }).click();
  await app.getByRole("checkbox", { name: "Meta", exact: true }).uncheck({ force: true });
  await expect(app.locator("thead th").filter({ hasText: /^Meta$/ })).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (await dbQuery<{ hidden_columns: string[] }>("SELECT hidden_columns FROM staff_grid_preference WHERE grid_id = 'feed_item'"))[0]?.hidden_columns,
    )
    .toEqual(["meta"]);
  app = await admin.open(`/feed/item?feed_name=${FEED}&locale=de`);
  await expect(footer(app)).toHaveText("Seite 1 von 1 - Einträge gesamt: 3");
  await expect(app.locator("thead th").filter({ hasText: /^Meta$/ })).toHaveCount(0);
  await expect(app.locator('tbody tr [data-column="meta"]')).toHaveCount(0);
  // Kept for the Shopify staff member of the session token, not for "local".
  const [row] = await dbQuery<{ staff: string }>("SELECT staff FROM staff_grid_preference WHERE grid_id = 'feed_item'");
  expect(row.staff).toMatch(/^shopify-user:/);
});
