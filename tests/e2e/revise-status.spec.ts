// The revise pages say where a record stands (issue 32 item 6): a rejected request's status and the
// vendor's reason, what Save will do (the rule the save applies), its related records; Save, and
// the grid shows it pending. A request asked back from its vendor says why it cannot be saved.
// A response shows its status, the vendor's line status and what Save does. English and German.
import { expect, test } from "@playwright/test";
import { badgeLabels, dbQuery, open } from "./support";

interface Row {
  id: number;
  po_number: string;
  order_increment_id: string;
  vendor_id: number;
  vendor_name: string;
}

/** A request that can be revised, made rejected by its vendor with a reason. */
async function rejectedRequest(): Promise<Row> {
  const [row] = await dbQuery<Row>(
    `UPDATE dropship_request SET status = 'rejected', vendor_codes = ARRAY['IR'], vendor_note = 'Item discontinued', vendor_expected_date = NULL
      WHERE request_id = (SELECT request_id FROM dropship_request WHERE status IN ('pending', 'sent', 'acknowledged', 'rejected')
                           AND archived_at IS NULL ORDER BY request_id DESC LIMIT 1)
      RETURNING request_id AS id, po_number, order_increment_id, vendor_id, vendor_name`,
  );
  return row;
}

const TEXTS = {
  English: {
    query: "",
    rejected: "Rejected",
    pending: "Pending",
    effect: "Save sends this request to the vendor again: its status goes from Rejected to Pending.",
    reason: "Vendor's reason: IR · Item discontinued",
    order: (order: string) => `Order ${order}`,
    save: "Save",
    saved: "Successfully updated request.",
    refused: (po: string) => `Save cannot change this request: PO ${po} was cancelled at its vendor: it is not sent again.`,
  },
  German: {
    query: "?locale=de",
    rejected: "Abgelehnt",
    pending: "Ausstehend",
    effect: "Speichern sendet diese Anfrage erneut an den Lieferanten: ihr Status wechselt von Abgelehnt zu Ausstehend.",
    reason: "Begründung des Lieferanten: IR · Item discontinued",
    order: (order: string) => `Bestellung ${order}`,
    save: "Speichern",
    saved: "Anfrage erfolgreich aktualisiert.",
    refused: (po: string) =>
      `Speichern kann diese Anfrage nicht ändern: Die Bestellung ${po} wurde beim Lieferanten storniert: sie wird nicht erneut gesendet.`,
  },
};

for (const [language, text] of Object.entries(TEXTS)) {
  test(`a rejected request's revise page says its status, the vendor's reason and what Save does; saved, it is pending (${language})`, async ({ page }) => {
    const request = await rejectedRequest();
    await open(page, `/dropship/requests/revise?id=${request.id}${text.query ? `&${text.query.slice(1)}` : ""}`);
    await expect(badgeLabels(page.locator("#revise-status"))).toHaveText(text.rejected);
    await expect(page.locator("#revise-vendor-reason")).toHaveText(text.reason);
    await expect(page.locator("#revise-save-effect")).toHaveText(text.effect);
    const related = page.locator("#revise-related");
    await expect(related.getByRole("link", { name: text.order(request.order_increment_id) })).toHaveAttribute(
      "href",
      new RegExp(`/order/${request.order_increment_id}`),
    );
    await expect(related.locator("#revise-related-vendor")).toHaveAttribute("href", new RegExp(`/dropship/vendor/edit\\?id=${request.vendor_id}`));
    await expect(related.locator("#revise-related-responses")).toHaveAttribute("href", new RegExp(`/dropship/responses/\\?po_number=${request.po_number}`));

    await page.getByRole("button", { name: text.save, exact: true }).first().click();
    await expect(page.getByText(text.saved)).toBeVisible();
    await expect(page).toHaveURL(/\/dropship\/requests\/(\?.*)?$/, { timeout: 5000 });
    await open(page, `/dropship/requests/?po_number=${request.po_number}${text.query ? `&${text.query.slice(1)}` : ""}`);
    await expect(badgeLabels(page.locator('tbody tr [data-column="status"]'))).toHaveText([text.pending]);
  });

  test(`a cancelled request's revise page says why Save cannot change it (${language})`, async ({ page }) => {
    // The oldest request, asked back from its vendor for this test and put back after it.
    const [row] = await dbQuery<{ id: number; po_number: string; status: string }>(
      "SELECT request_id AS id, po_number, status FROM dropship_request ORDER BY request_id LIMIT 1",
    );
    await dbQuery("UPDATE dropship_request SET status = 'cancelled' WHERE request_id = $1", [row.id]);
    try {
      await open(page, `/dropship/requests/revise?id=${row.id}${text.query ? `&${text.query.slice(1)}` : ""}`);
      await expect(page.locator("#revise-save-effect")).toContainText(text.refused(row.po_number));
    } finally {
      await dbQuery("UPDATE dropship_request SET status = $2 WHERE request_id = $1", [row.id, row.status]);
    }
  });
}

test("a response's revise page shows its status, the vendor's line status and what Save does (English and German)", async ({ page }) => {
  const [response] = await dbQuery<{ id: number; order_increment_id: string; request_id: number }>(
    `UPDATE dropship_response SET status = 'processed', line_status = 'IB', detail = 'Backordered until Friday'
      WHERE id = (SELECT id FROM dropship_response WHERE request_id IS NOT NULL ORDER BY id DESC LIMIT 1)
      RETURNING id, order_increment_id, request_id`,
  );
  await open(page, `/dropship/responses/revise?id=${response.id}`);
  await expect(badgeLabels(page.locator("#revise-status"))).toHaveText("Processed");
  await expect(page.locator("#revise-vendor-reason")).toHaveText("Vendor's reason: line status IB · Backordered until Friday");
  await expect(page.locator("#revise-save-effect")).toHaveText(
    "Save processes this response again at the next run: its status goes from Processed to Received.",
  );
  await expect(page.locator("#revise-related-request")).toHaveAttribute("href", new RegExp(`/dropship/requests/revise\\?id=${response.request_id}`));

  await open(page, `/dropship/responses/revise?id=${response.id}&locale=de`);
  await expect(badgeLabels(page.locator("#revise-status"))).toHaveText("Verarbeitet");
  await expect(page.locator("#revise-vendor-reason")).toHaveText("Begründung des Lieferanten: Positionsstatus IB · Backordered until Friday");
  await expect(page.locator("#revise-save-effect")).toHaveText(
    "Speichern verarbeitet diese Antwort beim nächsten Lauf erneut: ihr Status wechselt von Verarbeitet zu Empfangen.",
  );
});
