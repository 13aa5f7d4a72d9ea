// Vendor scorecards (issue 30 item 5, D244), against the real database with the
// clock injected: POs sent at known hours, the vendor's 855s and 856s at known
// hours; the 30- and 90-day shares of POs acknowledged and shipped within the
// vendor's service levels, the median hours to ship, rejected, backordered and
// cancelled lines, invoice mismatches and refused files; then where staff see
// them: the vendor grid's columns and the sources Manual Assignment offers.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { refreshVendorScorecards, vendorScorecards } from "../../app/dropship/scorecards.server";
import { listVendors } from "../../app/dropship/vendors.server";
import { closeFeedPool } from "../../app/feeds/runner.server";
import { i18nServer } from "../../app/i18n/i18n.server";
import { renderForReader } from "../../app/i18n/messages";
import { availableStores } from "../../app/sales/assignments.server";
import { createPendingAssignment } from "../support/pending-assignment";

const NOW = new Date("2026-11-28T12:00:00Z");
const HOUR = 3_600_000;
const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR);
let order = 0;

/** A PO sent `sentHoursAgo`, the vendor's 855 and 856 that many hours after it (or never), with the 855's line status. */
async function po(
  vendor: { id: number; name: string; store_id: string },
  sentHoursAgo: number,
  answers: { ack?: number; ship?: number; line?: string; status?: string },
) {
  order++;
  const assignment = await createPendingAssignment(prisma, {
    orderId: `95000${order}`,
    shopifyOrderId: String(9500000 + order),
    sku: "SKU-SC",
    qty: 1,
    storeId: vendor.store_id,
    vendorName: vendor.name,
  });
  const sent = ago(sentHoursAgo);
  const request = await prisma.dropshipRequest.create({
    data: {
      vendor_id: vendor.id,
      vendor_name: vendor.name,
      assignment_id: assignment.id,
      po_number: `PO-SC-${order}`,
      order_increment_id: assignment.order_increment_id,
      item_sku: "SKU-SC",
      qty: 1,
      ship_name_first: "Ada",
      ship_name_last: "Lovelace",
      ship_address: "12 Analytical Way",
      ship_city: "Chicago",
      ship_state: "IL",
      ship_zip: "60601",
      country_id: "US",
      status: answers.status ?? (answers.ship !== undefined ? "shipped" : answers.ack !== undefined ? "acknowledged" : "sent"),
      sent_at: sent,
      created_at: sent,
    },
  });
  const response = (type: string, after: number, line?: string) =>
    prisma.dropshipResponse.create({
      data: {
        request_id: request.request_id,
        vendor_id: vendor.id,
        vendor_name: vendor.name,
        po_number: request.po_number,
        response_type: type,
        line_status: line ?? null,
        qty: 1,
        status: "processed",
        created_at: new Date(sent.getTime() + after * HOUR),
      },
    });
  if (answers.ack !== undefined) await response("855", answers.ack, answers.line ?? "accepted");
  if (answers.ship !== undefined) await response("856", answers.ship);
  return request;
}

beforeEach(async () => {
  await prisma.$executeRawUnsafe(
    `TRUNCATE vendor_scorecard, app_setting, dropship_invoice_check, dropship_cancellation, dropship_response, dropship_request, dropship_log,
      transmission, dnh_transfer, assignment, order_item, order_grid, dropship_vendor, inventory_source_item, inventory_source RESTART IDENTITY CASCADE`,
  );
});

afterAll(async () => {
  await closeFeedPool();
});

describe("a vendor's scorecard", () => {
  it("counts what was due within its service levels, over 30 and 90 days", async () => {
    await prisma.inventorySource.create({ data: { source_code: "DS55", name: "Acme Drop", type: "dropshipper" } });
    const vendor = await prisma.vendor.create({ data: { name: "Acme Drop", store_id: "DS55" } });
    await po(vendor, 240, { ack: 2, ship: 30 }); // on time, both
    await po(vendor, 240, { ack: 30, ship: 100 }); // late, both
    await po(vendor, 240, {}); // nothing: due and late
    await po(vendor, 1, {}); // not due yet
    await po(vendor, 120, { ack: 1, line: "rejected", status: "rejected" }); // acknowledged on time, rejected; its 856 due and missing
    await po(vendor, 60 * 24, { ack: 2, ship: 50, line: "backordered" }); // 60 days ago: the 90-day card only
    const cancelled = await po(vendor, 100, { ack: 3, status: "cancelled" });
    await prisma.dropshipCancellation.create({
      data: {
        request_id: cancelled.request_id,
        vendor_id: vendor.id,
        po_number: cancelled.po_number,
        qty: 1,
        whole: true,
        change_number: 1,
        cause: "deleted",
        status: "accepted",
      },
    });
    await prisma.dropshipInvoiceCheck.create({
      data: { vendor_id: vendor.id, invoice_number: "INV-1", po_number: "PO-SC-1", problems: ["cost"], status: "mismatch", created_at: ago(72) },
    });
    await prisma.transmission.create({
      data: {
        vendor_id: vendor.id,
        direction: "in",
        file_name: "856_bad.edi",
        content: Buffer.from("x"),
        content_hash: "h",
        size: 1,
        status: "failed",
        created_at: ago(40 * 24),
      },
    });

    expect(await refreshVendorScorecards(NOW)).toBe(2);
    const [thirty, ninety] = await vendorScorecards(vendor.id);
    // 30 days: 6 POs; 855 due for 5 (not the one sent an hour ago), on time for 3; 856 due for 4 (not the one sent an hour
    // ago, nor the one asked back: it was told not to ship), on time for 1.
    expect(thirty).toMatchObject({
      window_days: 30,
      pos_sent: 6,
      acknowledged_pct: 60,
      on_time_pct: 25,
      median_hours_to_ship: 65,
      rejected_lines: 1,
      backordered_lines: 0,
      cancelled_lines: 1,
      invoice_mismatches: 1,
      refused_files: 0,
    });
    expect(ninety).toMatchObject({
      window_days: 90,
      pos_sent: 7,
      acknowledged_pct: 66.7,
      on_time_pct: 40,
      median_hours_to_ship: 50,
      backordered_lines: 1,
      refused_files: 1,
    });

    // The vendor grid shows the 30-day figures, in the reader's words.
    const en = await i18nServer.getFixedT("en", "common");
    const de = await i18nServer.getFixedT("de", "common");
    const rows = (await listVendors(new URLSearchParams())).data;
    expect(renderForReader(en, rows[0])).toMatchObject({ name: "Acme Drop", on_time_30: "25%", acknowledged_30: "60%", median_hours_30: "65 h" });
    expect(renderForReader(de, rows[0])).toMatchObject({ on_time_30: "25 %", median_hours_30: "65 Std." });
    // Manual Assignment and Reassign offer the vendor with its 30-day on-time rate.
    expect((await availableStores()).find((store) => store.source_code === "DS55")).toMatchObject({ on_time_30: 25 });
  });

  it("follows the vendor's own service levels, and says nothing of a vendor with nothing due", async () => {
    const strict = await prisma.vendor.create({ data: { name: "Strict", store_id: "DS56", sla_856_hours: 24 } });
    const quiet = await prisma.vendor.create({ data: { name: "Quiet", store_id: "DS57" } });
    await po(strict, 240, { ack: 2, ship: 30 });
    await refreshVendorScorecards(NOW);
    expect((await vendorScorecards(strict.id))[0]).toMatchObject({ on_time_pct: 0, acknowledged_pct: 100 });
    expect((await vendorScorecards(quiet.id))[0]).toMatchObject({ pos_sent: 0, on_time_pct: null, acknowledged_pct: null, median_hours_to_ship: null });
  });
});
