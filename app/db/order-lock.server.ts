// The lock that puts every change of one Shopify order in line: the order
// webhooks (app/orders/sync.server.ts) and the drop-ship flow recording a shipment of
// the order (D26) take it for the rest of their transaction.
import type { Prisma } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";

const ORDER_LOCK_NAMESPACE = LOCK_KEYS.shopifyOrder;

/** Transaction-level: released at commit or rollback. */
export async function lockShopifyOrder(tx: Prisma.TransactionClient, shopifyOrderId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ORDER_LOCK_NAMESPACE}::int, hashtext(${`shopify-order:${shopifyOrderId}`}))`;
}
