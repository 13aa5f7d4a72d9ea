// "Send to another source" inside the admin (issue 29, D231–D232): from the
// requests grid to the Reassign form, saved from the admin's title bar; the
// first vendor is asked to cancel and a new assignment goes to the source chosen.
// The target is another demo vendor with stock of the SKU (a vendor's stock is
// its 846's, set here), since the embedded shop's stores are its own locations.
import { dbQuery, expect, test } from "./fixtures";
import { seedBackorderedRequest } from "../send-elsewhere";

test("a backordered request goes to another source from inside the admin", async ({ admin }) => {
  const seeded = await seedBackorderedRequest(dbQuery, "emb");
  const [target] = await dbQuery<{ source_code: string; name: string }>(
    `SELECT s.source_code, s.name FROM inventory_source s JOIN dropship_vendor v ON v.store_id = s.source_code AND v.enabled = 1 AND v.archived_at IS NULL
      WHERE s.type = 'dropshipper' AND s.enabled = 1 AND s.source_code <> $1 ORDER BY s.source_code LIMIT 1`,
    [seeded.vendor_source],
  );
  expect(target, "a second demo vendor").toBeTruthy();
  await dbQuery(
    `INSERT INTO inventory_source_item (source_code, sku, quantity, updated_at) VALUES ($1, $2, 50, now())
     ON CONFLICT (source_code, sku) DO UPDATE SET quantity = 50`,
    [target.source_code, seeded.sku],
  );

  const app = await admin.open(`/dropship/requests?po_number=${seeded.po_number}`);
  const row = app.locator("tbody tr").filter({ hasText: seeded.po_number });
  await row.getByRole("link", { name: "Send to another source" }).click();
  await app.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(
    app.getByText(`Saving asks ${seeded.vendor_name} to cancel PO ${seeded.po_number}; the item goes to the source you choose at once.`),
  ).toBeVisible();
  await app.getByLabel("Store/Dropshipper", { exact: true }).selectOption(target.source_code);
  await admin.titleBar.getByRole("button", { name: "Save" }).click();
  await expect(app.locator(".Polaris-Banner").filter({ hasText: `${seeded.vendor_name} is asked to cancel PO ${seeded.po_number}.` })).toBeVisible();

  const assignments = await dbQuery<{ store_id: string; assign_status: number }>(
    "SELECT store_id, assign_status FROM assignment WHERE order_increment_id = $1 ORDER BY id",
    [seeded.order_id],
  );
  expect(assignments).toEqual([
    { store_id: seeded.vendor_source, assign_status: 5 },
    { store_id: target.source_code, assign_status: 1 },
  ]);
  const [cancellation] = await dbQuery<{ cause: string; status: string }>("SELECT cause, status FROM dropship_cancellation WHERE po_number = $1", [
    seeded.po_number,
  ]);
  expect(cancellation).toEqual({ cause: "reassigned", status: "pending" });
});
