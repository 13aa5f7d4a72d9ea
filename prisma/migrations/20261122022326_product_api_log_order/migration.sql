-- DropIndex
DROP INDEX "product_api_error_created_at_idx";

-- DropIndex
DROP INDEX "product_api_operation_created_at_idx";

-- CreateIndex
CREATE INDEX "product_api_error_created_at_id_idx" ON "product_api_error"("created_at", "id");

-- CreateIndex
CREATE INDEX "product_api_operation_created_at_id_idx" ON "product_api_operation"("created_at", "id");

