// Needs attention and its Settings inside the admin (issue 30): an item found by
// the needs_attention feed is dismissed with a note from the app's frame, and the
// alert settings are saved from the admin's title bar.
import { dbQuery, expect, test } from "./fixtures";

test("an item is dismissed with a note, and alert settings are saved from the title bar", async ({ admin }) => {
  const [vendor] = await dbQuery<{ id: number; name: string }>("SELECT id, name FROM dropship_vendor WHERE enabled = 1 ORDER BY id LIMIT 1");
  const file = `810_emb_${Date.now()}.edi`;
  await dbQuery(
    `INSERT INTO transmission (vendor_id, partner, direction, file_name, content, content_hash, size, status, error, error_segment,
                               transaction_set, updated_at)
     VALUES ($1, 'vendor', 'in', $2, 'ISA*', 'emb', 4, 'failed', 'BIG02 is missing', '3 (BIG)', '810', now())`,
    [vendor!.id, file],
  );
  // Staff run the feed from the Feed screen (the API is behind the session token here).
  const feeds = await admin.open("/feed");
  await feeds.getByRole("button", { name: "Run Feed needs_attention" }).click();
  await expect(feeds.getByText("Feed ran successfully")).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () => (await dbQuery<{ n: number }>("SELECT count(*)::int AS n FROM attention_item WHERE reason LIKE $1", [`${file}%`]))[0]!.n, {
      timeout: 30_000,
    })
    .toBe(1);

  const app = await admin.open(`/attention?kind=file_refused&queryValue=${encodeURIComponent(file)}`);
  await expect(admin.titleBar.getByRole("heading")).toHaveText("Needs Attention");
  const row = app.locator("tbody tr").filter({ hasText: file });
  await expect(row).toContainText(`${file} from ${vendor!.name} was refused at 3 (BIG): BIG02 is missing`);
  await row.getByRole("button", { name: "Dismiss" }).click();
  const dialog = app.getByRole("dialog");
  await dialog.getByLabel("Note (why it needs nothing more)").fill("Duplicate of yesterday's invoice.");
  await dialog.getByRole("button", { name: "Dismiss" }).click();
  await expect(app.locator(".Polaris-Banner").filter({ hasText: "The item is dismissed." })).toBeVisible();
  const [item] = await dbQuery<{ dismiss_note: string; dismissed_by: string }>("SELECT dismiss_note, dismissed_by FROM attention_item WHERE reason LIKE $1", [
    `${file}%`,
  ]);
  expect(item!.dismiss_note).toBe("Duplicate of yesterday's invoice.");
  expect(item!.dismissed_by).not.toBe("local");

  const before = await dbQuery<{ key: string; value: unknown }>("SELECT key, value FROM app_setting");
  const settings = await admin.open("/settings");
  await expect(admin.titleBar.getByRole("heading")).toHaveText("Settings");
  await settings.getByLabel("856 Within (Hours)").fill("96");
  await admin.titleBar.getByRole("button", { name: "Save Settings" }).click();
  await expect(settings.locator(".Polaris-Banner").filter({ hasText: "Settings saved." })).toBeVisible();
  const [levels] = await dbQuery<{ value: { sla_856_hours: number } }>("SELECT value FROM app_setting WHERE key = 'service_levels'");
  expect(levels!.value.sla_856_hours).toBe(96);
  for (const row of before) await dbQuery("UPDATE app_setting SET value = $1 WHERE key = $2", [JSON.stringify(row.value), row.key]);
});
