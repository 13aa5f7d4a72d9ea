-- AlterTable
ALTER TABLE "inventory_source" ADD COLUMN     "id" SERIAL NOT NULL,
ADD COLUMN     "shopify_updated_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE UNIQUE INDEX "inventory_source_id_key" ON "inventory_source"("id");

-- CreateIndex
CREATE UNIQUE INDEX "inventory_source_shopify_location_id_key" ON "inventory_source"("shopify_location_id");

