-- DropIndex
DROP INDEX "dropship_request_assignment_id_idx";

-- DropIndex
DROP INDEX "dropship_request_po_number_idx";

-- AlterTable
ALTER TABLE "order_grid" ADD COLUMN     "ship_city" TEXT,
ADD COLUMN     "ship_country_id" TEXT,
ADD COLUMN     "ship_first_name" TEXT,
ADD COLUMN     "ship_last_name" TEXT,
ADD COLUMN     "ship_phone" TEXT,
ADD COLUMN     "ship_postcode" TEXT,
ADD COLUMN     "ship_region" TEXT,
ADD COLUMN     "ship_street" TEXT;

-- AlterTable
ALTER TABLE "inventory_source" ADD COLUMN     "shopify_location_id" TEXT;

-- AlterTable
ALTER TABLE "inventory_source_item" ADD COLUMN     "shopify_synced_quantity" INTEGER;

-- AlterTable
ALTER TABLE "dropship_response" ADD COLUMN     "amount" DECIMAL(12,2),
ADD COLUMN     "detail" TEXT,
ADD COLUMN     "invoice_number" TEXT,
ADD COLUMN     "line_status" TEXT,
ADD COLUMN     "shopify_fulfillment_id" TEXT;

-- AlterTable
ALTER TABLE "transmission" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reply_to_id" INTEGER;

-- CreateIndex
CREATE INDEX "dropship_request_transmission_id_idx" ON "dropship_request"("transmission_id");

-- CreateIndex
CREATE UNIQUE INDEX "dropship_request_po_number_key" ON "dropship_request"("po_number");

-- CreateIndex
CREATE UNIQUE INDEX "dropship_request_assignment_id_key" ON "dropship_request"("assignment_id");

-- CreateIndex
CREATE INDEX "transmission_direction_status_id_idx" ON "transmission"("direction", "status", "id");

-- CreateIndex
CREATE INDEX "transmission_group_control_number_idx" ON "transmission"("group_control_number");

-- CreateIndex
CREATE UNIQUE INDEX "transmission_reply_to_id_partner_transaction_set_key" ON "transmission"("reply_to_id", "partner", "transaction_set");

