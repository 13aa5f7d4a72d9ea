// Demo rows of the realtime sales/refund and shipping logs, as the order
// webhooks and the drop-ship flow write them (D26): each invoice, shipping
// invoice, credit memo and shipment with its AS400 record in payload.as400.
// Older rows were sent to the AS400 in one file per day and kind (stored as
// sent transmissions); the newest file of each kind failed (the AS400 was
// down) and waits for the next run; the last day's rows are pending. A few
// error rows show what a bad webhook leaves. With the scheduler on, `npm
// start` sends the failed and pending ones to the demo AS400 within a minute.
import { createHash } from "node:crypto";
import type { PrismaClient } from "../../app/db/client.server";
import type { Prisma } from "../../app/db/generated/client";
import { dayIn } from "../../app/lib/app-time";
import {
  REALTIME_SALES_FILE,
  REALTIME_SHIPPING_FILE,
  realtimeCsv,
  realtimeFileName,
  type PendingRow,
  type SalesAs400Record,
  type ShipmentAs400Record,
} from "../../app/as400/realtime-files";

interface Random {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

const DAY = 86_400_000;
const CARRIERS = ["UPS", "FedEx", "USPS"];
// The business day of a moment, in the app's time zone (as the order sync and Daily Sales count days).
const dayOf = (instant: Date) => dayIn(process.env.APP_TIMEZONE || "America/New_York", instant);
const amount = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

export async function seedRealtimeLogs(db: PrismaClient, r: Random, now: Date) {
  const orders = await db.order.findMany({
    where: { magento_status: { notIn: ["canceled", "fraud"] } },
    select: {
      order_id: true,
      shopify_order_id: true,
      magento_status: true,
      created_at: true,
      grand_total_purchased: true,
      items: { select: { sku: true, qty_ordered: true, shopify_line_item_id: true } },
    },
    orderBy: { created_at: "asc" },
  });
  const vendors = (await db.vendor.findMany({ select: { name: true }, orderBy: { id: "asc" } })).map((vendor) => vendor.name);
  const sales: Prisma.RealtimeSalesLogCreateManyInput[] = [];
  const shipping: Prisma.RealtimeShippingLogCreateManyInput[] = [];

  // A day after the order, or by now for today's orders: nothing is logged in the future.
  const dayAfter = (when: Date) => new Date(Math.max(when.getTime(), Math.min(when.getTime() + DAY, now.getTime() - 60_000)));
  let fulfillmentId = 5_400_000_000;
  for (const order of orders) {
    const shopifyId = order.shopify_order_id ?? `local-${order.order_id}`;
    const total = Number(order.grand_total_purchased ?? 0);
    const base = { order_id: order.order_id, shopify_order_id: shopifyId, record_date: dayOf(order.created_at) };
    const summary = { topic: "orders/create", shop: "demo-shop.myshopify.com", shopify_order_id: shopifyId, financial_status: "paid" };
    const sale = (record: SalesAs400Record, message: string, created_at: Date) =>
      sales.push({
        event: record.event,
        order_increment_id: order.order_id,
        shopify_order_id: shopifyId,
        amount: record.amount,
        status: "success",
        message,
        payload: { ...summary, record_type: record.record_type, as400: record },
        as400_status: "pending",
        created_at,
      });

    sale(
      { ...base, record_key: `order:${shopifyId}/invoice`, event: "sale", record_type: "invoice", change: "new", source_id: shopifyId, amount: amount(total) },
      `Invoice of $${amount(total)} for order ${order.order_id} created (paid).`,
      order.created_at,
    );
    if (order.magento_status === "complete") {
      const freight = r.pick([7.95, 12.5]);
      sale(
        {
          ...base,
          record_key: `order:${shopifyId}/shipping_invoice`,
          event: "sale",
          record_type: "shipping_invoice",
          change: "new",
          source_id: shopifyId,
          amount: amount(freight),
        },
        `Shipping invoice of $${amount(freight)} for order ${order.order_id} created.`,
        order.created_at,
      );
      const shippedAt = dayAfter(order.created_at);
      const id = String(++fulfillmentId);
      const dropship = r.chance(0.3) && vendors.length > 0;
      const tracking = `9400${r.int(100000000, 999999999)}`;
      const carrier = r.pick(CARRIERS);
      const lines = order.items.map((item) => ({ sku: item.sku, qty: item.qty_ordered }));
      const record: ShipmentAs400Record = {
        fulfillment_id: id,
        source: dropship ? "dropship" : "shopify",
        order_id: order.order_id,
        shopify_order_id: shopifyId,
        carrier,
        tracking_number: tracking,
        shipped_at: shippedAt.toISOString(),
        po_number: dropship ? `PO${order.order_id}-${r.int(1, 900)}` : null,
        vendor: dropship ? r.pick(vendors) : null,
        lines: dropship ? lines.slice(0, 1) : lines,
      };
      shipping.push({
        order_increment_id: order.order_id,
        shopify_order_id: shopifyId,
        tracking_number: tracking,
        tracking_carrier: carrier,
        status: "success",
        message: dropship
          ? `Drop-ship shipment of PO ${record.po_number} (${record.vendor}): ${record.lines[0]?.qty ?? 0} ` +
            `x ${record.lines[0]?.sku ?? ""}, tracking ${tracking}; Shopify fulfilment ${id} created.`
          : `Fulfillment ${id}: success, ${lines.reduce((sum, line) => sum + line.qty, 0)} units (from fulfillments/create).`,
        payload: dropship
          ? { source: "dropship", shopify_fulfillment_id: id, po_number: record.po_number, vendor: record.vendor, as400: record }
          : { fulfillment_id: id, fulfillment_status: "success", lines: [], topic: "fulfillments/create", as400: record },
        as400_status: "pending",
        created_at: shippedAt,
      });
    }
    if (order.magento_status === "closed") {
      const refund = total * r.pick([1, 0.5]);
      const refundId = String(9_100_000_000 + sales.length);
      const refundedAt = dayAfter(order.created_at);
      sale(
        {
          ...base,
          record_date: dayOf(refundedAt),
          record_key: `refund:${refundId}/credit_memo`,
          event: "refund",
          record_type: "credit_memo",
          change: "new",
          source_id: refundId,
          amount: amount(refund),
        },
        `Credit memo of $${amount(refund)} for refund ${refundId} of order ${order.order_id} created.`,
        refundedAt,
      );
    }
  }
  // What bad webhooks leave: errors, not for the AS400.
  sales.push({
    event: "sale",
    shopify_order_id: "5812345670001",
    amount: 0,
    status: "error",
    message:
      "orders/create webhook 4f1c9e2a-demo from demo-shop.myshopify.com ignored: the payload is not usable (total_price: must be an amount such as 12.50).",
    payload: { topic: "orders/create", reason: "total_price: must be an amount such as 12.50" },
    created_at: new Date(now.getTime() - 2 * DAY),
  });
  sales.push({
    event: "refund",
    shopify_order_id: "5812345670002",
    amount: "15.00",
    status: "error",
    message:
      "Refund 9100000777 of Shopify order 5812345670002: the order is not in the order grid yet. Its next orders/updated carries the refund and records it.",
    payload: { topic: "refunds/create", refund_id: "9100000777" },
    created_at: new Date(now.getTime() - DAY),
  });
  shipping.push({
    shopify_order_id: "5812345679999",
    status: "error",
    message:
      "Fulfillment 5400999999 of Shopify order 5812345679999: the order is not in the " +
      "order grid yet. Its next orders/updated carries the fulfillment and records it.",
    payload: { topic: "fulfillments/create", fulfillment_id: "5400999999" },
    created_at: new Date(now.getTime() - DAY),
  });

  sales.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  shipping.sort((a, b) => (a.created_at as Date).getTime() - (b.created_at as Date).getTime());
  const salesRows = await db.realtimeSalesLog.createManyAndReturn({ data: sales, select: { id: true, payload: true, created_at: true, as400_status: true } });
  const shippingRows = await db.realtimeShippingLog.createManyAndReturn({
    data: shipping,
    select: { id: true, payload: true, created_at: true, as400_status: true },
  });

  // The files: one per kind and day, sent the next morning; the newest failed, and the last day's rows are pending.
  const kinds = [
    { ...REALTIME_SALES_FILE, rows: salesRows, table: db.realtimeSalesLog },
    { ...REALTIME_SHIPPING_FILE, rows: shippingRows, table: db.realtimeShippingLog },
  ] as const;
  for (const kind of kinds) {
    const byDay = new Map<string, PendingRow[]>();
    for (const row of kind.rows) {
      if (row.as400_status !== "pending" || now.getTime() - row.created_at.getTime() < DAY) continue;
      const day = dayOf(row.created_at);
      byDay.set(day, [...(byDay.get(day) ?? []), row]);
    }
    // The newest of these files failed: the AS400 was down when it was sent.
    const failedDay = [...byDay.keys()].sort().at(-1);
    for (const [day, rows] of byDay) {
      const packedAt = new Date(`${day}T23:59:00.000Z`);
      const fileName = realtimeFileName(kind.prefix, packedAt, rows[0].id, rows[rows.length - 1].id);
      const lines = rows.flatMap((row) => {
        const out = kind.lines(row);
        return "error" in out ? [] : out;
      });
      const content = realtimeCsv(kind.header, lines);
      const failed = day === failedDay;
      const error = "Could not reach the AS400: connect ECONNREFUSED 10.20.0.15:22";
      const transmission = await db.transmission.create({
        data: {
          partner: "as400",
          direction: "out",
          file_name: fileName,
          remote_path: `${kind.folder}/${fileName}`,
          transaction_set: kind.set,
          content_hash: createHash("sha256")
            .update(Buffer.concat([Buffer.from(`${fileName}\n`), content]))
            .digest("hex"),
          content: new Uint8Array(content),
          size: content.length,
          status: failed ? "prepared" : "sent",
          error: failed ? error : null,
          attempts: 1,
          processed_at: failed ? null : packedAt,
          created_at: packedAt,
        },
      });
      const data = failed
        ? {
            as400_status: "failed",
            as400_transmission_id: transmission.id,
            as400_file_name: fileName,
            as400_error: `Could not upload ${fileName} to the AS400: ${error}. Sent again at the next run.`,
            as400_attempts: 1,
          }
        : { as400_status: "sent", as400_transmission_id: transmission.id, as400_file_name: fileName, as400_sent_at: packedAt, as400_attempts: 1 };
      await (kind.table as unknown as { updateMany(args: { where: { id: { in: number[] } }; data: typeof data }): Promise<unknown> }).updateMany({
        where: { id: { in: rows.map((row) => row.id) } },
        data,
      });
    }
  }
}
