// The six everyday tasks of issue 32, walked as a new member of the operations team
// would, with the demo data, in local mode: each counts its clicks (a field that must be
// clicked before typing counts as one, a browser Back too) and must take at most half
// the clicks the issue measured before, with no search typed again. Each prints its
// time in the report; no time is asserted.
//
// | task | before | after (at most) |
// |---|---|---|
// | 1 find an order by e-mail, see whether its items were assigned and shipped | 4 + 2 searches | 2 |
// | 2 from that order, reach its drop-ship request and the vendor's files | 6 + 3 retyped searches | 3 |
// | 3 send a rejected request again | 6 | 3 |
// | 4 which feeds failed today, and why | 6 | 3 |
// | 5 change a vendor's password and test the connection | 7 | 3 |
// | 6 export today's EOD report | 2 | 1 |
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { startSftpServer } from "@edi/transport/loopback";
import { VENDOR_DOCUMENT_FLAGS } from "../support/vendor-body";
import { badgeLabels, dbQuery, open, runToEnd } from "./support";

/** Counts the clicks of a walk and notes its time in the report. */
function walk(page: Page, task: string) {
  const started = Date.now();
  let clicks = 0;
  return {
    async click(target: Locator) {
      clicks += 1;
      await target.click();
    },
    /** A field is clicked, then typed into: one click. */
    async type(target: Locator, text: string) {
      clicks += 1;
      await target.click();
      await target.fill(text);
    },
    async back() {
      clicks += 1;
      await page.goBack();
    },
    done(most: number) {
      test.info().annotations.push({ type: "walk", description: `${task}: ${clicks} clicks, ${Date.now() - started} ms` });
      expect(clicks, `${task}: clicks`).toBeLessThanOrEqual(most);
    },
  };
}

interface Shipped {
  order_increment_id: string;
  customer_email: string;
  po_number: string;
  request_id: number;
  tracking_number: string;
  in_name: string;
}

/** A drop-shipped demo order with an e-mail, answered by its vendor with an 856. */
async function shippedOrder(): Promise<Shipped> {
  const [row] = await dbQuery<Shipped>(
    `SELECT q.order_increment_id, o.customer_email, q.po_number, q.request_id, r.tracking_number, i.file_name AS in_name
       FROM dropship_request q
       JOIN order_grid o ON o.order_id = q.order_increment_id
       JOIN dropship_response r ON r.request_id = q.request_id AND r.response_type = '856'
       JOIN transmission i ON i.id = r.transmission_id
      WHERE o.customer_email IS NOT NULL
        AND (SELECT count(*) FROM order_grid e WHERE e.customer_email = o.customer_email) = 1
      ORDER BY q.request_id LIMIT 1`,
  );
  expect(row, "a drop-shipped demo order with its own e-mail and an 856").toBeTruthy();
  return row!;
}

test("tasks 1 and 2: an order found by e-mail tells whether its items were assigned and shipped; its request and the vendor's file are a click away", async ({
  page,
}) => {
  const order = await shippedOrder();
  await open(page, "/advancedorder");
  const one = walk(page, "1 order by e-mail");
  // The search opens focused: typed into at once.
  await one.click(page.getByRole("button", { name: "Search and filter results" }));
  await expect(page.getByPlaceholder("Search orders")).toBeFocused();
  await page.keyboard.type(order.customer_email);
  const row = page.locator("tbody tr").filter({ hasText: order.order_increment_id });
  await expect(row).toHaveCount(1);
  await one.click(row.getByRole("link", { name: order.order_increment_id, exact: true }));
  await expect(page.getByRole("heading", { name: `Order ${order.order_increment_id}`, level: 1 })).toBeVisible();
  // Assigned (to its vendor) and shipped (the vendor's 856 with its tracking), on the order's page.
  await expect(page.getByText(/^Vendor .+, qty \d+$/).first()).toBeVisible();
  await expect(page.locator('tr[data-kind="response"]').filter({ hasText: order.tracking_number }).first()).toContainText("856");
  one.done(2);

  const two = walk(page, "2 request and the vendor's files");
  await two.click(page.getByRole("link", { name: `Request ${order.po_number}` }).first());
  await expect(page).toHaveURL(new RegExp(`/dropship/requests/revise\\?id=${order.request_id}`));
  await expect(page.locator("#revise-status")).toBeVisible();
  await two.back();
  await two.click(page.getByRole("link", { name: order.in_name }).first());
  await expect(page.getByRole("heading", { name: order.in_name, level: 1 })).toBeVisible();
  await expect(page.locator('tr[data-segment="BSN"]')).toContainText("Beginning Segment for Ship Notice");
  two.done(3);
});

test("task 3: a rejected request is sent again from Needs attention: Open, Save", async ({ page, request }) => {
  // A request its vendor rejected, seen by the needs_attention sweep as the team's queue shows it.
  const [rejected] = await dbQuery<{ id: number; po_number: string; status: string }>(
    `UPDATE dropship_request q SET status = 'rejected', vendor_codes = '{R2}', vendor_note = 'Item discontinued'
      WHERE q.request_id = (SELECT q2.request_id FROM dropship_request q2 JOIN assignment a ON a.id = q2.assignment_id
                             WHERE q2.status IN ('sent', 'acknowledged') AND a.assign_status NOT IN (5, 6) AND q2.archived_at IS NULL
                             ORDER BY q2.request_id DESC LIMIT 1)
      RETURNING q.request_id AS id, q.po_number, q.status`,
  );
  expect(rejected, "a sent request to reject").toBeTruthy();
  expect((await runToEnd(request, "/api/feed_run?feed_name=needs_attention")).error).toBe(false);

  await open(page, `/attention?queryValue=${encodeURIComponent(rejected.po_number)}`);
  const three = walk(page, "3 send a rejected request again");
  const item = page.locator("tbody tr").filter({ hasText: rejected.po_number }).first();
  await three.click(item.getByRole("link", { name: "Open", exact: true }));
  await expect(badgeLabels(page.locator("#revise-status"))).toHaveText("Rejected");
  await expect(page.locator("#revise-vendor-reason")).toContainText("Item discontinued");
  await expect(page.locator("#revise-save-effect")).toHaveText("Save sends this request to the vendor again: its status goes from Rejected to Pending.");
  await three.click(page.getByRole("button", { name: "Save", exact: true }).first());
  await expect(page.getByText("Successfully updated request.")).toBeVisible();
  await expect
    .poll(async () => (await dbQuery<{ status: string }>("SELECT status FROM dropship_request WHERE request_id = $1", [rejected.id]))[0].status)
    .toBe("pending");
  three.done(3);
});

test("task 4: the feeds that failed today, with their reasons in words, one click from Feed Summary", async ({ page }) => {
  const reason = `connection refused by 127.0.0.1:2222 (walk ${Date.now()})`;
  const older = `a failure of three days ago (walk ${Date.now()})`;
  await dbQuery(
    `INSERT INTO feed_log (feed_name, type, meta, created_at, updated_at)
     VALUES ('dropship_take_responses', 'failed', $1, now(), now()),
            ('dropship_take_responses', 'failed', $2, now() - interval '3 days', now() - interval '3 days')`,
    [JSON.stringify({ error: reason }), JSON.stringify({ error: older })],
  );
  await open(page, "/feed");
  const four = walk(page, "4 feeds failed today");
  await four.click(
    page
      .getByRole("link", { name: "Failed Today" })
      .or(page.getByRole("button", { name: "Failed Today" }))
      .first(),
  );
  await expect(page).toHaveURL(/\/feed\/item\?/);
  // Today's failure, its reason in words; not one of another day, and only failures.
  await expect(page.locator("tbody tr").filter({ hasText: reason })).toHaveCount(1);
  await expect(page.locator("tbody tr").filter({ hasText: older })).toHaveCount(0);
  const types = (await page.locator('tbody [data-column="type"]').allTextContents()).map((text) => text.trim());
  expect(types.length).toBeGreaterThan(0);
  expect(new Set(types)).toEqual(new Set(["Failed"]));
  four.done(3);
});

test.describe("task 5: a vendor's new password, saved and tested", () => {
  const PASSWORD = "walk-Connection-Pa55";
  let root: string;
  let sftp: Awaited<ReturnType<typeof startSftpServer>>;
  let vendorId = 0;

  test.beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "e2e-walk-"));
    mkdirSync(path.join(root, "outbound"));
    sftp = await startSftpServer({ root, users: { vendor: PASSWORD } });
  });
  test.afterAll(async ({ request }) => {
    if (vendorId) await request.delete(`/api/dropship_vendor/${vendorId}`, { data: {} });
    await sftp?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test("from the vendor list: open the vendor, type the password, Save; the list says the new connection works", async ({ page }) => {
    const answer = await page.request.post("/api/dropship_vendor", {
      data: {
        name: "AAA Walk Vendor",
        store_id: "WALK5",
        enabled: 0,
        test_mode: 0,
        is_legacy: 0,
        transfer_mechanism_id: 1,
        sftp_host: "127.0.0.1",
        sftp_port: sftp.port,
        sftp_user: "vendor",
        sftp_pass: "old-Password-1",
        sftp_incoming_folder: "/outbound",
        edi_format: 1,
        edi_identifier: "WALK5",
        edi_qualifier: "ZZ",
        ...VENDOR_DOCUMENT_FLAGS,
      },
    });
    expect(answer.status()).toBe(200);
    vendorId = ((await answer.json()) as { id: number }).id;

    await open(page, `/dropship/vendor/?name=${encodeURIComponent("AAA Walk Vendor")}`);
    const five = walk(page, "5 vendor password and connection test");
    await five.click(page.locator("tbody tr").filter({ hasText: "AAA Walk Vendor" }).locator(".grid-cell").first());
    await expect(page).toHaveURL(new RegExp(`/dropship/vendor/edit\\?id=${vendorId}`));
    await five.type(page.getByLabel("Password", { exact: true }), PASSWORD);
    await five.click(page.getByRole("button", { name: "Save Vendor" }).first());
    await expect(page).toHaveURL(/\/dropship\/vendor\/\?connection_test=\d+/);
    await expect(page.getByText(`Connected to SFTP 127.0.0.1:${sftp.port} as vendor.`).first()).toBeVisible();
    five.done(3);
  });
});

test("task 6: today's EOD report in one click", async ({ page }) => {
  await open(page, "/eod/report");
  const six = walk(page, "6 today's EOD report");
  const [download] = await Promise.all([page.waitForEvent("download"), six.click(page.getByRole("button", { name: "Export Today's CSV" }))]);
  six.done(1);
  const csv = readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split(/\r\n/);
  const heading = lines[0].split(",");
  const dateColumn = heading.indexOf("Sales Date");
  expect(dateColumn).toBeGreaterThanOrEqual(0);
  const [{ today, count }] = await dbQuery<{ today: string; count: string }>(
    `SELECT to_char((now() AT TIME ZONE $1)::date, 'YYYY-MM-DD') AS today,
            (SELECT count(*) FROM eod_report_row WHERE sales_date = (now() AT TIME ZONE $1)::date) AS count`,
    ["America/New_York"], // APP_TIMEZONE's default, as the e2e app runs
  );
  expect(Number(count), "the demo has EOD rows today").toBeGreaterThan(0);
  expect(lines.length - 1).toBe(Number(count));
  for (const line of lines.slice(1)) expect(line.split(",")[dateColumn]).toContain(today);
});

for (const text of [
  { locale: "en", query: "", shortcuts: "Keyboard shortcuts", lines: ["Search and filter this list", "Previous page", "Next page"], page: /^Page (\d+) of / },
  {
    locale: "de",
    query: "?locale=de",
    shortcuts: "Tastenkürzel",
    lines: ["Diese Liste durchsuchen und filtern", "Vorherige Seite", "Nächste Seite"],
    page: /^Seite (\d+) von /,
  },
]) {
  test(`the order grid: K and J page, F opens its search, the shortcuts are listed (${text.locale})`, async ({ page }) => {
    await open(page, `/advancedorder${text.query}`);
    const footer = page
      .locator(".Polaris-IndexTable__TableFooter, .Polaris-Pagination")
      .getByText(/\d+ (-|–) /)
      .first();
    const firstPage = await footer.textContent();
    await page.keyboard.press("k");
    await expect(footer).not.toHaveText(firstPage!);
    await page.keyboard.press("j");
    await expect(footer).toHaveText(firstPage!);
    await page.keyboard.press("f");
    await expect(page.locator(".Polaris-IndexFilters input[type='text'], .Polaris-IndexFilters input:not([type])").first()).toBeFocused();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: text.shortcuts }).click();
    const popover = page.locator(".Polaris-Popover");
    for (const line of text.lines) await expect(popover.getByText(line, { exact: true })).toBeVisible();
  });
}
