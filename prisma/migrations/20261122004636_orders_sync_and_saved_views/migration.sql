-- DropIndex
DROP INDEX "order_grid_shopify_order_id_idx";

-- AlterTable
ALTER TABLE "order_item" ADD COLUMN     "shopify_line_item_id" TEXT;

-- AlterTable
ALTER TABLE "sales_record" ADD COLUMN     "source_key" TEXT;

-- CreateTable
CREATE TABLE "saved_view" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "grid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "filters" JSONB NOT NULL DEFAULT '{}',
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "saved_view_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_event" (
    "webhook_id" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_event_pkey" PRIMARY KEY ("webhook_id")
);

-- CreateIndex
CREATE INDEX "saved_view_shop_grid_position_idx" ON "saved_view"("shop", "grid", "position");

-- CreateIndex
CREATE UNIQUE INDEX "saved_view_shop_grid_name_key_key" ON "saved_view"("shop", "grid", "name_key");

-- CreateIndex
CREATE INDEX "webhook_event_received_at_idx" ON "webhook_event"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "order_grid_shopify_order_id_key" ON "order_grid"("shopify_order_id");

-- CreateIndex
CREATE UNIQUE INDEX "order_item_shopify_line_item_id_key" ON "order_item"("shopify_line_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "sales_record_source_key_record_type_key" ON "sales_record"("source_key", "record_type");

