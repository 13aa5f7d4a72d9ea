-- AlterTable
ALTER TABLE "order_grid" ALTER COLUMN "updated_at" SET DEFAULT CURRENT_TIMESTAMP;


-- Home's "Total Outstanding Orders" (app/orders/daily-sales.server.ts) sums the
-- grand totals of the orders not yet shipped: a partial index holding just those
-- rows (with the total, for an index-only scan) instead of reading a million.
-- Prisma's schema cannot state a partial index, so it lives here only.
CREATE INDEX "order_grid_outstanding_idx" ON "order_grid" ("id") INCLUDE ("grand_total_purchased")
  WHERE COALESCE("magento_status", '') NOT IN ('complete', 'closed', 'canceled', 'fraud')
    AND "total_shipped" < "total_shippable_qty_ordered";
