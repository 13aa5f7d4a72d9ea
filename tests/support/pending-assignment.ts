// The drop-ship flow's starting point for the tests: an order of one item, shipping
// to Ada Lovelace in Chicago, processing, and a Pending assignment (assign_status 1)
// of that item to a vendor's store, as the Sales Assignment screens leave it.
import type { PrismaClient } from "../../app/db/client.server";

export interface PendingAssignment {
  orderId: string;
  shopifyOrderId: string;
  sku: string;
  qty: number;
  /** The vendor's store id and name. */
  storeId: string;
  vendorName: string;
  /** The item's name; `Item <sku>` unless given. */
  itemName?: string;
  /** The ship-to street; one line unless given. */
  street?: string;
}

export async function createPendingAssignment(db: PrismaClient, pending: PendingAssignment) {
  const order = await db.order.create({
    data: {
      order_id: pending.orderId,
      shopify_order_id: pending.shopifyOrderId,
      concat_ship_to_name: "Ada Lovelace",
      ship_first_name: "Ada",
      ship_last_name: "Lovelace",
      ship_street: pending.street ?? "12 Analytical Way",
      ship_city: "Chicago",
      ship_region: "IL",
      ship_postcode: "60601",
      ship_country_id: "US",
      magento_status: "processing",
      items: { create: [{ sku: pending.sku, name: pending.itemName ?? `Item ${pending.sku}`, qty_ordered: pending.qty, price: 40 }] },
    },
    include: { items: true },
  });
  return db.assignment.create({
    data: {
      order_increment_id: order.order_id,
      shopify_order_id: order.shopify_order_id,
      item_id: order.items[0].item_id,
      product_sku: pending.sku,
      qty_assigned: pending.qty,
      store_id: pending.storeId,
      dropshipper_name: pending.vendorName,
      assign_status: 1,
    },
  });
}
