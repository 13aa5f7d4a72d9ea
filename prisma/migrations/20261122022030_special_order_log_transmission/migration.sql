-- AlterTable
ALTER TABLE "special_order_log" ADD COLUMN     "summary" TEXT,
ADD COLUMN     "transmission_id" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "special_order_log_transmission_id_key" ON "special_order_log"("transmission_id");

