-- The EOD report becomes one row per sales date and store (D31). Until now only
-- the demo seed wrote these tables, one row per order line, and batches had no
-- file content: they cannot be carried over, and the next EOD run rebuilds the
-- rows from the sales records.
DELETE FROM "eod_report_row";
DELETE FROM "eod_batch";

-- DropIndex
DROP INDEX "eod_report_row_order_increment_id_idx";

-- DropIndex
DROP INDEX "eod_report_row_item_sku_idx";

-- DropIndex
DROP INDEX "eod_report_row_record_type_idx";

-- DropIndex
DROP INDEX "eod_batch_status_idx";

-- AlterTable
ALTER TABLE "eod_report_row" DROP COLUMN "amount",
DROP COLUMN "item_sku",
DROP COLUMN "order_increment_id",
DROP COLUMN "qty",
DROP COLUMN "record_type",
DROP COLUMN "shipping",
DROP COLUMN "tax",
ADD COLUMN     "batched_revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "credit_memo_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "credit_memo_total" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "export_status" TEXT NOT NULL DEFAULT 'pending',
ADD COLUMN     "invoice_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "invoice_total" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "net_sales" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "order_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "shipping_invoice_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "shipping_invoice_total" DECIMAL(14,2) NOT NULL DEFAULT 0,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "eod_batch" DROP COLUMN "total",
ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "content" BYTEA NOT NULL,
ADD COLUMN     "content_hash" TEXT NOT NULL,
ADD COLUMN     "credit_memo_total" DECIMAL(14,2) NOT NULL,
ADD COLUMN     "invoice_total" DECIMAL(14,2) NOT NULL,
ADD COLUMN     "last_sales_date" DATE NOT NULL,
ADD COLUMN     "net_sales" DECIMAL(14,2) NOT NULL,
ADD COLUMN     "remote_path" TEXT NOT NULL,
ADD COLUMN     "shipping_invoice_total" DECIMAL(14,2) NOT NULL,
ADD COLUMN     "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "eod_report_row_export_status_idx" ON "eod_report_row"("export_status");

-- CreateIndex
CREATE UNIQUE INDEX "eod_report_row_sales_date_store_id_key" ON "eod_report_row"("sales_date", "store_id");

-- CreateIndex
CREATE INDEX "eod_batch_status_id_idx" ON "eod_batch"("status", "id");

