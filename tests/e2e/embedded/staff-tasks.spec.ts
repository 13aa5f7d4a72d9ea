// Inside the admin, in German (issue 32, tasks 4 and 6): today's failed feeds with
// their reasons are one click from Feed Summary, and today's EOD report one click from
// the report, a download through fetch with the session token (D281).
import { readFileSync } from "node:fs";
import { dbQuery, expect, test } from "./fixtures";

test("Heute fehlgeschlagen: one click from Feed Summary, today's failures with their reasons in words", async ({ admin }) => {
  const reason = `Anmeldung verweigert (walk ${Date.now()})`;
  const older = `vor drei Tagen (walk ${Date.now()})`;
  await dbQuery(
    `INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at)
     VALUES ('dropship_take_responses', 'failed', $1, now(), now()),
            ('dropship_take_responses', 'failed', $2, now() - interval '3 days', now() - interval '3 days')`,
    [JSON.stringify({ error: reason }), JSON.stringify({ error: older })],
  );
  const app = await admin.open("/feed?locale=de");
  // The screen's actions are in the admin's title bar.
  await admin.titleBar.getByRole("button", { name: "Heute fehlgeschlagen", exact: true }).click();
  await expect(app.locator("tbody tr").filter({ hasText: reason })).toHaveCount(1);
  await expect(app.locator("tbody tr").filter({ hasText: older })).toHaveCount(0);
  const types = (await app.locator('tbody [data-column="type"]').allTextContents()).map((text) => text.trim());
  expect(new Set(types)).toEqual(new Set(["Fehlgeschlagen"]));
});

test("CSV von heute exportieren: today's EOD rows only, in one click", async ({ admin }) => {
  await admin.open("/eod/report?locale=de");
  const [download] = await Promise.all([
    admin.page.waitForEvent("download"),
    admin.titleBar.getByRole("button", { name: "CSV von heute exportieren", exact: true }).click(),
  ]);
  const lines = readFileSync((await download.path())!, "utf8")
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  const [{ count }] = await dbQuery<{ count: string }>(
    "SELECT count(*) FROM eod_report_row WHERE sales_date = (now() AT TIME ZONE 'America/New_York')::date", // APP_TIMEZONE's default
  );
  expect(Number(count)).toBeGreaterThan(0);
  expect(lines.length - 1).toBe(Number(count));
});
