-- AlterTable
ALTER TABLE "realtime_sales_log" ADD COLUMN     "as400_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "as400_error" TEXT,
ADD COLUMN     "as400_file_name" TEXT,
ADD COLUMN     "as400_sent_at" TIMESTAMPTZ(3),
ADD COLUMN     "as400_status" TEXT,
ADD COLUMN     "as400_transmission_id" INTEGER;

-- AlterTable
ALTER TABLE "realtime_shipping_log" ADD COLUMN     "as400_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "as400_error" TEXT,
ADD COLUMN     "as400_file_name" TEXT,
ADD COLUMN     "as400_sent_at" TIMESTAMPTZ(3),
ADD COLUMN     "as400_status" TEXT,
ADD COLUMN     "as400_transmission_id" INTEGER;

-- CreateIndex
CREATE INDEX "realtime_sales_log_as400_status_id_idx" ON "realtime_sales_log"("as400_status", "id");

-- CreateIndex
CREATE INDEX "realtime_sales_log_as400_transmission_id_idx" ON "realtime_sales_log"("as400_transmission_id");

-- CreateIndex
CREATE INDEX "realtime_sales_log_as400_file_name_idx" ON "realtime_sales_log"("as400_file_name");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_as400_status_id_idx" ON "realtime_shipping_log"("as400_status", "id");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_as400_transmission_id_idx" ON "realtime_shipping_log"("as400_transmission_id");

-- CreateIndex
CREATE INDEX "realtime_shipping_log_as400_file_name_idx" ON "realtime_shipping_log"("as400_file_name");

