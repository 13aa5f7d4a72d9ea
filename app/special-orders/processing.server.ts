// One special order's way into Shopify, used by the pull (every pending order)
// and by a revision's save (that order at once). The order's row is locked
// while Shopify is asked, so the feed and a save never create it side by side;
// the ticket's tag in Shopify (shopify-order.server.ts) covers a crash between
// Shopify's answer and our commit.
import { englishText } from "~/i18n/english.server";
import type { RunMessage } from "~/i18n/messages";
import prisma from "~/db.server";
import type { Prisma, SpecialOrder } from "~/db/generated/client";
import type { ShopifyAdmin } from "~/shopify/admin-client.server";
import { errorRowOf, readItems } from "./special-order-rules";
import { createShopifyOrderOnce } from "./shopify-order.server";

export const SPECIAL_ORDER_STATUSES = ["pending", "created", "error"] as const;
export const DEFAULT_SHIPPING_DESCRIPTION = "Special Order Shipping";

/** Items plus their tax plus shipping, as the AS400 priced the ticket (grand_total_base). */
export function baseTotal(items: unknown, shippingCost: unknown): number {
  const list = readItems(items) ?? [];
  const cents = list.reduce((sum, item) => sum + Math.round((Number(item.price) || 0) * 100) + Math.round((Number(item.tax) || 0) * 100), 0);
  return (cents + Math.round((Number(shippingCost) || 0) * 100)) / 100;
}

/** A new error row for staff to revise, with the order's fields as they are now. */
export async function recordSpecialOrderError(tx: Prisma.TransactionClient, order: SpecialOrder, problem: string | RunMessage) {
  // A rule's message is a code (D114); Shopify's refusal is its own words.
  const message = typeof problem === "string" ? problem : englishText(problem);
  await tx.specialOrder.update({ where: { id: order.id }, data: { status: "error" } });
  await tx.specialOrderError.create({
    data: {
      ...errorRowOf(order),
      error_message: message.slice(0, 2000),
      ...(typeof problem === "string" ? {} : { error_code: problem as Prisma.InputJsonValue }),
    },
  });
}

export type ProcessOutcome =
  | { status: "created"; orderId: string; shopifyOrderId: string; createdNow: boolean }
  | { status: "error"; message: string }
  /** Not pending (any more): another run or a save took care of it. */
  | { status: "skipped" };

/**
 * Sends one pending special order to Shopify. A refusal becomes an error row;
 * a failed call throws and leaves the order pending for the next run.
 */
export async function processSpecialOrder(admin: ShopifyAdmin, id: number): Promise<ProcessOutcome> {
  return prisma.$transaction(
    async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: number }>>`SELECT id FROM special_order WHERE id = ${id} AND status = 'pending' FOR UPDATE`;
      if (locked.length === 0) return { status: "skipped" } as const;
      const order = await tx.specialOrder.findUniqueOrThrow({ where: { id } });
      const outcome = await createShopifyOrderOnce(admin, order);
      if (!outcome.ok) {
        await recordSpecialOrderError(tx, order, outcome.message);
        return { status: "error", message: outcome.message } as const;
      }
      await tx.specialOrder.update({
        where: { id },
        data: {
          status: "created",
          order_id: outcome.name,
          shopify_order_id: outcome.shopifyOrderId,
          grand_total_purchased: outcome.total,
        },
      });
      return { status: "created", orderId: outcome.name, shopifyOrderId: outcome.shopifyOrderId, createdNow: outcome.created } as const;
    },
    // Shopify is asked inside: room for its answer, not for a hung connection.
    { maxWait: 10_000, timeout: 60_000 },
  );
}
