// The lock that puts every change of one Shopify order in line: the order
// webhooks (sync.server.ts) and the drop-ship flow recording a shipment of
// the order (D26) take it for the rest of their transaction.
import type { Prisma } from "~/db/generated/client";

/** First key of the two-int advisory locks taken per Shopify order (feeds use 72700002). */
const ORDER_LOCK_NAMESPACE = 72_700_010;

/** Transaction-level: released at commit or rollback. */
export async function lockShopifyOrder(tx: Prisma.TransactionClient, shopifyOrderId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ORDER_LOCK_NAMESPACE}::int, hashtext(${`shopify-order:${shopifyOrderId}`}))`;
}
