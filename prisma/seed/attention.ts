// Needs attention in the demo (issue 30): Settings with one recipient, the
// vendor whose server timed out on its last runs, two invoice lines checked
// against their PO (one off by its cost), and then the app's own sweep over the
// demo data, so the screen lists what the demo's state really makes: late
// vendors, rejected and backordered lines, refused files, a failed feed…
// One item is dismissed with a note. The vendors' scorecards are made from the same data.
import { sweepAttention } from "../../app/attention/sweep.server";
import { refreshVendorScorecards } from "../../app/dropship/scorecards.server";
import type { PrismaClient } from "../../app/db/client.server";
import { DEFAULT_SETTINGS, type Settings } from "../../app/settings/settings.server";

const DAY = 86_400_000;

export async function seedAttention(db: PrismaClient, now: Date, unreachableVendorId: number) {
  const settings: Settings = { ...DEFAULT_SETTINGS, alerts: { ...DEFAULT_SETTINGS.alerts, recipients: [{ email: "ops@example.com", language: "en" }] } };
  await db.appSetting.createMany({
    data: [
      { key: "service_levels", value: settings.service_levels, updated_by: "seed" },
      { key: "alerts", value: settings.alerts, updated_by: "seed" },
    ],
  });
  await db.partnerContact.create({
    data: {
      partner: `vendor:${unreachableVendorId}`,
      vendor_id: unreachableVendorId,
      failures: 3,
      first_failed_at: new Date(now.getTime() - 2 * DAY),
      last_failed_at: new Date(now.getTime() - DAY),
      last_error: "connection timed out after 20 s",
    },
  });
  await db.partnerContact.create({ data: { partner: "as400", failures: 0, last_ok_at: new Date(now.getTime() - 3_600_000) } });

  // Two invoiced lines of a vendor that bills its cost: one as ordered, one 8% over the PO's unit cost.
  const invoiced = await db.dropshipRequest.findMany({
    where: { status: { in: ["shipped", "completed"] }, vendor: { use_cost: 1 } },
    orderBy: { request_id: "asc" },
    take: 2,
  });
  for (const [i, request] of invoiced.entries()) {
    const cost = request.unit_cost === null ? 24.5 : Number(request.unit_cost);
    const invoicedCost = i === 0 ? cost : Math.round(cost * 108) / 100;
    await db.dropshipInvoiceCheck.create({
      data: {
        vendor_id: request.vendor_id,
        invoice_number: `INV-${request.po_number}`,
        po_number: request.po_number,
        request_id: request.request_id,
        line_number: "1",
        sku: request.item_sku,
        sku_ordered: request.item_sku,
        qty_invoiced: request.qty,
        qty_shipped: request.qty,
        unit_cost_invoiced: invoicedCost,
        unit_cost_ordered: cost,
        line_charges: 0,
        invoice_charges: 7.5,
        problems: i === 0 ? [] : ["cost"],
        status: i === 0 ? "matched" : "mismatch",
        created_at: new Date(now.getTime() - (i + 1) * DAY),
      },
    });
  }

  await sweepAttention(now, settings, db);
  await refreshVendorScorecards(now, settings, db);
  const dismissed = await db.attentionItem.findFirst({ where: { kind: "backordered_line" }, orderBy: { id: "asc" } });
  if (dismissed)
    await db.attentionItem.update({
      where: { id: dismissed.id },
      data: { dismissed_at: now, dismissed_by: "local", dismiss_note: "Vendor called: ships next week, customer told." },
    });
}
