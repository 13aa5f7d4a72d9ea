-- CreateIndex
CREATE INDEX "order_grid_created_at_id_idx" ON "order_grid"("created_at", "id");

-- CreateIndex
CREATE INDEX "order_grid_updated_at_id_idx" ON "order_grid"("updated_at", "id");

-- CreateIndex
CREATE INDEX "order_grid_shopify_updated_at_id_idx" ON "order_grid"("shopify_updated_at", "id");

-- CreateIndex
CREATE INDEX "order_grid_customer_email_id_idx" ON "order_grid"("customer_email", "id");

-- CreateIndex
CREATE INDEX "order_grid_ca_site_order_id_trgm" ON "order_grid" USING GIN ("ca_site_order_id" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "order_grid_ca_order_id_trgm" ON "order_grid" USING GIN ("ca_order_id" gin_trgm_ops);

