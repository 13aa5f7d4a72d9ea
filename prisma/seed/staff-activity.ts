// Who did what in the demo (issue 32 item 5): a few days of staff actions, in local mode
// and by a Shopify staff member, on a demo vendor, a feed and a drop-shipped order (so its
// page tells them in its story); and that staff member's columns of Drop Shipping Logs.
import type { PrismaClient } from "../../app/db/client.server";

const DAY = 86_400_000;
const SHOPIFY_STAFF = "shopify-user:9001";

export async function seedStaffActivity(db: PrismaClient, now: Date) {
  const request = await db.dropshipRequest.findFirst({ where: { transmission_id: { not: null } }, orderBy: { request_id: "asc" } });
  const vendor = await db.vendor.findFirst({ orderBy: { id: "asc" } });
  const at = (days: number, hours = 0) => new Date(now.getTime() - days * DAY - hours * 3_600_000);
  await db.staffActivity.createMany({
    data: [
      ...(vendor
        ? [
            {
              staff: "local",
              action: "dropship_vendor.save",
              record_type: "dropship_vendor",
              record_id: String(vendor.id),
              outcome: "done",
              detail: { name: vendor.name },
              created_at: at(3, 4),
            },
          ]
        : []),
      { staff: "local", action: "feed.run", record_type: "feed", record_id: "dropship_populate_requests", outcome: "done", detail: {}, created_at: at(2, 6) },
      ...(request
        ? [
            {
              staff: SHOPIFY_STAFF,
              action: "dropship_request.save",
              record_type: "dropship_request",
              record_id: String(request.request_id),
              order_increment_id: request.order_increment_id,
              outcome: "refused",
              detail: { refused: ["ship_zip"] },
              created_at: at(1, 3),
            },
            {
              staff: SHOPIFY_STAFF,
              action: "dropship_request.save",
              record_type: "dropship_request",
              record_id: String(request.request_id),
              order_increment_id: request.order_increment_id,
              outcome: "done",
              detail: {},
              created_at: at(1, 2),
            },
          ]
        : []),
    ],
  });
  await db.staffGridPreference.create({ data: { staff: SHOPIFY_STAFF, grid_id: "dropship_log", hidden_columns: ["qty", "tracking_number"] } });
}
