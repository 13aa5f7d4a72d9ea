-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- DropIndex
DROP INDEX "dropship_log_vendor_name_idx";

-- DropIndex
DROP INDEX "dropship_log_action_idx";

-- DropIndex
DROP INDEX "dropship_log_status_idx";

-- CreateIndex
CREATE INDEX "order_grid_order_id_trgm" ON "order_grid" USING GIN ("order_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_shopify_order_id_trgm" ON "order_grid" USING GIN ("shopify_order_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_customer_email_trgm" ON "order_grid" USING GIN ("customer_email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_concat_bill_to_name_trgm" ON "order_grid" USING GIN ("concat_bill_to_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_concat_ship_to_name_trgm" ON "order_grid" USING GIN ("concat_ship_to_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_select_skus_trgm" ON "order_grid" USING GIN ("select_skus" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_concat_billing_address_trgm" ON "order_grid" USING GIN ("concat_billing_address" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_concat_shipping_address_trgm" ON "order_grid" USING GIN ("concat_shipping_address" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_marketplace_order_id_trgm" ON "order_grid" USING GIN ("marketplace_order_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_vendor_name_id_idx" ON "dropship_log"("vendor_name", "id");

-- CreateIndex
CREATE INDEX "dropship_log_action_id_idx" ON "dropship_log"("action", "id");

-- CreateIndex
CREATE INDEX "dropship_log_status_id_idx" ON "dropship_log"("status", "id");

-- CreateIndex
CREATE INDEX "dropship_log_vendor_name_trgm" ON "dropship_log" USING GIN ("vendor_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_po_number_trgm" ON "dropship_log" USING GIN ("po_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_order_increment_id_trgm" ON "dropship_log" USING GIN ("order_increment_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_item_sku_trgm" ON "dropship_log" USING GIN ("item_sku" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_tracking_number_trgm" ON "dropship_log" USING GIN ("tracking_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_file_name_trgm" ON "dropship_log" USING GIN ("file_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "dropship_log_message_trgm" ON "dropship_log" USING GIN ("message" gin_trgm_ops);

