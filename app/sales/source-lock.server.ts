// Writers of inventory sources from Shopify locations and vendors (the
// location_sync feed, the locations/* webhooks, vendor saves, the Stores form)
// one at a time: each reads the sources, then writes.
import type { Prisma } from "~/db/generated/client";
import { LOCK_KEYS } from "~/db/lock-keys";

export async function lockSources(tx: Prisma.TransactionClient) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_KEYS.sources}::int, 1)`;
}
